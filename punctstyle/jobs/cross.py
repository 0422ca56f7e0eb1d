"""Rule cross_analyses' body (issue 25): across genres and forms, through translators, the shape
of the gaps (:mod:`punctstyle.training.cross_report`); every table written atomically."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from punctstyle.training import cross_report
from punctstyle.training.cross_domain import cross_domain_pair_table, cross_domain_summary
from punctstyle.io import atomic_path

PathLike = str | os.PathLike[str]


def cross_analyses_job(
    *,
    table: PathLike,
    selection: PathLike,
    catalog: PathLike,
    sequences: Sequence[PathLike],
    output: Any,
    cross: Mapping[str, Any],
    classifiers: Mapping[str, Mapping[str, Any]],
    min_docs_per_author: int,
    config: Mapping[str, Any],
    threads: int,
    log: Any,
    texts: Sequence[PathLike] = (),
) -> None:
    """Rule cross_analyses: from the corpus folder (that of ``selection``: its tables and word
    matrix), the corpus table f1 ``table``, the books' ``sequences`` and the ``catalog``, write
    every table of :data:`punctstyle.plan.cross.CROSS_TABLES` as CSV (``output[name]``): the
    records, pairs and summary across groups and the group sizes; the discrete Weibull fits of
    the word gaps, examples, by era, consistency and recognition; the translators' tables.
    ``classifiers``: the hyper-parameters of the classifiers of ``cross.genres.methods``
    (:func:`punctstyle.classifiers.options.classifier_params`), with ``config`` and ``threads``
    their options (:func:`punctstyle.classifiers.options.options_by_classifier`).
    ``texts``: the books' ``books/{id}.txt.gz`` (the distortions ``dv_ma`` and ``dv_sa``). The
    Weibull and translator recognitions split at ``config["recognition"]["test_fraction"]``."""
    corpus_dir = Path(selection).parent

    def write(name: str, frame: pd.DataFrame) -> None:
        with atomic_path(output[name]) as tmp:
            frame.to_csv(tmp, index=False)

    seeds = cross["seeds"]
    records = cross_report.run_cross_domain(corpus_dir=corpus_dir, cross=cross, methods=cross["genres"]["methods"],
                                            seeds=seeds, classifiers=classifiers, config=config, threads=threads,
                                            texts=list(texts))
    write("cross_domain_records", records)
    write("cross_domain_pairs", cross_domain_pair_table(records))
    write("cross_domain_summary", cross_domain_summary(records))
    write("group_sizes", cross_report.group_size_table(corpus_dir, cross))
    log.info("across groups: %d records", len(records))

    paths = cross_report.sequence_paths(sequences)
    fits = cross_report.run_gap_weibull(Path(table), paths)
    write("gap_weibull", fits)
    write("gap_weibull_examples", cross_report.gap_examples(fits, paths))
    write("gap_weibull_era", cross_report.weibull_by_era(fits))
    write("gap_weibull_consistency", cross_report.weibull_consistency(fits))
    test_fraction = float(config["recognition"]["test_fraction"])  # the grid's split, as in Tables 2-3
    write("gap_weibull_recognition", cross_report.weibull_recognition(fits, corpus_dir, seeds, test_fraction=test_fraction))
    log.info("discrete Weibull fits: %d books, %d with a decreasing hazard", len(fits), int((fits["beta"] < 1).sum()))

    tables = cross_report.run_translators(corpus_dir, Path(catalog), cross, seeds,
                                          min_docs_per_author=min_docs_per_author, test_fraction=test_fraction)
    for name, frame in tables.items():
        write(f"translator_{name}", frame)
    log.info("translators: %d translated corpus books", len(tables["books"]))
