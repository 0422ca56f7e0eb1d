"""Store ``benchmarks/author_population.py``'s KL runs as evidence (issue 35 item 1), with the
derived numbers docs/results.md quotes ("Which authors are drawn"):

    python benchmarks/store_author_population.py RESULTS RUNS_DIR OUT --commit SHA --command "..." \\
        [--paper-classes 10 50] [--scale-to 50 651]

RUNS_DIR holds ``author_population_<K>_runs.csv`` and ``..._spread.csv`` (one per class size K).
Writes ``spread.csv`` (every K's spread table, the column ``classes`` added), ``draw_means.csv``
(per K, method and feature set: the least and most of the draws' means), ``paper.csv`` (at the
paper's class sizes: the mean over every run beside the paper's value and their difference) and
``one_run.csv`` (the sd of one run of K authors from N: the authors' sd scaled from each K with
the split sd of the largest K, ``sqrt(a^2 + s^2)``), and ``run.json`` (command, commit, corpus
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
from evidence_run import corpus_fingerprint, write_evidence  # noqa: E402

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
        classes = int(re.search(r"_(\d+)_spread", path.name).group(1))
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
    scaled = f"sd_authors_net_{k_target}_of_{n_target}"
    largest = spread[spread["classes"] == spread["classes"].max()].set_index(["method", "feature_set"])["sd_splits"]
    one_run = []
    for _, line in spread[spread["classes"] < spread["classes"].max()].iterrows():
        split_sd = float(largest.loc[(line["method"], line["feature_set"])])
        one_run.append({"scaled_from": int(line["classes"]), "method": line["method"], "feature_set": line["feature_set"],
                        "author_sd_scaled": line[scaled], "split_sd_largest_classes": split_sd,
                        "one_run_sd": float(np.hypot(line[scaled], split_sd))})
    tables = {"spread.csv": spread, "draw_means.csv": pd.concat(means, ignore_index=True),
              "paper.csv": pd.DataFrame(paper_rows), "one_run.csv": pd.DataFrame(one_run)}
    tables = {name: frame for name, frame in tables.items() if len(frame)}
    seconds = {path.stem.removeprefix("time_"): gnu_time_seconds(path) for path in sorted(args.runs.glob("time_*.txt"))}
    run = {"command": args.command, "commit": args.commit, "corpus": corpus_fingerprint(args.results),
           "scale_to": [k_target, n_target], "seconds_per_classes": seconds,
           "note": "2 cores shared with other developers' jobs and the default run, under nice -n 10"}
    write_evidence(args.out, tables, run)
    print(f"{args.out}: {', '.join(tables)}")
    return 0


def gnu_time_seconds(path: Path) -> dict[str, float]:
    """CPU (user + system) and wall seconds of a ``/usr/bin/time -v`` report, one decimal."""
    text = path.read_text(encoding="utf-8")
    user = float(re.search(r"User time \(seconds\): ([\d.]+)", text).group(1))
    system = float(re.search(r"System time \(seconds\): ([\d.]+)", text).group(1))
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)", text).group(1)
    total = 0.0
    for part in wall.split(":"):
        total = total * 60 + float(part)
    return {"cpu_s": round(user + system, 1), "wall_s": round(total, 1)}


if __name__ == "__main__":
    sys.exit(main())
