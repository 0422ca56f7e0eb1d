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

``--evidence DIR`` also stores the measurement (issue 35 item 1): ``results.csv`` (the lines),
``summary.csv`` (mean and sd over seeds per fraction), ``slopes.csv`` (:func:`slopes`, pooled
and per seed), ``extrapolation.csv`` (:func:`extrapolation`: the gain the slope predicts at the
paper's training documents per class), ``paper.csv`` (the paper's Table 2 training sizes it
uses) and ``run.json`` (command, commit, corpus fingerprint, seconds).
"""

from __future__ import annotations

import argparse
import multiprocessing
import resource
import sys
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
# the paper's training documents at 10 and 50 authors (Tables 2 and 3, column "train")
PAPER_TRAIN: dict[int, int] = {10: 216, 50: 834}


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
    per doubling of the training documents. Also ``b`` fitted per seed (its lines only): the
    mean and sd over seeds (``gain_per_doubling_seed_mean``, ``_seed_sd``)."""
    rows = []
    for (size, method, name), group in frame.groupby(["n_classes", "method", "feature_set"]):
        b, a = np.polyfit(np.log2(group["train_docs_per_class"]), group["accuracy"], 1)
        per_seed = [
            np.polyfit(np.log2(lines["train_docs_per_class"]), lines["accuracy"], 1)[0]
            for _, lines in group.groupby("seed")
        ]
        rows.append(
            dict(
                n_classes=size,
                method=method,
                feature_set=name,
                gain_per_doubling=b,
                intercept=a,
                gain_per_doubling_seed_mean=float(np.mean(per_seed)),
                gain_per_doubling_seed_sd=float(np.std(per_seed, ddof=1)) if len(per_seed) > 1 else np.nan,
            )
        )
    return pd.DataFrame(rows)


def extrapolation(frame: pd.DataFrame, fitted: pd.DataFrame, paper_train: dict[int, int]) -> pd.DataFrame:
    """What the slope predicts at the paper's training documents per class, per (classes,
    method, set) with a paper size: ``d`` = mean training documents per class at fraction 1,
    ``d_paper`` = paper train / classes, doublings ``= log2(d_paper / d)``, predicted gain
    ``= b * doublings`` (``b``: :func:`slopes`'s pooled gain per doubling; an extrapolation
    past the largest measured training set)."""
    full = frame[frame["fraction"] == frame["fraction"].max()]
    docs = full.groupby("n_classes")["train_docs_per_class"].mean()
    out = fitted[fitted["n_classes"].isin(list(paper_train))].copy()
    out["docs_per_class"] = out["n_classes"].map(docs)
    out["paper_docs_per_class"] = out["n_classes"].map(lambda k: paper_train[int(k)] / int(k))
    out["doublings"] = np.log2(out["paper_docs_per_class"] / out["docs_per_class"])
    out["predicted_gain"] = out["gain_per_doubling"] * out["doublings"]
    return out[
        [
            "n_classes",
            "method",
            "feature_set",
            "docs_per_class",
            "paper_docs_per_class",
            "doublings",
            "gain_per_doubling",
            "predicted_gain",
        ]
    ]


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
    parser.add_argument("--evidence", type=Path, help="also store the measurement here (docs/evidence/<name>/)")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent))  # benchmarks/evidence_run.py
    from evidence_run import commit

    checkout = commit()
    start, cpu_start = time.perf_counter(), time.process_time()
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
    wall = time.perf_counter() - start
    print(f"{len(rows)} rows in {wall:.1f} s wall")
    if args.evidence is not None:
        store(args, frame, checkout, wall, time.process_time() - cpu_start)


def store(args: argparse.Namespace, frame: pd.DataFrame, checkout: str, wall: float, own_cpu: float) -> None:
    """The measurement as evidence (``--evidence``): the lines, their summary, the slopes, the
    extrapolation to the paper's training sizes and ``run.json``."""
    from evidence_run import corpus_tables_fingerprint, write_evidence

    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    fitted = slopes(frame)
    summary = frame.groupby(["n_classes", "method", "feature_set", "fraction"])[["train_docs_per_class", "accuracy"]]
    summary = summary.agg(["mean", "std"])
    summary.columns = [f"{column}_{stat}" for column, stat in summary.columns]
    paper = pd.DataFrame([{"table": "Tables 2-3, train", "n_classes": k, "train": n} for k, n in PAPER_TRAIN.items()])
    tables = {
        "results.csv": frame,
        "summary.csv": summary.reset_index(),
        "slopes.csv": fitted,
        "extrapolation.csv": extrapolation(frame, fitted, PAPER_TRAIN),
        "paper.csv": paper,
    }
    argv = " ".join(sys.argv[1:3]).replace(str(args.corpus), "CORPUS").replace(str(args.out), "OUT.csv")
    command = f"python benchmarks/training_size_curve.py {argv} " + " ".join(
        f"--{k} {' '.join(map(str, v)) if isinstance(v, list) else v}"
        for k, v in (
            ("sizes", args.sizes),
            ("seeds", args.seeds),
            ("fractions", args.fractions),
            ("device", args.device),
            ("threads", args.threads),
            ("jobs", args.jobs),
        )
    )
    run = {
        "command": command + " --evidence DIR",
        "commit": checkout,
        "corpus": corpus_tables_fingerprint(args.corpus),
        "seconds": {"wall_s": round(wall, 1), "cpu_s": round(own_cpu + children.ru_utime + children.ru_stime, 1)},
    }
    write_evidence(args.evidence, tables, run)
    print(f"{args.evidence}: {', '.join(tables)}")


if __name__ == "__main__":
    main()
