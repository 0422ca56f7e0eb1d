"""The figures and report table of the f3 importance (rule figures_f3_importance; the analysis:
:mod:`punctstyle.training.importance`): the importance heat maps, the top-k accuracies and the
table of the most important transitions."""

from __future__ import annotations

from typing import Any

import pandas as pd

from punctstyle.classifiers import display_name
from punctstyle.io import read_json_object, write_text_atomic
from punctstyle.report.plots.base import placeholder_figure, save_figure
from punctstyle.report.plots.importance import plot_importance_heatmaps, plot_top_k_accuracy
from punctstyle.report.render import html_page, html_paragraph, html_table
from punctstyle.training.importance import importance_matrix, top_transitions


def importance_figures(inputs: Any, output: Any) -> None:
    """Rule figures_f3_importance: the importance heat maps, top-k accuracies and their table."""
    record = read_json_object(inputs.summary)
    importance, top_k = pd.read_csv(inputs.importance), pd.read_csv(inputs.top_k)
    empty = f"No f3 importance: {record['reason']}"
    if importance.empty:
        heatmap, top_k_figure = placeholder_figure(empty), placeholder_figure(empty)
    else:
        matrices = {int(n): importance_matrix(importance, int(n)) for n in importance["n_classes"].unique()}
        heatmap = plot_importance_heatmaps(
            matrices, "Permutation importance of f3 entries for the MLP on f3 (test accuracy drop, mean over seeds)"
        )
        top_k_figure = (
            plot_top_k_accuracy(
                top_k,
                {m: display_name(m) for m in ("kl", "mlp")},
                "Author recognition on the top-k f3 entries (ranked on training books)",
            )
            if len(top_k)
            else placeholder_figure(empty)
        )
    save_figure(heatmap, output.heatmap, output.heatmap_pdf)
    save_figure(top_k_figure, output.top_k, output.top_k_pdf)
    parts = (
        [html_paragraph(empty)]
        if importance.empty
        else [
            html_table(
                top_transitions(importance, 10),
                {"importance": ".4f", "sd": ".4f"},
                caption="The 10 most important f3 transitions (largest number of authors)",
            ),
            html_table(
                top_k.assign(method=top_k["method"].map(display_name)),
                {"k": "auto", "n_seeds": "auto"},
                caption="Test accuracy on the top-k entries (k = 100: all of f3)",
            ),
        ]
    )
    write_text_atomic(output.table, html_page("Which f3 transitions matter", parts))


def importance_figures_job(inputs: Any, output: Any, log: Any) -> None:
    """Rule figures_f3_importance (:func:`importance_figures`), logged."""
    importance_figures(inputs, output)
    log.info("figures_f3_importance: done")
