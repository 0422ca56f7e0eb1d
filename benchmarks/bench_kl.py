"""Benchmark: all-pairs KL divergence (punctstyle.divergence.pairwise_kl) on f3-like vectors.

Generates N random f3-like distributions (100 entries, about 60% structural zeros: each
entry is present in a document with a probability that grows with its corpus-wide weight,
and the present entries get Dirichlet weights), then

* times ``pairwise_kl(X)`` (N x N) and records its peak traced memory (tracemalloc) and the
  process's peak resident set size (``ru_maxrss``);
* times the per-pair definition ``kl_divergence`` on a random sample of pairs, extrapolates
  it to N^2 pairs and reports the speed-up;
* checks that both agree on the sampled pairs (same NaN pattern, max abs diff <= 1e-6).

Usage: ``python benchmarks/bench_kl.py [--n 15000] [--pairs 2000] [--dtype float64]``.
Target on a 2-core machine: N = 15,000 in under 15 s and 8 GB. Exit status 1 if the
check fails.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
import tracemalloc

import numpy as np

from punctstyle.divergence import kl_divergence, pairwise_kl

AGREEMENT_TOL = 1e-6


def f3_like(n: int, dims: int, zero_fraction: float, seed: int) -> np.ndarray:
    """``n`` random distributions over ``dims`` entries with about ``zero_fraction`` zeros."""
    rng = np.random.default_rng(seed)
    weights = np.sort(rng.dirichlet(np.full(dims, 0.5)))[::-1]
    # presence probability 1 - exp(-c w), c chosen by bisection so that the mean is 1 - zero_fraction
    low, high = 0.0, 1e7
    for _ in range(200):
        c = 0.5 * (low + high)
        low, high = (c, high) if np.mean(1 - np.exp(-c * weights)) < 1 - zero_fraction else (low, c)
    presence = 1 - np.exp(-c * weights)
    presence[0] = 1.0  # the most frequent pair is in every document: no empty rows
    mask = rng.random((n, dims)) < presence
    values = rng.gamma(shape=20 * dims * weights + 0.05, size=(n, dims)) * mask
    return values / values.sum(axis=1, keepdims=True)


def _max_rss_bytes() -> int:
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss if sys.platform == "darwin" else rss * 1024  # Linux reports KiB


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=15_000, help="number of vectors (default 15000)")
    parser.add_argument("--dims", type=int, default=100, help="vector length (default 100, like f3)")
    parser.add_argument("--zero-fraction", type=float, default=0.6, help="target share of zeros")
    parser.add_argument("--pairs", type=int, default=2000, help="pairs for the per-pair reference")
    parser.add_argument("--block-rows", type=int, default=512, help="pairwise_kl block_rows")
    parser.add_argument("--dtype", choices=("float64", "float32"), default="float64")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    X = f3_like(args.n, args.dims, args.zero_fraction, args.seed)

    load_before = os.getloadavg()[0]
    tracemalloc.start()
    start, cpu_start = time.perf_counter(), time.process_time()
    D = pairwise_kl(X, block_rows=args.block_rows, dtype=np.dtype(args.dtype))
    vectorised_s = time.perf_counter() - start
    cpu_s = time.process_time() - cpu_start
    _, traced_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    max_rss = _max_rss_bytes()

    rng = np.random.default_rng(args.seed + 1)
    i = rng.integers(0, args.n, args.pairs)
    j = rng.integers(0, args.n, args.pairs)
    start = time.perf_counter()
    reference = np.array([kl_divergence(X[a], X[b]) for a, b in zip(i, j)])
    per_pair_s = (time.perf_counter() - start) / args.pairs
    extrapolated_s = per_pair_s * args.n**2

    got = D[i, j].astype(np.float64)
    nan_mismatch = int(np.sum(np.isnan(got) != np.isnan(reference)))
    finite = ~np.isnan(reference) & ~np.isnan(got)
    max_diff = float(np.max(np.abs(got[finite] - reference[finite]))) if finite.any() else 0.0
    ok = nan_mismatch == 0 and max_diff <= AGREEMENT_TOL

    rows = [
        ("vectors x dims", f"{args.n} x {args.dims}"),
        ("share of zero entries", f"{np.mean(X == 0):.3f}"),
        ("output", f"{D.shape[0]} x {D.shape[1]} {D.dtype} ({D.nbytes / 2**30:.2f} GiB)"),
        ("pairwise_kl time", f"{vectorised_s:.2f} s wall, {cpu_s:.2f} s CPU (all threads)"),
        ("load average before", f"{load_before:.2f} on {os.cpu_count()} cores"),
        ("peak traced memory", f"{traced_peak / 2**30:.2f} GiB"),
        ("peak RSS (process)", f"{max_rss / 2**30:.2f} GiB"),
        ("NaN (empty support) pairs", f"{int(np.isnan(D).sum())}"),
        ("per-pair reference", f"{per_pair_s * 1e6:.1f} us/pair ({args.pairs} pairs)"),
        ("per-pair extrapolated N^2", f"{extrapolated_s:.0f} s ({extrapolated_s / 3600:.2f} h)"),
        ("speed-up", f"{extrapolated_s / vectorised_s:.0f}x"),
        ("max abs diff (sample)", f"{max_diff:.2e} (tol {AGREEMENT_TOL:.0e})"),
        ("NaN pattern mismatches", f"{nan_mismatch}"),
        ("agreement", "OK" if ok else "FAILED"),
    ]
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
