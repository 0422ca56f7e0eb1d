"""Maps of a finished run's corpus (read only), as rule corpus_map draws them, timed.

    nice -n 10 python benchmarks/bench_maps.py RUN_DIR OUT_DIR [--families f3 all words] [--words 500]
        [--rounds 100]

Writes per family ``OUT_DIR/{family}_summary.json``, ``_coordinates.csv``, ``_consensus_edges.csv``
and the four figures (PNG), with the schema's other ``maps`` defaults; prints each family's
seconds beside a baseline measured in the same run: the Delta distance matrix alone.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import pandas as pd

from punctstyle.descriptive.maps import (MapSettings, corpus_maps, delta_distance_matrix, family_features,
                                    family_is_distribution, family_matrix)
from punctstyle.corpus.words import read_word_matrix
from punctstyle.report.plots.base import placeholder_figure, save_figure
from punctstyle.report.plots.maps import dendrogram_figure, scatter_map
from punctstyle.settings import schema_defaults


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--families", nargs="+", default=["f3", "all", "words"])
    parser.add_argument("--words", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=100)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    block = {**schema_defaults()["maps"], "consensus_rounds": args.rounds}
    settings = MapSettings.from_config(block)
    words = read_word_matrix(args.run / "corpus" / "words.npz")
    for family in args.families:
        tables = {f: pd.read_parquet(args.run / "corpus" / f"{f}.parquet") for f in family_features(family)}
        first = tables[family_features(family)[0]]
        X = family_matrix(family, tables, words, args.words)
        t0 = time.perf_counter()
        delta_distance_matrix(X)
        baseline = time.perf_counter() - t0
        t0 = time.perf_counter()
        result = corpus_maps(X, first["book_id"], first["author"], first["title"], settings, family_is_distribution(family))
        seconds = time.perf_counter() - t0
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


if __name__ == "__main__":
    main()
