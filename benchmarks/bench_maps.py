"""Maps of a finished run's corpus (read only), as rule corpus_map draws them, timed.

    nice -n 10 python benchmarks/bench_maps.py RUN_DIR OUT_DIR [--families f3 all words] [--words 500]
        [--consensus sweep|random] [--rounds 100] [--evidence docs/evidence/parts_maps_words_punctuation]

Writes per family ``OUT_DIR/{family}_summary.json``, ``_coordinates.csv``, ``_consensus_edges.csv``
and the four figures (PNG), with the schema's other ``maps`` defaults (``--consensus``: the
consensus tree's column subsets, stylo's sweep by default; ``--rounds``: trees of the random
one); prints each family's seconds beside a baseline measured in the same run: the Delta distance matrix alone.

A family ``words+SET`` (e.g. ``words+f3``, ``words+all``) maps words and punctuation together:
the ``--words`` word frequencies and the feature set's columns side by side (Delta z-scores every
column, so each word and each punctuation column weighs ``1/d``). With ``--evidence OUT`` it
stores each family's summary (``{family}_summary.csv``: key, value (numbers), text), and ``nearest_paired.csv``:
per family, the documents whose nearest other document (Delta) has the same author, paired with
the first family's on the same documents (documents where only one of the two holds).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from punctstyle.descriptive.map_families import WORDS, family_features, family_is_distribution
from punctstyle.descriptive.maps import MapSettings, corpus_maps, delta_distance_matrix, family_matrix
from punctstyle.corpus.words import read_word_matrix
from punctstyle.report.plots.base import placeholder_figure, save_figure
from punctstyle.report.plots.maps import dendrogram_figure, scatter_map
from punctstyle.settings import schema_defaults

sys.path.insert(0, str(Path(__file__).resolve().parent))  # benchmarks/evidence_run.py
from evidence_run import commit, corpus_fingerprint, write_evidence  # noqa: E402


def documents_matrix(family: str, run: Path, words: object, k: int) -> tuple[np.ndarray, pd.DataFrame]:
    """(rows, the first table) of a family, ``words+SET`` the word rows beside the set's columns
    (the tables' books in the same order, checked)."""
    names = family.split("+", 1) if family.startswith(WORDS + "+") else [family]
    blocks, first = [], None
    for name in names:
        tables = {f: pd.read_parquet(run / "corpus" / f"{f}.parquet") for f in family_features(name)}
        table = tables[family_features(name)[0]]
        if first is not None and not np.array_equal(first["book_id"].to_numpy(), table["book_id"].to_numpy()):
            raise ValueError(f"{family}: the tables' books are not in the same order")
        first = table if first is None else first
        blocks.append(family_matrix(name, tables, words, k))
    return np.hstack(blocks), first


def same_author_nearest(X: np.ndarray, authors: pd.Series) -> np.ndarray:
    """Per document: whether its nearest other document in Delta has the same author."""
    D = delta_distance_matrix(X)
    np.fill_diagonal(D, np.inf)
    labels = authors.to_numpy(dtype=str)
    return labels[np.argmin(D, axis=1)] == labels


def paired_nearest(indicators: dict[str, np.ndarray]) -> pd.DataFrame:
    """Each family's same-author nearest documents against the first family's, same documents."""
    reference, base = next(iter(indicators.items()))
    return pd.DataFrame([
        {"family": family, "reference": reference, "documents": hit.size, "share": hit.mean(),
         "share_reference": base.mean(), "difference": hit.mean() - base.mean(),
         "only_family": int((hit & ~base).sum()), "only_reference": int((base & ~hit).sum())}
        for family, hit in indicators.items()
    ])  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--families", nargs="+", default=["f3", "all", "words"])
    parser.add_argument("--words", type=int, default=500)
    parser.add_argument("--consensus", choices=["sweep", "random"], default=schema_defaults()["maps"]["consensus"])
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--evidence", type=Path, help="store the summaries and nearest_paired.csv in this folder")
    args = parser.parse_args()
    revision = commit() if args.evidence else ""
    tables_out: dict[str, pd.DataFrame] = {}
    indicators: dict[str, np.ndarray] = {}
    args.out.mkdir(parents=True, exist_ok=True)
    block = {**schema_defaults()["maps"], "consensus": args.consensus, "consensus_rounds": args.rounds}
    settings = MapSettings.from_config(block)
    words = read_word_matrix(args.run / "corpus" / "words.npz")
    for family in args.families:
        X, first = documents_matrix(family, args.run, words, args.words)
        t0 = time.perf_counter()
        delta_distance_matrix(X)
        baseline = time.perf_counter() - t0
        t0 = time.perf_counter()
        result = corpus_maps(X, first["book_id"], first["author"], first["title"], settings, family_is_distribution(family))
        seconds = time.perf_counter() - t0
        indicators[family] = same_author_nearest(X, first["author"])
        result.summary.update(family=family, seconds=seconds, delta_matrix_seconds=baseline)
        (args.out / f"{family}_summary.json").write_text(json.dumps(result.summary, indent=2))
        result.coordinates.to_csv(args.out / f"{family}_coordinates.csv", index=False)
        result.edges.to_csv(args.out / f"{family}_consensus_edges.csv", index=False)
        authors = result.coordinates["author"]
        save_figure(scatter_map(result.coordinates[["pca1", "pca2"]].to_numpy(), authors, f"PCA, {family}",
                                "PC1", "PC2"), args.out / f"{family}_pca.png")
        save_figure(scatter_map(result.coordinates[["mds_delta1", "mds_delta2"]].to_numpy(), authors,
                                f"MDS of Delta, {family}", "MDS 1", "MDS 2"), args.out / f"{family}_mds_delta.png")
        if "mds_kl1" in result.coordinates:
            save_figure(scatter_map(result.coordinates[["mds_kl1", "mds_kl2"]].to_numpy(), authors,
                                    f"MDS of KL, {family}", "MDS 1", "MDS 2"), args.out / f"{family}_mds_kl.png")
        else:
            save_figure(placeholder_figure(f"no KL map for {family}"), args.out / f"{family}_mds_kl.png")
        save_figure(dendrogram_figure(result.tree, result.leaf_labels, result.leaf_authors, f"Ward, {family}",
                                      document_authors=authors),
                    args.out / f"{family}_dendrogram.png")
        print(family, f"{seconds:.1f} s (Delta matrix alone {baseline:.2f} s, ratio {seconds / baseline:.1f})",
              json.dumps({k: v for k, v in result.summary.items() if k not in ("label_policy",)}), flush=True)
        tables_out[f"{family}_summary.csv"] = pd.DataFrame(
            [(key, value, None) if isinstance(value, int | float) else (key, None, value)
             for key, value in flat_summary(result.summary)], columns=["key", "value", "text"])
    if args.evidence:
        tables_out["nearest_paired.csv"] = paired_nearest(indicators)
        command = (f"python benchmarks/bench_maps.py RESULTS OUT --families {' '.join(args.families)} "
                   f"--words {args.words} --consensus {args.consensus} --rounds {args.rounds} "
                   f"--evidence {args.evidence}")
        write_evidence(args.evidence, tables_out, {"command": command, "commit": revision, "maps": block,
                                                   "corpus": corpus_fingerprint(args.run)})


def flat_summary(summary: dict) -> list[tuple[str, object]]:
    """A summary's numbers and strings as (key, value), lists as ``key.i`` (label policy left out)."""
    rows = []
    for key, value in summary.items():
        if key == "label_policy":
            continue
        if isinstance(value, list):
            rows.extend((f"{key}.{i}", v) for i, v in enumerate(value))
        else:
            rows.append((key, value))
    return rows


if __name__ == "__main__":
    main()
