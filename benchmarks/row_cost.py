"""The CPU seconds of one recognition row at two commits, run side by side (issue 37): is a
rise of the default run's grid the code's or the machine's?

    python benchmarks/row_cost.py RESULTS OUT --checkouts OLD NEW [--task genre] [--classes 10]
        [--seed 0] [--repeats 2]

RESULTS: a finished run's results folder (its ``corpus/`` tables are the rows' input); OLD, NEW:
two checkouts of the project (each runs its own ``benchmarks/recognition_rows.py``, the rules'
code without Snakemake, 1 thread). The checkouts alternate (OLD, NEW, OLD, NEW, ...) so that both
see the same conditions; each call is timed from outside (``resource.getrusage`` of the finished
child: user + system of the whole process, Python start and imports included) with the 1-minute
load average at its start. Prints each call and the ratio NEW / OLD of the mean CPU seconds, and
checks that both checkouts wrote the same accuracies and epochs. OUT: ``calls.csv`` and
``run.json`` (the commits, the corpus fingerprint).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from evidence_run import commit, corpus_fingerprint, write_evidence  # noqa: E402


def checkout_commit(checkout: Path) -> str:
    """The short commit of a checkout."""
    out = subprocess.run(["git", "-C", str(checkout), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return out.stdout.strip()


def timed_row(checkout: Path, corpus: Path, out: Path, task: str, classes: str, seed: int) -> dict[str, float]:
    """Run one row with ``checkout``'s code; CPU s = user + system of the child (rusage delta)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    load = os.getloadavg()[0]
    start = time.perf_counter()
    env = {**os.environ, "PYTHONPATH": str(checkout), "OMP_NUM_THREADS": "1"}
    subprocess.run([sys.executable, str(checkout / "benchmarks" / "recognition_rows.py"), str(corpus), str(out),
                    "--tasks", task, "--sizes", classes, "--seeds", str(seed), "--threads", "1"],
                   cwd=checkout, env=env, check=True, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"cpu_s": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
            "wall_s": time.perf_counter() - start, "load_1min_at_start": load}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--checkouts", nargs=2, type=Path, required=True, metavar=("OLD", "NEW"))
    parser.add_argument("--task", default="genre")
    parser.add_argument("--classes", default="10")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    own = commit()
    calls, rows = [], {}
    with tempfile.TemporaryDirectory() as scratch:
        for repeat in range(args.repeats):
            for side, checkout in zip(("old", "new"), args.checkouts, strict=True):
                out = Path(scratch) / f"{side}{repeat}"
                cost = timed_row(checkout.resolve(), args.results / "corpus", out, args.task, args.classes, args.seed)
                calls.append({"repeat": repeat, "side": side, "commit": checkout_commit(checkout), **cost})
                print(calls[-1], flush=True)
                rows[side] = pd.read_csv(out / args.task / f"{args.classes}_classes" / f"seed{args.seed}_results.csv")
    keys = ["method", "feature_set"]
    both = rows["old"].merge(rows["new"], on=keys, suffixes=("_old", "_new"))
    same = bool(len(both) == len(rows["old"]) == len(rows["new"])
                and (both["accuracy_old"] == both["accuracy_new"]).all()
                and (both.get("epochs_old", 0) == both.get("epochs_new", 0)).all())
    table = pd.DataFrame(calls)
    mean = table.groupby("side")["cpu_s"].mean()
    print(f"mean CPU s: old {mean['old']:.1f}, new {mean['new']:.1f}, new / old {mean['new'] / mean['old']:.3f}; "
          f"same accuracies and epochs: {same}")
    write_evidence(args.out, {"calls.csv": table}, {
        "command": " ".join(["python benchmarks/row_cost.py RESULTS OUT", "--task", args.task, "--classes",
                             args.classes, "--seed", str(args.seed), "--repeats", str(args.repeats)]),
        "commit": own, "row": {"task": args.task, "classes": args.classes, "seed": args.seed},
        "corpus": corpus_fingerprint(args.results), "same_accuracies_and_epochs": same,
        "mean_cpu_s": {"old": round(float(mean["old"]), 2), "new": round(float(mean["new"]), 2)},
        "ratio_new_over_old": round(float(mean["new"] / mean["old"]), 3)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
