"""Store ``benchmarks/author_population.py``'s runs as evidence (issue 35 item 1), with the
derived numbers docs/results.md quotes ("Which authors are drawn"):

    python benchmarks/store_author_population.py RESULTS RUNS_DIR OUT --commit SHA --command "..." \\
        [--paper-classes 10 50] [--scale-to 50 651]

RUNS_DIR holds ``author_population_<K><tag>_runs.csv`` and ``..._spread.csv`` (one per class size K
and ``--tag``, e.g. ``10`` for KL and ``10_mlp`` for the network) and ``time_<K><tag>.txt`` (each
call's ``/usr/bin/time -v`` report).
Writes ``spread.csv`` (every K's spread table, the column ``classes`` added), ``draw_means.csv``
(per K, method and feature set: the least and most of the draws' means), ``paper.csv`` (at the
paper's class sizes: the mean over every run beside the paper's value and their difference) and
``one_run.csv`` (the sd of one run of K authors from N: the authors' sd scaled from each K with
the split sd of the largest K, ``sqrt(a^2 + s^2)``; for a method without a run at the largest K,
the sd over seeds of RESULTS's K-author row; beside it the paper's value at K, the gap of
RESULTS's mean and of the largest K's mean to it, and each gap in units of that sd), and ``run.json`` (command, commit, corpus
fingerprint, seconds). The runs themselves (one row per draw and split, with the drawn authors'
names) are left out: several MB.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from evidence_run import commit, corpus_fingerprint, gnu_time_seconds, write_evidence  # noqa: E402

from punctstyle.report.paper_comparison import PAPER_ACCURACY  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path)
    parser.add_argument("runs", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--commit", required=True)
    parser.add_argument("--command", required=True)
    parser.add_argument("--scale-to", nargs=2, type=int, default=[50, 651])
    args = parser.parse_args()
    k_target, n_target = args.scale_to

    spreads, means, paper_rows = [], [], []
    for path in sorted(args.runs.glob("author_population_*_spread.csv")):
        classes = int(re.search(r"author_population_(\d+)", path.name).group(1))
        spread = pd.read_csv(path)
        spread.insert(0, "classes", classes)
        spreads.append(spread)
        runs = pd.read_csv(path.with_name(path.name.replace("_spread", "_runs")))
        per_draw = runs.groupby(["method", "feature_set", "draw"])["accuracy"].mean()
        span = per_draw.groupby(["method", "feature_set"]).agg(["min", "max"]).reset_index()
        span.insert(0, "classes", classes)
        means.append(span.rename(columns={"min": "least_draw_mean", "max": "most_draw_mean"}))
        for _, line in spread.iterrows():
            paper = PAPER_ACCURACY.get(("author", line["method"], classes), {}).get(line["feature_set"])
            if paper is not None:
                paper_rows.append({"classes": classes, "method": line["method"], "feature_set": line["feature_set"],
                                   "mean": line["mean"], "paper": paper, "difference": line["mean"] - paper})
    spread = pd.concat(spreads, ignore_index=True)
    one_run = one_run_table(spread, grid_summary(args.results), k_target, n_target)
    tables = {"spread.csv": spread, "draw_means.csv": pd.concat(means, ignore_index=True),
              "paper.csv": pd.DataFrame(paper_rows), "one_run.csv": pd.DataFrame(one_run)}
    tables = {name: frame for name, frame in tables.items() if len(frame)}
    seconds = {path.stem.removeprefix("time_"): gnu_time_seconds(path) for path in sorted(args.runs.glob("time_*.txt"))}
    run = {"command": args.command, "commit": args.commit, "stored_by_commit": commit(),
           "corpus": corpus_fingerprint(args.results),
           "grid_rows": "RESULTS's analysis/recognition/author_summary.csv (docs/evidence/default_run/)",
           "scale_to": [k_target, n_target], "seconds_per_classes": seconds,
           "note": "2 cores shared with other developers' jobs, under nice -n 10"}
    write_evidence(args.out, tables, run)
    print(f"{args.out}: {', '.join(tables)}")
    return 0


def grid_summary(results: Path) -> pd.DataFrame:
    """RESULTS's author rows (``analysis/recognition/author_summary.csv``), one line per (method,
    classes, feature set): ``mean`` and ``sd`` over seeds."""
    summary = pd.read_csv(results / "analysis" / "recognition" / "author_summary.csv")
    sets = [c[len("accuracy[") : -1] for c in summary.columns if c.startswith("accuracy[")]
    lines = [
        {"method": row["method"], "classes": int(row["n_classes"]), "feature_set": name,
         "mean": row[f"accuracy[{name}]"], "sd": row[f"accuracy_std[{name}]"]}
        for _, row in summary.iterrows() for name in sets
    ]  # fmt: skip
    return pd.DataFrame(lines).dropna().set_index(["method", "classes", "feature_set"])


def one_run_table(spread: pd.DataFrame, grid: pd.DataFrame, k_target: int, n_target: int) -> pd.DataFrame:
    """The sd of one run of ``k_target`` authors from ``n_target``: ``sqrt(a^2 + s^2)``, ``a`` the
    authors' sd scaled from a smaller K, ``s`` the split sd (the largest K's ``sd_splits``, else
    the grid's sd over seeds at ``k_target``); with the paper's value at ``k_target``, the gaps of
    the grid's mean and of the largest K's mean to it, and each gap / that sd."""
    scaled = f"sd_authors_net_{k_target}_of_{n_target}"
    largest = spread[spread["classes"] == spread["classes"].max()].set_index(["method", "feature_set"])
    rows = []
    for _, line in spread[spread["classes"] < spread["classes"].max()].iterrows():
        key = (line["method"], line["feature_set"])
        at_target = (line["method"], k_target, line["feature_set"])
        population = float(largest.loc[key, "mean"]) if key in largest.index else np.nan
        if key in largest.index:
            split_sd, source = float(largest.loc[key, "sd_splits"]), f"sd_splits at {int(spread['classes'].max())}"
        else:
            split_sd, source = float(grid.loc[at_target, "sd"]), f"grid sd over seeds at {k_target}"
        one = float(np.hypot(line[scaled], split_sd))
        paper = PAPER_ACCURACY.get(("author", line["method"], k_target), {}).get(line["feature_set"], np.nan)
        grid_mean = float(grid.loc[at_target, "mean"]) if at_target in grid.index else np.nan
        rows.append({"scaled_from": int(line["classes"]), "method": line["method"],
                     "feature_set": line["feature_set"], "author_sd_scaled": line[scaled],
                     "split_sd": split_sd, "split_sd_source": source, "one_run_sd": one, "paper": paper,
                     "grid_mean": grid_mean, "grid_gap": grid_mean - paper, "grid_gap_in_sd": (grid_mean - paper) / one,
                     "population_mean": population, "population_gap": population - paper,
                     "population_gap_in_sd": (population - paper) / one})  # fmt: skip
    return pd.DataFrame(rows)


if __name__ == "__main__":
    sys.exit(main())
