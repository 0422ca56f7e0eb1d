"""torch's fused CPU Adam against the networks' grouped update, on the recognition grid's author
rows of a real corpus (issue 37 item 3).

    python benchmarks/fused_adam.py CORPUS_DIR [--sizes 10 50] [--seeds 0 1 2 3 4] [--sets ...]
        [--out docs/evidence/fused_adam]

CORPUS_DIR: a run's corpus tables (``f1.parquet`` ... and ``summary.json``: a results folder's
``corpus/``). Each author row (class size, seed) is the one the workflow's recognition rule
computes: the documents, texts and labels of :func:`punctstyle.featuresets.matrices_from_tables`
and :func:`punctstyle.corpus.tables.text_groups`, the class sample and split of
:func:`punctstyle.experiments.driver.grid_splits` at the schema's ``recognition.test_fraction``,
the paper's protocol (the schema's ``recognition.mlp``). On each row, every MLP feature set of the
grid (``--sets``, default the schema's ``recognition.methods.mlp``) is trained twice by the
driver (:func:`punctstyle.experiments.driver.run_experiments`) with the registry's ``mlp`` and
the options of :func:`punctstyle.classifiers.options.options_by_classifier` (1 thread, CPU): with
``recognition.mlp.adam: foreach`` (the default) and ``fused``, same seed, same split, one right
after the other (foreach first on even seeds, fused first on odd ones), after an untimed
warm-up of both (:func:`warm_up`).

Recorded per network (``networks.csv``): each update's accuracy, epochs and CPU seconds of the
fit (``time.process_time`` around ``fit``, ``torch.set_num_threads(1)``); the paired accuracy
difference ``fused - foreach``; the test documents whose predicted author differs; the CPU
ratio ``foreach / fused`` of the fit and of an epoch (CPU s / epochs run: the update's own speed,
apart from a changed number of epochs); the largest absolute difference of the final weights.
``summary.csv``, per class size and feature set (and ``all sets``): the mean and the sd over
seeds of the paired accuracy difference (for ``all sets``: of each seed's mean over the sets),
the networks (and test documents) whose predictions differ, the CPU ratios' mean, sd, least and
most over the networks (for ``all sets``, the fit's ratio over the seeds, each seed's CPU summed
over its networks; an epoch's over every network), and the CPU summed. Prints both; ``--out`` writes them with ``run.json`` (the
command, commit, corpus fingerprint, settings: benchmarks/evidence_run.py).
"""

from __future__ import annotations

import argparse
import copy
import platform
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from punctstyle.analyses.paper import task_column  # noqa: E402
from punctstyle.classifiers import build_classifier  # noqa: E402
from punctstyle.classifiers.options import classifier_params, options_by_classifier  # noqa: E402
from punctstyle.corpus.tables import text_groups  # noqa: E402
from punctstyle.experiments.driver import Documents, Estimator, grid_splits, matrix_views, run_experiments  # noqa: E402
from punctstyle.featuresets import matrices_from_tables, resolve_feature_set, stack_features  # noqa: E402
from punctstyle.marks import FEATURES  # noqa: E402
from punctstyle.settings import schema_defaults  # noqa: E402

UPDATES = ("foreach", "fused")
"""``recognition.mlp.adam``: the default first."""


class CPUTimedFit:
    """A classifier whose ``fit`` is timed in process CPU seconds (``time.process_time``), which
    its diagnostics add as ``cpu_s``; everything else is the wrapped classifier's."""

    def __init__(self, classifier: Any) -> None:
        self.classifier = classifier
        self.cpu_s = 0.0

    def fit(self, X: np.ndarray, y: np.ndarray) -> CPUTimedFit:
        start = time.process_time()
        self.classifier.fit(X, y)
        self.cpu_s = time.process_time() - start
        return self

    def predict(self, X: np.ndarray) -> np.ndarray:
        return self.classifier.predict(X)

    def diagnostics(self) -> dict[str, Any]:
        return {**self.classifier.diagnostics(), "cpu_s": self.cpu_s}

    def weights(self) -> list[torch.Tensor]:
        """The fitted network's parameters."""
        return [p.detach() for p in self.classifier.model.network.parameters()]


def mlp_options(config: dict[str, Any], update: str) -> dict[str, Any]:
    """The ``mlp`` factory options of a 1-thread CPU job of ``config`` with ``recognition.mlp.adam``
    set to ``update`` (the workflow's road: :func:`classifier_params`, :func:`options_by_classifier`)."""
    config = copy.deepcopy(config)
    config["recognition"]["mlp"].update(adam=update, device="cpu")
    return options_by_classifier(config, classifier_params(config, ["mlp"]), 1)["mlp"]


