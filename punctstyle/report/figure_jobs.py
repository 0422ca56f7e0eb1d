"""The bodies of the figure rules (``figures_*``, ``config_used``): read a family's inputs with the
package's readers, draw its figures (:mod:`punctstyle.report.plots`) and write its report tables.
Each takes the rule's ``inputs`` and ``outputs`` (Snakemake's named lists, or mappings read by
attribute) and the values the rule hands over; ``scripts/figures_*.py`` only call them."""

from __future__ import annotations

from typing import Any

import pandas as pd

from punctstyle.analyses.consistency_files import (
    heatmap_key,
    read_consistency_table,
    read_heatmaps,
    read_summary,
    read_values,
)
from punctstyle.training.length_summary import feature_text, summary_markdown
from punctstyle.classifiers import display_name
from punctstyle.corpus.exclusions import read_exclusions
from punctstyle.corpus.summary import read_corpus_summary
from punctstyle.io import write_text_atomic
from punctstyle.report.plots import corpus as corpus_plots
from punctstyle.report.plots import plot_accuracy_vs_classes, plot_consistency, plot_kl_distributions
from punctstyle.report.plots import plot_kl_heatmap, save_figure
from punctstyle.report.plots.base import placeholder_figure
from punctstyle.report.plots.length import plot_length_curve
from punctstyle.report.recognition_tables import accuracy_long, to_html
from punctstyle.report.render import html_page, html_paragraph, html_preformatted, html_table
from punctstyle.report.tables import corpus_tables
from punctstyle.rule_names import TASK_NOUNS, TASKS


def draw_registered(figures: dict[str, Any], data: Any, outputs: Any) -> list[str]:
    """Draw each figure of a family's registry (output name -> function of ``data``) that the rule
    declares as an output (PNG ``outputs[name]``, PDF ``outputs[name + "_pdf"]``); the names drawn."""
    drawn = []
    for name, draw in figures.items():
        if name in outputs.keys():
            save_figure(draw(data), outputs[name], outputs[f"{name}_pdf"])
            drawn.append(name)
    return drawn


def corpus_figures(inputs: Any, outputs: Any, log: Any) -> None:
    """Rule figures_corpus: every figure of :data:`punctstyle.report.plots.corpus.FIGURES` (documents
    per author, f1 histograms, ...) and the data-set table (section 2)."""
    table = pd.read_parquet(inputs.f1)
    draw_registered(corpus_plots.FIGURES, table, outputs)
    summary, exclusions = read_corpus_summary(inputs.summary), read_exclusions(inputs.exclusions)
    counts, reasons, genres = corpus_tables(summary, exclusions, table)
    parts = [
        html_table(counts, formats="auto", caption="Corpus"),
        html_table(reasons, caption="Books excluded, by stage and reason"),
        html_table(genres, caption="Genres (book counts in the corpus)"),
    ]
    write_text_atomic(outputs.table, html_page("Data set (section 2.1)", parts))
    log.info("corpus figures: %d books by %d authors", len(table), table["author"].nunique())


RECOGNITION_NOTE = (
    "Accuracy on the test set, mean ± standard deviation over the seeds (no ± when the seeds agree "
    "or there is one seed); baseline: expected accuracy of assigning each test document to a class "
    "at random with the class's share of the training set (section 2.5)."
)
RECOGNITION_TITLES = {
    "author": "Author recognition (Tables 2 and 3)",
    "genre": "Genre recognition (Table 4)",
    "time_slot": "Time slot recognition (beyond the paper)",
    "gender": "Gender recognition (beyond the paper)",
}


def uncomputed_rows_note(task: str, class_sizes: list[Any] | None, n_classes: int) -> str | None:
    """Why the configured class sizes at or above the corpus' ``n_classes`` have no row (None
    when every size has one): with ``all`` configured such a row would sample every class, which
    is the "all" row's experiment (:func:`punctstyle.plan.rows.computed_class_sizes`)."""
    sizes = [str(size) for size in class_sizes or []]
    if "all" not in sizes or n_classes < 2:
        return None
    dropped = [size for size in dict.fromkeys(sizes) if size != "all" and int(size) >= n_classes]
    if not dropped:
        return None
    noun = TASK_NOUNS.get(task, task)
    rows = " and ".join(f"{size}-{noun}" for size in dropped)
    return (f"No {rows} row: the corpus has {n_classes} {noun}s, so recognition.class_sizes {', '.join(dropped)} "
            f"would sample all of them, which is the 'all' row ({n_classes} {noun}s).")


