"""How recognition accuracy grows with the number of training documents per class: a
measurement of one cause of the gap to the paper (its authors have about 23 documents each,
the development mirror's about 15).

    python benchmarks/training_size_curve.py CORPUS_DIR OUT.csv [--sizes 10 50] [--seeds 0 1 2 3 4]
        [--fractions 0.25 0.5 0.75 1] [--device auto] [--threads 2] [--jobs 1]

For each (class size, seed) row of the author task, the classes and the 80/20 split are
those of Tables 2-3 (`punctstyle.experiments.row.Row`); the training documents of each class
are then subsampled to ``ceil(fraction * n_c)`` (at least 1; seeded by seed and fraction,
nested: a smaller fraction keeps a subset of a larger one) and the same test documents are
classified by KL nearest class (f3) and the network (f3, all) with the schema's default
settings. Prints, per method, the least-squares slope of accuracy against
log2(training documents per class) and writes one line per (row, fraction, method, set).
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd

from punctstyle.classifiers import build_classifier
from punctstyle.classifiers.options import classifier_params, options_by_classifier
from punctstyle.featuresets import matrices_from_tables, resolve_feature_set, stack_features
from punctstyle.marks import FEATURES
from punctstyle.experiments.metrics import accuracy
from punctstyle.settings import schema_defaults
from punctstyle.experiments.row import Row

METHODS: dict[str, tuple[str, ...]] = {"kl": ("f3",), "mlp": ("f3", "all")}


def nested_subsample(train_index: np.ndarray, y: np.ndarray, fraction: float, seed: int) -> np.ndarray:
    """Training indices kept at ``fraction``: per class the first ``ceil(fraction * n_c)`` (>= 1)
    of one seeded permutation, so that smaller fractions are subsets of larger ones."""
    rng = np.random.default_rng([seed, 7919])
    kept = []
    for label in np.unique(y[train_index]):
        members = train_index[y[train_index] == label]
        order = rng.permutation(members.size)
        kept.append(members[order[: max(1, int(np.ceil(fraction * members.size)))]])
    return np.sort(np.concatenate(kept))


def run_row(corpus: Path, size: int, seed: int, fractions: list[float], device: str, threads: int) -> list[dict]:
    """Accuracy of every method at every fraction for one (class size, seed) row."""
    tables = {name: pd.read_parquet(corpus / f"{name}.parquet") for name in FEATURES}
    features, labels, book_ids = matrices_from_tables(tables, "author")
    y = np.asarray(labels, dtype=object)
    # the row of Tables 2-3 (its class sample and split; a text's excerpts on one side)
    split = Row.from_table(tables["f1"], y, task="author", n_classes=size, seed=seed, book_ids=book_ids).split(0.2)
    config = schema_defaults()
    config["recognition"]["mlp"]["device"] = device
    options = options_by_classifier(config, classifier_params(config, METHODS), threads)
    lines = []
    for fraction in fractions:
        train = nested_subsample(split.train_index, y, fraction, seed)
        for method, sets in METHODS.items():
            for name in sets:
                X = stack_features(features, name)
                model = build_classifier(
                    method, seed=seed, feature_set=resolve_feature_set(name), **options.get(method, {})
                )
                model.fit(X[train], y[train])
                predicted = np.asarray(model.predict(X[split.test_index]), dtype=object)
                lines.append(
                    dict(
                        n_classes=size,
                        seed=seed,
                        fraction=fraction,
                        method=method,
                        feature_set=name,
                        train_docs_per_class=train.size / size,
                        n_test=split.test_index.size,
                        accuracy=accuracy(y[split.test_index], predicted),
                    )
                )
    return lines


def slopes(frame: pd.DataFrame) -> pd.DataFrame:
    """Least-squares slope of accuracy against log2(training documents per class), per (classes, method, set).

    ``accuracy ~ a + b * log2(docs)`` fitted on every (seed, fraction) line; ``b`` is the gain
    per doubling of the training documents."""
    rows = []
    for (size, method, name), group in frame.groupby(["n_classes", "method", "feature_set"]):
        b, a = np.polyfit(np.log2(group["train_docs_per_class"]), group["accuracy"], 1)
        rows.append(dict(n_classes=size, method=method, feature_set=name, gain_per_doubling=b, intercept=a))
    return pd.DataFrame(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--sizes", nargs="+", type=int, default=[10, 50])
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2, 3, 4])
    parser.add_argument("--fractions", nargs="+", type=float, default=[0.25, 0.5, 0.75, 1.0])
    parser.add_argument("--device", default="auto")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    start = time.perf_counter()
    rows = [(size, seed) for size in args.sizes for seed in args.seeds]
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=max(1, args.jobs), mp_context=context) as pool:
        futures = [
            pool.submit(run_row, args.corpus, size, seed, args.fractions, args.device, args.threads)
            for size, seed in rows
        ]
        frame = pd.DataFrame([line for future in futures for line in future.result()])
    frame.to_csv(args.out, index=False)
    summary = frame.groupby(["n_classes", "method", "feature_set", "fraction"])[["train_docs_per_class", "accuracy"]]
    print(summary.agg(["mean", "std"]).round(3).to_string())
    print(slopes(frame).round(4).to_string(index=False))
    print(f"{len(rows)} rows in {time.perf_counter() - start:.1f} s wall")


if __name__ == "__main__":
    main()