def paired_estimators(config: dict[str, Any], sets: list[str], order: tuple[str, ...]) -> list[Estimator]:
    """For each feature set, one estimator per update in ``order`` (named by the update), each
    the registry's ``mlp`` with its options, its fit timed (:class:`CPUTimedFit`)."""
    options = {update: mlp_options(config, update) for update in order}

    def factory(update: str):
        return lambda seed, view: CPUTimedFit(
            build_classifier("mlp", seed=seed, feature_set=resolve_feature_set(view), **options[update]))

    return [Estimator(update, factory(update), (feature_set,)) for feature_set in sets for update in order]


def pair_record(foreach: Any, fused: Any) -> dict[str, Any]:
    """One network's comparison from the two driver records of its (row, feature set)."""
    split = foreach.split
    a, b = foreach.scored, fused.scored
    difference = max(float((x - y).abs().max()) for x, y in zip(a.model.weights(), b.model.weights(), strict=True))
    cpu_a, cpu_b = a.diagnostics["cpu_s"], b.diagnostics["cpu_s"]
    return {
        "n_classes": split.n_classes, "seed": split.seed, "feature_set": foreach.feature_set,
        "n_train": int(split.train_index.size), "n_test": int(split.test_index.size),
        "accuracy_foreach": a.accuracy, "accuracy_fused": b.accuracy, "accuracy_difference": b.accuracy - a.accuracy,
        "documents_predicted_differently": int(np.sum(a.y_pred != b.y_pred)),
        "epochs_foreach": a.epochs, "epochs_fused": b.epochs, "cpu_s_foreach": cpu_a, "cpu_s_fused": cpu_b,
        "cpu_ratio": cpu_a / cpu_b, "epoch_cpu_ratio": (cpu_a / a.epochs) / (cpu_b / b.epochs),
        "max_weight_difference": difference,
    }  # fmt: skip


def warm_up(config: dict[str, Any], view: Any, y_train: np.ndarray, epochs: int = 5) -> None:
    """Train each update's network for ``epochs`` epochs, untimed, so that the first timed fit
    does not pay the process's first allocations and kernel selection."""
    config = copy.deepcopy(config)
    config["recognition"]["mlp"]["max_epochs"] = epochs
    for update in UPDATES:
        build_classifier("mlp", seed=0, feature_set=(), **mlp_options(config, update)).fit(view.train, y_train)


def measure(tables: dict[str, pd.DataFrame], config: dict[str, Any], sizes: list[int], seeds: list[int],
            sets: list[str], on_pair: Any = None) -> pd.DataFrame:
    """One :func:`pair_record` per (class size, seed, feature set) of the author rows;
    ``on_pair(records)`` after each (the records so far)."""
    features, labels, book_ids = matrices_from_tables(tables, task_column("author"))
    documents = Documents(labels, text_groups(tables["f1"], book_ids), book_ids)
    views = matrix_views({name: stack_features(features, name) for name in sets})
    splits = grid_splits(documents, task="author", class_sizes=sizes, seeds=seeds,
                         test_fraction=config["recognition"]["test_fraction"])
    records = []
    for split in splits:
        if not records:
            warm_up(config, views(split)[sets[0]], documents.labels[split.train_index])
        order = UPDATES if split.seed % 2 == 0 else UPDATES[::-1]
        pending: dict[str, Any] = {}
        for record in run_experiments(documents, [split], views, paired_estimators(config, sets, order)):
            pending[record.method] = record
            if len(pending) == len(UPDATES):
                records.append(pair_record(pending["foreach"], pending["fused"]))
                pending = {}
                if on_pair is not None:
                    on_pair(records)
    return pd.DataFrame(records)


def pair_line(r: dict[str, Any]) -> str:
    """A network's comparison in one line."""
    return (f"{r['n_classes']} authors seed {r['seed']} {r['feature_set']:>12}: accuracy "
            f"{r['accuracy_foreach']:.3f} -> {r['accuracy_fused']:.3f}, epochs {r['epochs_foreach']} -> "
            f"{r['epochs_fused']}, CPU s {r['cpu_s_foreach']:.2f} -> {r['cpu_s_fused']:.2f} "
            f"({r['cpu_ratio']:.2f}x, {r['epoch_cpu_ratio']:.2f}x an epoch), "
            f"{r['documents_predicted_differently']} predictions differ, weights by {r['max_weight_difference']:.3g}")


def _spread(values: pd.Series, name: str) -> dict[str, float]:
    """``name``'s mean, sd (ddof 1), least and most of ``values``."""
    return {f"{name}_mean": values.mean(), f"{name}_sd": values.std(ddof=1), f"{name}_min": values.min(),
            f"{name}_max": values.max()}


def set_summary(group: pd.DataFrame) -> dict[str, Any]:
    """One feature set of a class size over its seeds (one network each)."""
    return {
        "seeds": int(group["seed"].nunique()), "networks": len(group),
        **_spread(group["accuracy_difference"], "accuracy_difference"),
        "networks_predicting_differently": int((group["documents_predicted_differently"] > 0).sum()),
        "documents_predicted_differently": int(group["documents_predicted_differently"].sum()),
        "test_documents": int(group["n_test"].sum()),
        "epochs_foreach_mean": group["epochs_foreach"].mean(), "epochs_fused_mean": group["epochs_fused"].mean(),
        "cpu_s_foreach": group["cpu_s_foreach"].sum(), "cpu_s_fused": group["cpu_s_fused"].sum(),
        **_spread(group["cpu_ratio"], "cpu_ratio"), **_spread(group["epoch_cpu_ratio"], "epoch_cpu_ratio"),
        "max_weight_difference": group["max_weight_difference"].max(),
    }  # fmt: skip