def uncomputed_rows_lines(config: dict[str, Any]) -> list[str]:
    """The end of a run: :func:`uncomputed_rows_note` of each task's recognition summary
    (``analysis/recognition/<task>_summary.csv``) that exists, its class count read from it."""
    lines = []
    for task in TASKS:
        path = f"{config['outdir']}/analysis/recognition/{task}_summary.csv"
        try:
            summary = pd.read_csv(path, usecols=["n_classes"])
        except (OSError, ValueError, pd.errors.EmptyDataError):
            continue
        if len(summary) and (note := uncomputed_rows_note(task, config["recognition"]["class_sizes"],
                                                          int(summary["n_classes"].max()))):
            lines.append(f"recognition: {note}")
    return lines


def recognition_figures(task: str, inputs: Any, outputs: Any, log: Any, class_sizes: list[Any] | None = None) -> None:
    """Rule figures_recognition: accuracy versus number of classes, and Tables 2-4 as HTML (with
    a note, also logged, naming the configured class sizes that have no row: ``class_sizes``,
    the config's ``recognition.class_sizes``)."""
    summary = pd.read_csv(inputs.summary)
    long = accuracy_long(summary) if len(summary) else pd.DataFrame()
    noun = TASK_NOUNS.get(task, task)
    empty = f"No {noun} recognition results: the corpus has fewer than 2 {noun} classes."
    if long.empty:
        figure = placeholder_figure(empty)
    else:
        long["method"] = long["method"].map(display_name)
        title = f"{noun} recognition: test accuracy (mean and standard deviation over seeds) and baseline"
        figure = plot_accuracy_vs_classes(long, label=f"{noun}s", title=title)
    save_figure(figure, outputs.accuracy, outputs.accuracy_pdf)
    tables = to_html(summary) if len(summary) else html_paragraph(empty)
    notes = [html_paragraph(RECOGNITION_NOTE, note=True)]
    dropped = uncomputed_rows_note(task, class_sizes, int(summary["n_classes"].max())) if len(summary) else None
    if dropped:
        notes.append(html_paragraph(dropped, note=True))
        log.info("%s recognition: %s", task, dropped)
    page = html_page(RECOGNITION_TITLES.get(task, task), [tables, *notes])
    write_text_atomic(outputs.tables, page)
    log.info("%s recognition: %d accuracy points", task, len(long))


def kl_figures(task: str, features: list[str], inputs: Any, outputs: Any, log: Any) -> None:
    """Rule figures_kl: one task's consistency curve and KL distributions, for every feature in
    one job (each input and output: one path per feature, in ``features``' order)."""
    kinds = {"tables": inputs, "summaries": inputs, "kl_values": inputs, "consistency": outputs,
             "consistency_pdf": outputs, "distribution": outputs, "distribution_pdf": outputs}
    for index, feature in enumerate(features):
        kl_feature_figures(task, feature, {name: getattr(files, name)[index] for name, files in kinds.items()}, log)


