"""Store Table 3-4's validation hold-out rows beside the paper's protocol (issue 35 item 1):
the network rows of ``benchmarks/recognition_rows.py --set recognition.mlp.stopping=validation``
on a default run's corpus tables, and the protocol effect (the paper's protocol minus the
validation hold-out, per task, class size and feature set: mean and sd over seeds of the paired
per-seed differences, and the seeds in which the paper's protocol is at least as good).

    python benchmarks/store_protocol_rows.py RESULTS ROWS OUT --commit SHA --command "..." \
        [--time genre=TIME_FILE author=TIME_FILE --clock "..."]

RESULTS: the default run's outdir (its ``analysis/recognition/{task}_results.csv``, the paper's
protocol); ROWS: recognition_rows.py's OUT_DIR; OUT: the evidence folder; ``--commit``: the
commit that computed ROWS (the script's own commit is stored beside it); ``--time``: each task's
``/usr/bin/time -v`` report of its recognition_rows.py call.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from evidence_run import commit, corpus_fingerprint, gnu_time_seconds, write_evidence  # noqa: E402

from punctstyle.analyses.recognition_files import read_results  # noqa: E402
from punctstyle.report.recognition_tables import summarise  # noqa: E402

KEYS = ["task", "n_classes", "feature_set", "seed"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path)
    parser.add_argument("rows", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--commit", required=True)
    parser.add_argument("--command", required=True)
    parser.add_argument("--time", nargs="*", default=[], metavar="TASK=FILE")
    parser.add_argument("--clock", default="", help="how the seconds were measured (stored with them)")
    args = parser.parse_args()
    store_commit = commit()

    tables: dict[str, pd.DataFrame] = {}
    effects = []
    for task in ("author", "genre"):
        files = sorted(str(p) for p in (args.rows / task).glob("*_classes/seed*_results.csv"))
        if not files:
            continue
        validation = read_results(files)
        validation = validation[validation["method"] == "mlp"]
        # only class sizes with every seed (a stopped run's unfinished sizes left out)
        seeds = validation.groupby("n_classes")["seed"].nunique()
        validation = validation[validation["n_classes"].isin(seeds[seeds == seeds.max()].index)]
        tables[f"{task}_validation_summary.csv"] = summarise(validation)
        paper_file = args.results / "analysis" / "recognition" / f"{task}_results.csv"
        if not paper_file.is_file():  # the run's rows of this task not finished: no effect yet
            continue
        paper = pd.read_csv(paper_file)
        paper = paper[paper["method"] == "mlp"].drop_duplicates(KEYS)
        both = paper[KEYS + ["accuracy"]].merge(validation.drop_duplicates(KEYS)[KEYS + ["accuracy"]],
                                                on=KEYS, suffixes=("_paper", "_validation"))
        both["effect"] = both["accuracy_paper"] - both["accuracy_validation"]
        grouped = both.groupby(["task", "n_classes", "feature_set"], sort=True)
        effects.append(grouped.agg(seeds=("seed", "nunique"), paper_protocol=("accuracy_paper", "mean"),
                                   validation=("accuracy_validation", "mean"), effect=("effect", "mean"),
                                   effect_sd=("effect", "std"),
                                   seeds_paper_at_least=("effect", lambda e: int((e >= 0).sum()))).reset_index())
    if not tables:
        raise SystemExit(f"{args.rows}: no row files")
    if effects:
        tables["protocol_effect.csv"] = pd.concat(effects, ignore_index=True)
    seconds = {f"{item.split('=', 1)[0]}_rows": gnu_time_seconds(Path(item.split("=", 1)[1])) for item in args.time}
    run = {"command": args.command, "commit": args.commit, "stored_by_commit": store_commit,
           "corpus": corpus_fingerprint(args.results),
           "paper_protocol_rows": "the default run's analysis/recognition/{task}_results.csv (docs/evidence/default_run/)",
           "seconds": {**seconds, "clock": args.clock} if seconds else None}
    write_evidence(args.out, tables, run)
    print(f"{args.out}: {', '.join(tables)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
