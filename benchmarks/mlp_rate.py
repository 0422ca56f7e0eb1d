"""How close the recognition grid's networks run to this CPU's matrix-multiply rate (issue 37 item 3).

    python benchmarks/mlp_rate.py [--rows 36:877 50:613] [--epochs 20] [--threads 1 2]
        [--out docs/evidence/mlp_rate]

For each row shape (classes : training books) and each MLP feature set of the default grid
(``recognition.methods.mlp`` and the word baselines' MLP sets of config/config.yaml), a network
is trained as :mod:`punctstyle.classifiers.mlp` trains one (``build_network`` under the seed,
Adam at the config's learning rate, ``_train_epoch`` with the config's batch size: the project's
code) for a fixed number of epochs on random inputs of the row's shape (the arithmetic of an
epoch depends on the shapes only; the stopping rule decides how many epochs a real row runs:
docs/performance.md gives 67 to 1,000 on a 50-author row). Counted per epoch, with ``N``
training rows, ``d`` inputs, ``h`` hidden units and ``c`` classes, the floating-point work of
the two linear layers::

    forward   2 N (d h + h c)          (X W1, H W2)
    backward  2 N (d h + h c) + 2 N h c (the weights' gradients; the hidden layer's gradient;
                                         none for the inputs, which need none)
    total     N (4 d h + 6 h c)

Adam's update (about 10 operations a parameter a step) and the ReLU are element-wise and
counted apart (``adam_gflop``); the rate is the linear layers' GFLOP over the process's CPU
seconds (``time.process_time``: every thread of the process). The reference, measured in the
same process with the same threads: ``torch.mm`` of one minibatch's first layer
(``(batch x d) @ (d x h)``) and of a 2000 x 2000 product (the machine's best case), GFLOP per
CPU second. Each network is also trained with the per-tensor Adam the project used before
(``per_tensor``): CPU seconds, their ratio and the largest difference of the final weights
(0: the same weights to the bit). Prints the table; ``--out`` writes it with the commit (benchmarks/evidence_run.py).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from punctstyle.classifiers.mlp import _train_epoch, adam, build_network  # noqa: E402
from punctstyle.featuresets import resolve_feature_set  # noqa: E402
from punctstyle.marks import FEATURE_SIZES  # noqa: E402

GRID_SETS = ("f1", "f3", "f4", "f5", "f1+f3+f4+f5", "all", "f7")
"""config/config.yaml's ``recognition.methods.mlp``."""
WORD_WIDTHS = {"words": 1000, "all+words": 1000 + 550}
"""The word baselines' MLP sets (``recognition.words``: 1,000 most frequent words)."""


def width(feature_set: str) -> int:
    """Inputs of a feature set: its features' sizes summed (``FEATURE_SIZES``), or a word set's."""
    if feature_set in WORD_WIDTHS:
        return WORD_WIDTHS[feature_set]
    return sum(FEATURE_SIZES[f] for f in resolve_feature_set(feature_set))


def linear_gflop(n: int, d: int, h: int, c: int) -> float:
    """``N (4 d h + 6 h c) / 1e9``: one epoch's linear-layer work (module docstring)."""
    return n * (4 * d * h + 6 * h * c) / 1e9