def all_sets_summary(group: pd.DataFrame) -> dict[str, Any]:
    """Every feature set of a class size: per seed, the mean accuracy difference over its sets
    and the ratio of its summed CPU (foreach / fused), then their mean, sd, least and most over
    the seeds; the epoch's CPU ratio over every network, counts and sums over every network."""
    seeds = group.groupby("seed").agg(difference=("accuracy_difference", "mean"), foreach=("cpu_s_foreach", "sum"),
                                      fused=("cpu_s_fused", "sum"))
    summary = set_summary(group)
    summary.update(_spread(seeds["difference"], "accuracy_difference"))
    summary.update(_spread(seeds["foreach"] / seeds["fused"], "cpu_ratio"))
    return summary


def summarise(networks: pd.DataFrame) -> pd.DataFrame:
    """Per class size: one row per feature set (:func:`set_summary`) and one for ``all sets``
    (:func:`all_sets_summary`); ``cpu_ratio_overall`` = summed foreach CPU / summed fused CPU."""
    rows = []
    for n_classes, by_size in networks.groupby("n_classes", sort=True):
        for feature_set, group in by_size.groupby("feature_set", sort=False):
            rows.append({"n_classes": n_classes, "feature_set": feature_set, **set_summary(group)})
        rows.append({"n_classes": n_classes, "feature_set": "all sets", **all_sets_summary(by_size)})
    table = pd.DataFrame(rows)
    table["cpu_ratio_overall"] = table["cpu_s_foreach"] / table["cpu_s_fused"]
    return table


def command(args: argparse.Namespace, sets: list[str]) -> str:
    """The command line of this measurement, the corpus folder as ``CORPUS_DIR``."""
    line = (f"python benchmarks/fused_adam.py CORPUS_DIR --sizes {' '.join(map(str, args.sizes))} "
            f"--seeds {' '.join(map(str, args.seeds))} --sets {' '.join(sets)}")
    return line + (f" --out {args.out}" if args.out else "")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path, help="a run's corpus tables (its results folder's corpus/)")
    parser.add_argument("--sizes", nargs="+", type=int, default=[10, 50])
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2, 3, 4])
    parser.add_argument("--sets", nargs="+", default=None, help="default: the schema's recognition.methods.mlp")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--partial", type=Path, default=None, help="a CSV rewritten with the networks so far")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    config = schema_defaults()
    sets = args.sets or list(config["recognition"]["methods"]["mlp"])
    revision = None
    if args.out:
        from evidence_run import commit

        revision = commit()
    tables = {name: pd.read_parquet(args.corpus / f"{name}.parquet") for name in FEATURES}
    wall, cpu = time.perf_counter(), time.process_time()

    def on_pair(records: list[dict[str, Any]]) -> None:
        print(pair_line(records[-1]), flush=True)
        if args.partial:
            pd.DataFrame(records).to_csv(args.partial, index=False)

    networks = measure(tables, config, args.sizes, args.seeds, sets, on_pair)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    table = summarise(networks)
    columns = ["n_classes", "feature_set", "accuracy_difference_mean", "accuracy_difference_sd",
               "networks_predicting_differently", "networks", "cpu_ratio_mean", "cpu_ratio_sd", "cpu_ratio_min",
               "cpu_ratio_max", "epoch_cpu_ratio_mean", "cpu_ratio_overall", "max_weight_difference"]
    with pd.option_context("display.width", 250, "display.max_columns", 20):
        print(table[columns].round(4).to_string(index=False))
    print(f"{len(networks)} network pairs in {cpu:.0f} CPU s, {wall:.0f} s wall")
    if args.out:
        from evidence_run import corpus_tables_fingerprint, write_evidence

        write_evidence(args.out, {"networks.csv": networks, "summary.csv": table}, {
            "command": command(args, sets),
            "commit": revision, "corpus": corpus_tables_fingerprint(args.corpus), "task": "author",
            "sizes": args.sizes, "seeds": args.seeds, "sets": sets, "threads": 1, "device": "cpu",
            "mlp": {key: value for key, value in config["recognition"]["mlp"].items() if key not in ("adam", "device")},
            "test_fraction": config["recognition"]["test_fraction"], "updates": list(UPDATES),
            "clock": "time.process_time around each fit (1 thread)", "cpu_s": cpu, "wall_s": wall,
            "torch": torch.__version__, "numpy": np.__version__, "python": platform.python_version(),
        })  # fmt: skip


if __name__ == "__main__":
    main()