def kl_feature_figures(task: str, feature: str, files: dict[str, Any], log: Any) -> None:
    """One task's consistency curve and KL distributions of one feature: ``files`` names the inputs
    (``tables``, ``summaries``, ``kl_values``) and the outputs (``consistency``, ``distribution``,
    each with its ``_pdf``)."""
    summary = read_summary(files["summaries"])
    if "skipped" in summary:
        # classes without two documents each: the workflow plans a genre analysis only for a corpus
        # with two genres, so this is a corpus whose classes have no pairs (said on the figure)
        message = f"No {TASK_NOUNS.get(task, task)} consistency for {feature}: {summary['skipped']}"
        save_figure(placeholder_figure(message), files["consistency"], files["consistency_pdf"])
        save_figure(placeholder_figure(message), files["distribution"], files["distribution_pdf"])
        log.info("%s", message)
        return
    table = read_consistency_table(files["tables"])
    table = table[table["consistency"].notna()]
    noun = TASK_NOUNS.get(task, task)
    title = f"{noun} consistency, feature {feature} ({len(table)} {noun}s)"
    figure = plot_consistency(
        table["consistency"], table["ci_low"], table["ci_high"], summary["baseline_mean"], label=noun, title=title
    )
    save_figure(figure, files["consistency"], files["consistency_pdf"])
    within, cross = read_values(files["kl_values"])
    figure = plot_kl_distributions(
        within,
        cross,
        label=noun,
        title=f"KL divergence of {feature}, {noun}s",
        ks=(summary["ks_statistic"], summary["ks_pvalue"]),
    )
    save_figure(figure, files["distribution"], files["distribution_pdf"])
    log.info(
        "%s %s: %d classes, baseline %.4g, KS %.3f",
        task,
        feature,
        len(table),
        summary["baseline_mean"],
        summary["ks_statistic"],
    )


def kl_heatmap_figures(features: list[str], top_k: list[int], inputs: Any, outputs: Any, log: Any) -> None:
    """Rule figures_kl_heatmaps: the KL heat maps of the k most consistent authors, for every
    feature in one job (inputs: one path per feature; outputs: per feature, one per ``top_k``)."""
    n_k = len(top_k)
    for index, feature in enumerate(features):
        pngs = outputs.heatmaps[index * n_k : (index + 1) * n_k]
        pdfs = outputs.heatmaps_pdf[index * n_k : (index + 1) * n_k]
        feature_heatmaps(feature, top_k, (inputs.summaries[index], inputs.heatmaps[index]), (pngs, pdfs), log)


def feature_heatmaps(
    feature: str, top_k: list[int], inputs: tuple[Any, Any], outputs: tuple[list[Any], list[Any]], log: Any
) -> None:
    """One feature's KL heat maps of the k most consistent authors: ``inputs`` (summary, heat-map
    matrices), ``outputs`` (PNGs, PDFs: one per ``top_k``)."""
    summary, heatmaps = read_summary(inputs[0]), read_heatmaps(inputs[1])
    for k, png, pdf in zip(top_k, *outputs, strict=True):
        key = heatmap_key(k, heatmaps)
        if key is None:
            reason = summary.get("skipped", "no author has a consistency value")
            figure = placeholder_figure(f"No heat map: {reason}", title=f"{feature}, {k} most consistent authors")
            save_figure(figure, png, pdf)
            log.info("%s: no heat map for k = %d: %s", feature, k, reason)
            continue
        heatmap = heatmaps[key]
        title = f"{feature}: {key} most consistent authors, {heatmap.labels.size} documents"
        if key < k:
            title += f"\n(the corpus has {key} authors with a consistency, fewer than {k})"
        save_figure(plot_kl_heatmap(heatmap.matrix, heatmap.edges, title=title), png, pdf)
        log.info("%s: heat map of %d authors, %d documents", feature, key, heatmap.labels.size)


def length_figures(inputs: Any, outputs: Any, log: Any) -> None:
    """Rule figures_length_curve: accuracy against the excerpt length (figure and report table)."""
    summary = pd.read_csv(inputs.summary, dtype={"length": str})
    title = "Author recognition on excerpts of n consecutive marks: punctuation and words"
    if summary.empty:
        reason = "No length-curve rows: the corpus has fewer than two authors"
        figure, parts = placeholder_figure(reason), [html_paragraph(reason)]
    else:
        figure = plot_length_curve(summary, display_name, title)
        table = summary.assign(
            method=summary["method"].map(display_name), feature_set=summary["feature_set"].map(feature_text)
        )
        parts = [
            html_table(
                table,
                {"n_classes": "auto", "n_seeds": "auto", "median_words": "auto"},
                caption="Test accuracy over seeds per length (whole = whole documents)",
            ),
            html_preformatted(summary_markdown(summary, display_name)),
        ]
    save_figure(figure, outputs.figure, outputs.figure_pdf)
    write_text_atomic(outputs.table, html_page("Accuracy against the length of the punctuation sequence", parts))
    log.info("length curve figure: %d summary rows", len(summary))
