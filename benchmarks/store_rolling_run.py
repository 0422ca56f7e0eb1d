"""Store a run's rolling collaborations analysis as evidence (issue 35 items 1 and 4): the rule
``rolling_collaborations``'s per-text records, and what docs/results.md reads from them.

    python benchmarks/store_rolling_run.py RESULTS OUT --run-commit SHA

RESULTS: a finished run's outdir (its ``analysis/rolling/collaborations.csv``, one line per
collaboration and method); OUT: the evidence folder. Writes

* ``collaborations.csv``: the records, as the rule wrote them (``errors`` and ``authors`` kept);
* ``texts.csv``: per kind, the collaborations' lengths in marks (count, least, most, mean);
* ``per_seed.csv``: per kind, method and seed, the means over the seed's texts;
* ``found.csv``: per kind and method, mean and sd over seeds of the per-seed mean of changes found
  per text (``n_found``; a text of kind A-B has one true change);
* ``two_parts.csv``: per method, the share of true changes within one step pooled over the
  two-author texts (A-B and A-B-A) of each seed, the mean and sd over seeds of that share, and the
  seeds under 0.8 (issue 23's target, with false alarms ignored);
* ``paired.csv``: method ``a`` minus method ``b`` on the same texts, per kind: mean and sd over
  seeds of the per-seed mean difference, and the seeds in which it is above 0.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pandas as pd
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from evidence_run import commit, corpus_fingerprint, write_evidence  # noqa: E402

MEASURES = ["slice_accuracy", "within_step", "n_found", "precision", "recall", "f1", "false_alarms",
            "segments_right"]
PAIRS = [("delta_both", "delta_words"), ("delta_words", "kl_f3"), ("kl_f3", "delta_punct")]
TARGET = 0.8


def per_seed(records: pd.DataFrame) -> pd.DataFrame:
    """Per kind, method and seed: the mean of each measure over the seed's texts."""
    frame = records.assign(segments_right=records["segments_right"].astype(float))
    return frame.groupby(["kind", "method", "seed"])[MEASURES].mean().reset_index()


def found_per_text(seeds: pd.DataFrame) -> pd.DataFrame:
    """Per kind and method: mean and sd over seeds of the changes found per text."""
    grouped = seeds.groupby(["kind", "method"])["n_found"]
    return grouped.agg(n_found_mean="mean", n_found_sd="std").reset_index()


def two_parts(records: pd.DataFrame) -> pd.DataFrame:
    """Per method and seed, the share of true changes within one step over the seed's A-B and
    A-B-A texts (``sum(within_step * n_true) / sum(n_true)``), then one row per method with the
    mean and sd over seeds and the seeds under :data:`TARGET`."""
    two = records[records["kind"].isin(["A-B", "A-B-A"])].assign(
        hit=lambda f: f["within_step"] * f["n_true"])
    shares = two.groupby(["method", "seed"]).apply(lambda f: f["hit"].sum() / f["n_true"].sum(),
                                                   include_groups=False).rename("share").reset_index()
    wide = shares.pivot(index="method", columns="seed", values="share")
    wide.columns = [f"seed{s}" for s in wide.columns]
    stats = shares.groupby("method")["share"].agg(share_mean="mean", share_sd="std",
                                                  seeds_below_target=lambda s: int((s < TARGET).sum()))
    return stats.join(wide).reset_index()


def paired(records: pd.DataFrame) -> pd.DataFrame:
    """Method ``a`` minus ``b`` on the same texts (seed, kind, number): per kind and measure,
    mean and sd over seeds of the per-seed mean difference, and the seeds with a positive one."""
    frame = records.assign(segments_right=records["segments_right"].astype(float))
    wide = frame.pivot_table(index=["kind", "seed", "number"], columns="method", values=MEASURES)
    rows = []
    for a, b in PAIRS:
        for name in MEASURES:
            diff = (wide[(name, a)] - wide[(name, b)]).groupby(level=["kind", "seed"]).mean()
            for kind, values in diff.groupby(level="kind"):
                rows.append({"a": a, "b": b, "kind": kind, "measure": name, "diff_mean": values.mean(),
                             "diff_sd": values.std(ddof=1), "seeds": values.size,
                             "seeds_above_0": int((values > 0).sum())})
    return pd.DataFrame(rows)


def texts(records: pd.DataFrame) -> pd.DataFrame:
    """Per kind (and all kinds): the collaborations' lengths in marks."""
    one = records.drop_duplicates(["seed", "kind", "number"])
    rows = [one.assign(kind="all"), one]
    return pd.concat(rows).groupby("kind")["n_marks"].agg(texts="size", least="min", most="max",
                                                          mean="mean").reset_index()


def run_settings(run_commit: str) -> dict:
    """The default configuration's ``rolling`` block at the run's commit (``git show``)."""
    text = subprocess.run(["git", "show", f"{run_commit}:config/config.yaml"], cwd=Path(__file__).resolve().parents[1],
                          capture_output=True, text=True, check=True).stdout
    return yaml.safe_load(text)["rolling"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--run-commit", required=True, help="the commit the run was computed at")
    args = parser.parse_args()
    here = commit()
    records = pd.read_csv(args.results / "analysis" / "rolling" / "collaborations.csv")
    seeds = per_seed(records)
    tables = {"collaborations.csv": records, "texts.csv": texts(records), "per_seed.csv": seeds,
              "found.csv": found_per_text(seeds), "two_parts.csv": two_parts(records),
              "paired.csv": paired(records)}
    run = {"command": f"python benchmarks/store_rolling_run.py RESULTS {args.out} --run-commit {args.run_commit}",
           "commit": here, "run_commit": args.run_commit,
           "records": "RESULTS/analysis/rolling/collaborations.csv (rule rolling_collaborations)",
           "seeds": sorted(int(s) for s in records["seed"].unique()),
           "methods": sorted(records["method"].unique()), "margin": sorted(records["margin"].unique().tolist()),
           "target_within_step": TARGET,
           "rolling": run_settings(args.run_commit), "corpus": corpus_fingerprint(args.results)}
    write_evidence(args.out, tables, run)
    print(f"{args.out}: {', '.join(tables)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
