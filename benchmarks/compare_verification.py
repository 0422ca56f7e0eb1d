"""What each verification correction changes, number by number: the outputs of
``benchmarks/bench_verification.py`` run at successive commits on the same corpus, side by side.

    python benchmarks/compare_verification.py RESULTS --steps base=OUT0 draws=OUT1 applied=OUT2 \
        twice=OUT3 --commits base=a2e6ca7 ... --command "..." --out docs/evidence/verification_corrections \
        [--timing TIMING.json]

RESULTS: the run folder the benchmarks read (its ``corpus/f1.parquet`` gives the corpus's book
ids); each ``OUTi``: a bench_verification ``--out`` folder (``results.csv``, ``timing.json``).
Writes, into the folder ``OUT`` (issue 35 item 1: a stored evidence folder), ``corrections.csv``:
per step, family and length the mean and sd over seeds of AUC, c@1, F0.5u, F1, Brier, overall,
p1 and p2, and the paired difference of each measure to the step before (mean, sd over seeds,
seeds higher); and ``run.json``: the command, the commits, the steps' CPU seconds
(``run_cpu_s``), the corpus (counts, SHA-256 of its sorted book ids, the book ids) and, with
``--timing``, a JSON of further CPU-second runs (``timing_alternating``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os

import pandas as pd

MEASURES = ("auc", "c_at_1", "f_05_u", "f1", "brier", "overall", "p1", "p2")


def pairs(values: list[str]) -> dict[str, str]:
    return dict(v.split("=", 1) for v in values)


def step_table(steps: dict[str, str]) -> pd.DataFrame:
    """One row per step, family and length: mean and sd over seeds, and the paired difference
    (same seed, family and length) to the step before."""
    frames, previous = [], None
    for step, folder in steps.items():
        results = pd.read_csv(os.path.join(folder, "results.csv"), dtype={"length": str})
        grouped = results.groupby(["family", "length"], sort=False)
        table = grouped[list(MEASURES)].agg(["mean", "std"])
        table.columns = [f"{m}_{s}" for m, s in table.columns]
        table.insert(0, "n_cases", grouped["n_cases"].mean())
        table.insert(0, "n_seeds", grouped["seed"].nunique())
        if previous is not None:
            merged = results.merge(previous, on=["family", "length", "seed"], suffixes=("", "_before"))
            for m in ("auc", "c_at_1", "f_05_u", "overall"):
                merged[f"d_{m}"] = merged[m] - merged[f"{m}_before"]
            paired = merged.groupby(["family", "length"], sort=False)
            for m in ("auc", "c_at_1", "f_05_u", "overall"):
                table[f"d_{m}_mean"] = paired[f"d_{m}"].mean()
                table[f"d_{m}_sd"] = paired[f"d_{m}"].std()
                table[f"d_{m}_higher"] = paired[f"d_{m}"].apply(lambda d: int((d > 0).sum()))
                table[f"d_{m}_lower"] = paired[f"d_{m}"].apply(lambda d: int((d < 0).sum()))
        table.insert(0, "step", step)
        frames.append(table.reset_index())
        previous = results
    return pd.concat(frames, ignore_index=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results")
    parser.add_argument("--steps", nargs="+", required=True, help="label=bench output folder, in order")
    parser.add_argument("--commits", nargs="+", required=True, help="label=commit")
    parser.add_argument("--command", required=True, help="the bench_verification command each step ran")
    parser.add_argument("--out", required=True, help="folder: OUT/corrections.csv and OUT/run.json")
    parser.add_argument("--timing", default=None, help="a JSON of further run_cpu_s runs, stored in run.json")
    args = parser.parse_args()
    steps = pairs(args.steps)
    table = step_table(steps)
    book_ids = pd.read_parquet(os.path.join(args.results, "corpus", "f1.parquet"), columns=["book_id", "author"])
    cpu = {}
    for step, folder in steps.items():
        with open(os.path.join(folder, "timing.json"), encoding="utf-8") as handle:
            cpu[step] = round(float(json.load(handle)["run_cpu_s"]), 1)
    os.makedirs(args.out, exist_ok=True)
    table.to_csv(os.path.join(args.out, "corrections.csv"), index=False, float_format="%.4f")
    ids = sorted(int(b) for b in book_ids["book_id"])
    meta = {
        "what": "verification before and after each correction (issues 35 item 3, 37 item 4), same corpus and settings",
        "command": args.command, "commits": pairs(args.commits), "steps": list(steps), "run_cpu_s": cpu,
        "n_books": int(len(book_ids)), "n_authors": int(book_ids["author"].nunique()),
        "corpus": {"books_in_corpus": len(ids), "authors_in_corpus": int(book_ids["author"].nunique()),
                   "book_ids_sha256": hashlib.sha256("".join(f"{i}\n" for i in ids).encode()).hexdigest()},
        "book_ids": ids,
    }
    if args.timing:
        with open(args.timing, encoding="utf-8") as handle:
            meta["timing_alternating"] = json.load(handle)
    with open(os.path.join(args.out, "run.json"), "w", encoding="utf-8") as handle:
        json.dump(meta, handle, indent=1)
    view = table[table["length"] == "whole"][["step", "family", "auc_mean", "c_at_1_mean", "overall_mean"]]
    print(view.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    print(json.dumps({k: v for k, v in meta.items() if k != "book_ids"}, indent=1))
    print("mean AUC over every family and length:", table.groupby("step", sort=False)["auc_mean"].mean().round(4).to_dict())


if __name__ == "__main__":
    main()