def adam_gflop(n: int, batch: int, d: int, h: int, c: int, per_parameter: int = 10) -> float:
    """``ceil(N / batch) * per_parameter * (d h + h + h c + c) / 1e9``: one epoch's Adam updates."""
    return -(-n // batch) * per_parameter * (d * h + h + h * c + c) / 1e9


def cpu_seconds(work, repeats: int = 1) -> float:
    """The least process CPU seconds of ``repeats`` calls of ``work``."""
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return best


def mm_rate(m: int, k: int, n: int, calls: int) -> float:
    """GFLOP per CPU second of ``calls`` products ``(m x k) @ (k x n)`` (``2 m k n`` each), float32."""
    generator = torch.Generator().manual_seed(0)
    a = torch.randn(m, k, generator=generator)
    b = torch.randn(k, n, generator=generator)
    torch.mm(a, b)  # warm-up

    def work() -> None:
        for _ in range(calls):
            torch.mm(a, b)

    return 2 * m * k * n * calls / 1e9 / cpu_seconds(work, repeats=3)


OPTIMISERS = {
    "project": adam,
    "per_tensor": lambda parameters, learning_rate: torch.optim.Adam(parameters, lr=learning_rate, foreach=False),
}
"""The project's Adam (:func:`punctstyle.classifiers.mlp.adam`: one grouped update) and the
per-tensor loop it replaced (torch's CPU default before)."""


def train_rate(n: int, d: int, h: int, c: int, batch: int, epochs: int, learning_rate: float,
               optimiser_name: str = "project") -> tuple[float, float, list[torch.Tensor]]:
    """(CPU s, wall s, final weights) of ``epochs`` epochs of the project's training step on
    random inputs, with the optimiser ``optimiser_name`` of :data:`OPTIMISERS`."""
    generator = torch.Generator().manual_seed(0)
    X = torch.randn(n, d, generator=generator)
    y = torch.randint(0, c, (n,), generator=generator)
    torch.manual_seed(0)
    network = build_network(d, h, c)
    optimiser = OPTIMISERS[optimiser_name](network.parameters(), learning_rate)
    _train_epoch(network, optimiser, X, y, batch, generator)  # warm-up: allocations, thread pool
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(epochs):
        _train_epoch(network, optimiser, X, y, batch, generator)
    return time.process_time() - cpu, time.perf_counter() - wall, [p.detach().clone() for p in network.parameters()]


def profile_epochs(n: int, d: int, h: int, c: int, batch: int, epochs: int, learning_rate: float) -> pd.DataFrame:
    """Where an epoch's CPU goes: torch's profiler over ``epochs`` epochs of one network (the
    project's training step and Adam), each operator's self CPU time and its share; the linear
    layers are ``aten::mm`` and ``aten::addmm``, Adam's update the element-wise rest of its step."""
    from torch.profiler import ProfilerActivity, profile

    generator = torch.Generator().manual_seed(0)
    X = torch.randn(n, d, generator=generator)
    y = torch.randint(0, c, (n,), generator=generator)
    torch.manual_seed(0)
    network = build_network(d, h, c)
    optimiser = adam(network.parameters(), learning_rate)
    _train_epoch(network, optimiser, X, y, batch, generator)
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        for _ in range(epochs):
            _train_epoch(network, optimiser, X, y, batch, generator)
    frame = pd.DataFrame([{"operator": e.key, "self_cpu_ms": e.self_cpu_time_total / 1e3} for e in prof.key_averages()])
    frame["share"] = frame["self_cpu_ms"] / frame["self_cpu_ms"].sum()
    return frame.sort_values("self_cpu_ms", ascending=False, ignore_index=True)


def measure(rows: list[tuple[int, int]], sets: list[str], threads: list[int], epochs: int, hidden: int,
            batch: int, learning_rate: float) -> pd.DataFrame:
    """One record per (threads, row, feature set): the work, the seconds, the rates and the
    fraction of the same process's ``torch.mm`` rates."""
    records = []
    for n_threads in threads:
        torch.set_num_threads(n_threads)
        peak = mm_rate(2000, 2000, 2000, calls=3)
        for classes, n in rows:
            for feature_set in sets:
                d = width(feature_set)
                batch_mm = mm_rate(batch, d, hidden, calls=max(1, int(2e9 / (2 * batch * d * hidden))))
                cpu, wall, weights = train_rate(n, d, hidden, classes, batch, epochs, learning_rate)
                before, _, before_weights = train_rate(n, d, hidden, classes, batch, epochs, learning_rate, "per_tensor")
                difference = max(float((a - b).abs().max()) for a, b in zip(weights, before_weights, strict=True))
                work = epochs * linear_gflop(n, d, hidden, classes)
                rate = work / cpu
                records.append({
                    "threads": n_threads, "classes": classes, "train_books": n, "feature_set": feature_set,
                    "inputs": d, "epochs": epochs, "cpu_s": cpu, "wall_s": wall, "linear_gflop": work,
                    "adam_gflop": epochs * adam_gflop(n, batch, d, hidden, classes),
                    "gflop_per_cpu_s": rate, "minibatch_mm_gflop_per_cpu_s": batch_mm,
                    "peak_mm_gflop_per_cpu_s": peak, "of_minibatch_mm": rate / batch_mm, "of_peak_mm": rate / peak,
                    "cpu_s_per_tensor_adam": before, "per_tensor_over_project": before / cpu,
                    "max_weight_difference": difference,
                })  # fmt: skip
                print(f"threads {n_threads} classes {classes} n {n} {feature_set:>12} d {d:5d}: "
                      f"{cpu:6.2f} CPU s {work:6.2f} GFLOP -> {rate:5.1f} GFLOP/CPU s "
                      f"({rate / batch_mm:.0%} of the minibatch mm, {rate / peak:.0%} of 2000^3); per-tensor Adam "
                      f"{before:.2f} CPU s ({before / cpu:.2f}x), weights differ by {difference:.3g}", flush=True)
    return pd.DataFrame(records)


def summary(frame: pd.DataFrame) -> pd.DataFrame:
    """Per (threads, classes): the grid's work and CPU summed over the feature sets, and the
    overall fraction of the peak and of the minibatch products."""
    rows = []
    for (n_threads, classes), group in frame.groupby(["threads", "classes"], sort=True):
        expected = (group["linear_gflop"] / group["minibatch_mm_gflop_per_cpu_s"]).sum()
        rows.append({
            "threads": n_threads, "classes": classes, "cpu_s": group["cpu_s"].sum(),
            "linear_gflop": group["linear_gflop"].sum(),
            "gflop_per_cpu_s": group["linear_gflop"].sum() / group["cpu_s"].sum(),
            "peak_mm_gflop_per_cpu_s": group["peak_mm_gflop_per_cpu_s"].iloc[0],
            "cpu_s_at_minibatch_mm_rate": expected, "of_minibatch_mm": expected / group["cpu_s"].sum(),
            "cpu_s_per_tensor_adam": group["cpu_s_per_tensor_adam"].sum(),
            "per_tensor_over_project": group["cpu_s_per_tensor_adam"].sum() / group["cpu_s"].sum(),
            "max_weight_difference": group["max_weight_difference"].max(),
        })  # fmt: skip
    return pd.DataFrame(rows)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", nargs="+", default=["36:877", "50:613"], help="classes:training books")
    parser.add_argument("--sets", nargs="+", default=[*GRID_SETS, *WORD_WIDTHS])
    parser.add_argument("--threads", nargs="+", type=int, default=[1, 2])
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--hidden", type=int, default=2000)
    parser.add_argument("--batch", type=int, default=200)
    parser.add_argument("--learning-rate", type=float, default=1e-3)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--profile", default="50:613:all", help="classes:training books:feature set profiled "
                        "on 1 thread (empty: none)")
    args = parser.parse_args(argv)
    rows = [(int(c), int(n)) for c, n in (item.split(":") for item in args.rows)]
    revision = None
    if args.out:
        from evidence_run import commit

        revision = commit()
    frame = measure(rows, args.sets, args.threads, args.epochs, args.hidden, args.batch, args.learning_rate)
    table = summary(frame)
    tables = {"rates.csv": frame, "summary.csv": table}
    if args.profile:
        classes, n, feature_set = args.profile.split(":")
        torch.set_num_threads(1)
        profiled = profile_epochs(int(n), width(feature_set), args.hidden, int(classes), args.batch, args.epochs,
                                  args.learning_rate)
        linear = profiled.loc[profiled["operator"].isin(["aten::mm", "aten::addmm"]), "share"].sum()
        print(profiled.head(12).round(3).to_string(index=False))
        print(f"linear layers (aten::mm, aten::addmm): {linear:.1%} of the profiled CPU time")
        tables["profile.csv"] = profiled
    with pd.option_context("display.width", 200):
        print(table.round(3).to_string(index=False))
    if args.out:
        from evidence_run import write_evidence

        write_evidence(args.out, tables,
                       {"command": "python benchmarks/mlp_rate.py " + " ".join(argv or sys.argv[1:]),
                        "commit": revision, "torch": torch.__version__, "rows": args.rows, "sets": args.sets,
                        "threads": args.threads, "epochs": args.epochs, "profile": args.profile, "hidden": args.hidden, "batch": args.batch,
                        "clock": "time.process_time (every thread of the process)",
                        "inputs": "random, the row's shape (the work of an epoch depends on the shapes only)",
                        "numpy": np.__version__})  # fmt: skip


if __name__ == "__main__":
    main()
