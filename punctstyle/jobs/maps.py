"""Rule corpus_map's body: the maps of one family of features (:mod:`punctstyle.descriptive.maps`):
coordinates, consensus edges (Source,Target,Weight for Gephi), summary, and the PCA, MDS and
dendrogram figures (:func:`punctstyle.report.plots.maps.map_figures`)."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from punctstyle.descriptive.map_families import family_is_distribution
from punctstyle.descriptive.maps import MapSettings, corpus_maps, family_matrix
from punctstyle.corpus.words import read_word_matrix
from punctstyle.io import atomic_open, write_json_atomic
from punctstyle.report.plots.base import save_figure
from punctstyle.report.plots.maps import map_figures

PathLike = str | os.PathLike[str]


def write_csv(frame: pd.DataFrame, path: PathLike) -> None:
    """``frame`` as CSV without its index, written atomically."""
    with atomic_open(path, "w", newline="") as handle:
        frame.to_csv(handle, index=False)


def corpus_map_job(
    *,
    family: str,
    tables: Sequence[PathLike],
    words: Sequence[PathLike],
    output: Any,
    features: Sequence[str],
    words_k: int | None,
    family_name: str,
    settings: Mapping[str, Any],
    label_policy: str,
    log: Any,
) -> dict[str, Any]:
    """Rule corpus_map: read the corpus tables of ``features`` (paths ``tables``, same order) and,
    when ``words_k``, the word matrix ``words[0]``; map the family's documents; write
    ``output.coordinates``, ``output.edges`` (CSV), ``output.summary`` (JSON) and the figures
    ``output.<name>`` / ``output.<name>_pdf`` for pca, mds_delta, dendrogram (the KL map of a
    distribution family: rule corpus_map_kl, from the coordinates). Returns the summary."""
    frames = {name: pd.read_parquet(path) for name, path in zip(features, tables, strict=True)}
    word_matrix = read_word_matrix(words[0]) if words_k else None
    first = frames[features[0]]
    map_settings = MapSettings.from_config(settings)
    kl = family_is_distribution(family)
    X = family_matrix(family, frames, word_matrix, words_k or 0)
    result = corpus_maps(X, first["book_id"], first["author"], first["title"], map_settings, kl)
    result.summary.update(family=family, label_policy=label_policy)
    write_csv(result.coordinates, output.coordinates)
    write_csv(result.edges, output.edges)
    write_json_atomic(output.summary, result.summary)
    for name, figure in map_figures(result, family_name, map_settings.top_k_authors).items():
        save_figure(figure, output[name], output[f"{name}_pdf"])
    log.info("maps of %s: %s", family, result.summary)
    return result.summary


def kl_map_job(*, coordinates: PathLike, output: Any, family_name: str, settings: Mapping[str, Any], log: Any) -> None:
    """Rule corpus_map_kl (distribution families only): the classical MDS of the symmetrised KL
    divergences, drawn from rule corpus_map's ``coordinates`` CSV to ``output.mds_kl`` and
    ``output.mds_kl_pdf``."""
    from punctstyle.report.plots.maps import kl_map

    frame = pd.read_csv(coordinates)
    save_figure(kl_map(frame, family_name, MapSettings.from_config(settings).top_k_authors),
                output.mds_kl, output.mds_kl_pdf)
    log.info("KL map of %s: %d documents", family_name, len(frame))
