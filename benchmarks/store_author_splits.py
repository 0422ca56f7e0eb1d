"""The splits of a stored excerpt run's author rows, recomputed and checked (issue 34): for each
seed of the ``all`` row, the training and test excerpts and novels, the novels found on both
sides (0 when every split keeps a novel's excerpts together), and the two chance levels.

    python benchmarks/store_author_splits.py RESULTS docs/evidence/eltec_fra_authors

RESULTS: the run's outdir (its ``corpus/`` tables); the evidence folder must hold the run's
``author_results.csv`` (``store_default_run.py``): each seed's recomputed ``n_train`` and
``n_test`` must equal the stored ones, or nothing is written. The splits are those of the
workflow (:func:`punctstyle.experiments.driver.row_split` on the documents'
:func:`punctstyle.corpus.tables.text_groups`), with ``recognition.seeds`` and
``recognition.test_fraction`` of config/config.yaml (``--config`` for an overlay that sets them).
Writes ``splits.csv`` in the folder, one row a seed; the folder's other files are not touched.

Chance levels of a split with ``k`` authors and test excerpts ``n_test``: ``chance = 1 / k``
(a uniform guess); ``largest_training_author_share = n_test(a*) / n_test`` with ``a*`` the
author with the most training excerpts (always answering that author).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from punctstyle.corpus.tables import text_groups  # noqa: E402
from punctstyle.experiments.driver import Documents, Split, row_split  # noqa: E402
from punctstyle.io import atomic_open  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
TASK = "author"


def split_counts(documents: Documents, split: Split) -> dict[str, float]:
    """Counts of one split: excerpts and novels (groups) per side, novels on both sides
    (``|groups(train) ∩ groups(test)|``), test novels per author (least and most),
    ``chance = 1 / k`` and the test share of the largest training author."""
    labels, groups = documents.labels, documents.groups
    train_novels, test_novels = set(groups[split.train_index]), set(groups[split.test_index])
    test_labels = labels[split.test_index]
    authors, train_sizes = np.unique(labels[split.train_index], return_counts=True)
    largest = authors[np.argmax(train_sizes)]
    novels_per_author = pd.Series(groups[split.test_index]).groupby(test_labels).nunique()
    return {
        "seed": split.seed,
        "authors": int(split.classes.size),
        "n_train": int(split.train_index.size),
        "n_test": int(split.test_index.size),
        "train_novels": len(train_novels),
        "test_novels": len(test_novels),
        "novels_on_both_sides": len(train_novels & test_novels),
        "least_test_novels_per_author": int(novels_per_author.min()),
        "most_test_novels_per_author": int(novels_per_author.max()),
        "chance": 1.0 / split.classes.size,
        "largest_training_author_share": float(np.mean(test_labels == largest)),
    }


def author_documents(corpus: Path) -> Documents:
    """The author rows' documents: ``corpus/f1.parquet``'s authors and texts (``source_id``)."""
    table = pd.read_parquet(corpus / "f1.parquet")
    table = table[table["author"].notna()].reset_index(drop=True)
    if "source_id" not in table.columns:
        raise SystemExit(f"{corpus}: whole texts, not excerpts: nothing to group")
    ids = table["book_id"].to_numpy()
    return Documents(table["author"].to_numpy(dtype=object), text_groups(table, ids), ids)


def recognition_settings(overlays: list[Path]) -> tuple[list[int], float]:
    """``recognition.seeds`` and ``recognition.test_fraction``: config/config.yaml, then each
    overlay in order."""
    seeds, fraction = None, None
    for path in [REPO / "config" / "config.yaml", *overlays]:
        block = (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("recognition", {})
        seeds, fraction = block.get("seeds", seeds), block.get("test_fraction", fraction)
    return [int(s) for s in seeds], float(fraction)


def checked_splits(documents: Documents, seeds: list[int], fraction: float, stored: pd.DataFrame) -> pd.DataFrame:
    """One row of :func:`split_counts` per seed of the ``all`` row, each checked against the
    stored results' ``n_train`` and ``n_test`` of that seed (SystemExit when they differ)."""
    k = documents.n_available
    rows = [split_counts(documents, row_split(documents, task=TASK, n_classes=k, seed=s, test_fraction=fraction))
            for s in seeds]
    frame = pd.DataFrame(rows)
    sizes = stored[(stored["task"] == TASK) & (stored["n_classes"] == k)].groupby("seed")[["n_train", "n_test"]].first()
    mine = frame.set_index("seed")[["n_train", "n_test"]]
    if not mine.equals(sizes.reindex(mine.index).astype(mine.dtypes.to_dict())):
        raise SystemExit(f"recomputed splits differ from the stored results:\n{mine}\n{sizes}")
    return frame


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--config", type=Path, nargs="*", default=[], help="overlays that set recognition keys")
    args = parser.parse_args()
    seeds, fraction = recognition_settings(args.config)
    stored = pd.read_csv(args.out / "author_results.csv")
    frame = checked_splits(author_documents(args.results / "corpus"), seeds, fraction, stored)
    with atomic_open(args.out / "splits.csv", "w", newline="") as handle:
        frame.to_csv(handle, index=False, float_format="%.6g")
    print(frame.to_string(index=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
