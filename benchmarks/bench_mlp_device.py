"""The recognition network on the CPU and on a CUDA GPU, in one run: seconds per training and
per epoch for rows shaped like Tables 2-3 on a synthetic corpus (Dirichlet class signatures).

    python benchmarks/bench_mlp_device.py [--rows 10:f3 50:f3 50:all] [--docs-per-class 13] [--threads 2]

Each row trains the paper's network (``recognition.mlp`` defaults of the schema: 2,000 hidden
units, Adam 1e-3, batch 200, the paper's stopping rule, at most 1,000 epochs) on 80% of the
documents, first on the CPU (``--threads`` threads), then on CUDA when present. Prints the
device names, the epochs each run took and the ratio CPU / GPU of the time per epoch (the
runs may stop at different epochs: floating-point sums differ between devices).
"""

from __future__ import annotations

import argparse
import platform
import time

import numpy as np
import torch

from punctstyle.classifiers.mlp import MLPParams, train_mlp
from punctstyle.settings import schema_default
from punctstyle.experiments.row import documents_split

FEATURE_WIDTH = {"f1": 10, "f3": 100, "f4": 200, "f5": 40, "all": 560, "f7": 1000}


def synthetic_row(n_classes: int, width: int, docs_per_class: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``docs_per_class`` documents per class drawn around a class signature (Dirichlet)."""
    rng = np.random.default_rng(seed)
    signatures = rng.dirichlet(np.full(width, 0.5), size=n_classes)
    labels = np.repeat(np.arange(n_classes), docs_per_class)
    X = np.vstack([rng.dirichlet(signatures[c] * 300 + 0.05) for c in labels])
    return X, labels.astype(str)


def timed_training(X, y, params: MLPParams, device: str, threads: int) -> tuple[float, int]:
    if device == "cuda":
        torch.cuda.synchronize()
    start = time.perf_counter()
    model = train_mlp(X, y, params=params, seed=0, device=device, num_threads=threads)
    if device == "cuda":
        torch.cuda.synchronize()
    return time.perf_counter() - start, int(model.epochs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", nargs="+", default=["10:f3", "50:f3", "50:all", "50:f7"], help="CLASSES:FEATURE_SET")
    parser.add_argument("--docs-per-class", type=int, default=13)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    params = MLPParams.from_config(schema_default("recognition", "mlp"))
    devices = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
    names = {"cpu": f"{platform.processor() or platform.machine()} ({args.threads} threads)"}
    if "cuda" in devices:
        names["cuda"] = torch.cuda.get_device_name(0)
    print("devices: " + "; ".join(f"{d} = {names[d]}" for d in devices))
    print(f"{'row':>10} {'device':>6} {'epochs':>6} {'seconds':>8} {'ms/epoch':>9}")
    for row in args.rows:
        n_classes, feature_set = row.split(":")
        X, y = synthetic_row(int(n_classes), FEATURE_WIDTH[feature_set], args.docs_per_class, seed=0)
        train, _ = documents_split(y, None, 0.2, np.random.default_rng(0))
        per_epoch = {}
        for device in devices:
            timed_training(X[train][:50], y[train][:50], params, device, args.threads)  # warm-up (thread pools, kernels)
            seconds, epochs = timed_training(X[train], y[train], params, device, args.threads)
            per_epoch[device] = seconds / epochs
            print(f"{row:>10} {device:>6} {epochs:>6} {seconds:>8.1f} {1000 * per_epoch[device]:>9.1f}")
        if "cuda" in per_epoch:
            print(f"{row:>10} CPU / GPU time per epoch: {per_epoch['cpu'] / per_epoch['cuda']:.1f}x")


if __name__ == "__main__":
    main()
