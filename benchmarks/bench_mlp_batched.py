"""Is training the MLPs of one recognition row together faster on the CPU than one after another?

    python benchmarks/bench_mlp_batched.py [--hidden 2000] [--train 400] [--classes 50]
        [--epochs 5] [--threads 1] [--sets f1,f3,f4,f5,f1+f3+f4+f5,all,f7] [--repeats 2] [--evidence OUT]

Separate: each feature set's network trained as punctstyle.classifiers.mlp trains it
(``build_network`` under the seed, Adam, ``_train_epoch``: the project's code), for a fixed number
of epochs (no stopping rule, so that both sides do the same number of steps). Batched: the same
networks (same initial weights, the first layer zero-padded to the widest input) stacked along a
leading axis and trained at once: ``baddbmm`` for both layers, the sum of the networks' mean
cross-entropies as the loss (each network's gradient is its own), one Adam over the stacked
parameters (Adam is element-wise, so each network gets its own update). Both see the same
minibatches in the same order: the networks of a row share the seed and the training rows, so
``randperm`` under the seed gives every network the same order. Same run, same data, same
threads; prints the seconds of each, the ratio, and the largest difference of the final
weights and of the test probabilities (float summation order differs between one GEMM per
network and a batched, padded GEMM, so equality holds to a tolerance, not bit for bit).
``--evidence OUT`` adds the run's line to ``OUT/runs.csv`` (settings, seconds, ratio, differences)
and its command to ``OUT/run.json`` (with the commit; benchmarks/evidence_run.py), so that several
settings share one folder.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from punctstyle.classifiers.mlp import _train_epoch, build_network  # noqa: E402
from punctstyle.featuresets import resolve_feature_set  # noqa: E402
from punctstyle.marks import FEATURE_SIZES  # noqa: E402


def dims(sets: list[str]) -> list[int]:
    return [sum(FEATURE_SIZES[f] for f in resolve_feature_set(name)) for name in sets]


def initial_networks(widths: list[int], hidden: int, n_classes: int, seed: int) -> list[torch.nn.Module]:
    networks = []
    for d in widths:
        torch.manual_seed(seed)  # as train_mlp: each network initialised under the row's seed
        networks.append(build_network(d, hidden, n_classes))
    return networks


def train_separately(networks, inputs, y, epochs, batch_size, lr, seed) -> float:
    start = time.perf_counter()
    for network, X in zip(networks, inputs, strict=True):
        optimiser = torch.optim.Adam(network.parameters(), lr=lr)
        generator = torch.Generator().manual_seed(seed)
        for _ in range(epochs):
            _train_epoch(network, optimiser, X, y, batch_size, generator)
    return time.perf_counter() - start


def stack(networks, widths):
    """(W0 (K, dmax, H), b0 (K, 1, H), W1 (K, H, C), b1 (K, 1, C)) from separate networks."""
    dmax, hidden = max(widths), networks[0][0].weight.shape[0]
    W0 = torch.zeros(len(networks), dmax, hidden)
    for k, (network, d) in enumerate(zip(networks, widths, strict=True)):
        W0[k, :d] = network[0].weight.detach().T
    b0 = torch.stack([n[0].bias.detach() for n in networks])[:, None, :].clone()
    W1 = torch.stack([n[2].weight.detach().T for n in networks]).clone()
    b1 = torch.stack([n[2].bias.detach() for n in networks])[:, None, :].clone()
    return [p.requires_grad_(True) for p in (W0, b0, W1, b1)]


def forward(params, X):
    W0, b0, W1, b1 = params
    return torch.baddbmm(b1, torch.relu(torch.baddbmm(b0, X, W0)), W1)


def train_batched(params, X_padded, y, epochs, batch_size, lr, seed) -> float:
    start = time.perf_counter()
    optimiser = torch.optim.Adam(params, lr=lr)
    generator = torch.Generator().manual_seed(seed)
    K = X_padded.shape[0]
    for _ in range(epochs):
        order = torch.randperm(X_padded.shape[1], generator=generator)
        for begin in range(0, X_padded.shape[1], batch_size):
            batch = order[begin : begin + batch_size]
            optimiser.zero_grad(set_to_none=True)
            logits = forward(params, X_padded[:, batch])
            target = y[batch].repeat(K)
            per_row = torch.nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), target, reduction="none")
            per_row.reshape(K, -1).mean(dim=1).sum().backward()
            optimiser.step()
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hidden", type=int, default=2000)
    parser.add_argument("--train", type=int, default=400)
    parser.add_argument("--test", type=int, default=100)
    parser.add_argument("--classes", type=int, default=50)
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--batch-size", type=int, default=200)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--sets", default="f1,f3,f4,f5,f1+f3+f4+f5,all,f7")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--evidence", type=Path, metavar="OUT", help="add this run to OUT/runs.csv and OUT/run.json")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.use_deterministic_algorithms(True, warn_only=True)
    sets = args.sets.split(",")
    widths = dims(sets)
    rng = np.random.default_rng(0)
    n = args.train + args.test
    full = [torch.as_tensor(rng.normal(size=(n, d)), dtype=torch.float32) for d in widths]
    y = torch.as_tensor(rng.integers(0, args.classes, size=args.train), dtype=torch.long)
    train = [X[: args.train] for X in full]
    padded = torch.zeros(len(widths), n, max(widths))
    for k, (X, d) in enumerate(zip(full, widths, strict=True)):
        padded[k, :, :d] = X
    print(f"networks: {len(sets)} ({', '.join(f'{s}={d}' for s, d in zip(sets, widths, strict=True))} inputs), "
          f"hidden {args.hidden}, {args.train} training rows, {args.classes} classes, {args.epochs} epochs, "
          f"batch {args.batch_size}, {args.threads} thread(s), torch {torch.__version__}")
    separate_s, batched_s = [], []
    for _ in range(args.repeats):
        networks = initial_networks(widths, args.hidden, args.classes, seed=0)
        params = stack(networks, widths)
        separate_s.append(train_separately(networks, train, y, args.epochs, args.batch_size, 1e-3, 0))
        batched_s.append(train_batched(params, padded[:, : args.train], y, args.epochs, args.batch_size, 1e-3, 0))
    weight_diff = max(
        float((params[0][k, :d].detach() - network[0].weight.detach().T).abs().max())
        for k, (network, d) in enumerate(zip(networks, widths, strict=True))
    )
    with torch.no_grad():
        batched_p = torch.softmax(forward(params, padded[:, args.train :]), dim=-1)
        prob_diff = max(
            float((batched_p[k] - torch.softmax(network(X[args.train :]), dim=-1)).abs().max())
            for k, (network, X) in enumerate(zip(networks, full, strict=True))
        )
    sep, bat = min(separate_s), min(batched_s)
    print(f"separate: {sep:.2f} s   batched: {bat:.2f} s   separate / batched: {sep / bat:.2f}  "
          f"(best of {args.repeats}; all: {['%.2f' % s for s in separate_s]} vs {['%.2f' % s for s in batched_s]})")
    print(f"largest difference after training: first-layer weights {weight_diff:.2e}, test probabilities {prob_diff:.2e}")
    if args.evidence:
        store(args.evidence, {"sets": args.sets, "hidden": args.hidden, "train": args.train, "classes": args.classes,
                              "epochs": args.epochs, "threads": args.threads, "repeats": args.repeats,
                              "separate_s": sep, "batched_s": bat, "separate_over_batched": sep / bat,
                              "weight_difference": weight_diff, "probability_difference": prob_diff})
    return 0


def store(out: Path, row: dict) -> None:
    """Add ``row`` to ``out/runs.csv`` and this command to ``out/run.json`` (evidence_run.py)."""
    import pandas as pd
    from evidence_run import commit, write_evidence

    revision = commit()
    runs = out / "runs.csv"
    table = pd.concat([pd.read_csv(runs), pd.DataFrame([row])]) if runs.is_file() else pd.DataFrame([row])
    run_json = out / "run.json"
    run = json.loads(run_json.read_text(encoding="utf-8")) if run_json.is_file() else {"commands": []}
    run["commands"].append({"command": "python benchmarks/bench_mlp_batched.py " + " ".join(
        a for a in sys.argv[1:] if a != str(out)).replace("--evidence", "--evidence OUT"), "commit": revision,
        "torch": torch.__version__})
    run["clock"] = "time.perf_counter of each training, best of --repeats, in one process"
    write_evidence(out, {"runs.csv": table}, run)


if __name__ == "__main__":
    sys.exit(main())
