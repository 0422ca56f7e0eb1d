"""Store the Delta variants of the word baselines beside ours (issue 35 item 1): the rows of
``benchmarks/recognition_rows.py --words-only`` with ``recognition.delta.variant`` and
``recognition.delta.zscore_over`` set, against the default run's own Delta (``centroid``, z-scores
over the training books).

    python benchmarks/store_delta_variants.py RESULTS OUT --rows VARIANT:ZSCORE=ROWS_DIR [...]
        --command "..." [--cpu-s S --wall-s S]

RESULTS: the default run's outdir (its ``analysis/recognition/author_words_results.csv``: ours);
ROWS_DIR: recognition_rows.py's OUT_DIR of one variant. Writes to OUT
(:func:`evidence_run.write_evidence`):

* ``results.csv``: every Delta row (variant, z-scores, class size, seed, k, accuracy), ours included
  (``source``: ``default_run`` or ``rows``);
* ``summary.csv``: per variant, class size and k, mean and sd over seeds of the accuracy;
* ``paired.csv``: each variant minus ours, per class size and k: mean and sd over seeds of the
  per-seed difference (same rows, splits and seeds), and the seeds where it is above 0;
* ``zscore.csv``: per variant run with both ``zscore_over`` values, ``all`` minus ``training``
  per class size and k: mean and sd over seeds of the per-seed difference, and the seeds where it
  is not 0;
* ``reproduced.csv``: a re-run of ours (``centroid:training``), if given, against the default
  run's rows: the largest absolute difference per class size and k.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from evidence_run import commit, corpus_fingerprint, write_evidence  # noqa: E402

from punctstyle.analyses.recognition_files import read_word_results  # noqa: E402

OURS = ("centroid", "training")
KEYS = ["n_classes", "top_k", "seed"]


def delta_rows(frame: pd.DataFrame, variant: str, zscore: str, source: str) -> pd.DataFrame:
    """The Delta rows of a word-baseline table, labelled."""
    rows = frame[(frame["method"] == "delta") & (frame["task"] == "author")]
    return rows.assign(variant=variant, zscore_over=zscore, source=source)[
        ["variant", "zscore_over", "source", "n_classes", "seed", "top_k", "accuracy"]]


def summary(results: pd.DataFrame) -> pd.DataFrame:
    """Per variant, z-scores, class size and k: mean and sd (ddof 1) over seeds."""
    grouped = results.groupby(["variant", "zscore_over", "source", "n_classes", "top_k"])["accuracy"]
    return grouped.agg(n_seeds="size", accuracy_mean="mean", accuracy_sd="std").reset_index()


def paired(results: pd.DataFrame) -> pd.DataFrame:
    """Each variant minus ours (the default run's rows) on the same class size, k and seed."""
    ours = results[results["source"] == "default_run"].set_index(KEYS)["accuracy"]
    rows = []
    for (variant, zscore), block in results[results["source"] == "rows"].groupby(["variant", "zscore_over"]):
        if (variant, zscore) == OURS:
            continue
        diff = block.set_index(KEYS)["accuracy"] - ours.reindex(block.set_index(KEYS).index)
        for (n, k), values in diff.groupby(level=["n_classes", "top_k"]):
            rows.append({"variant": variant, "zscore_over": zscore, "n_classes": n, "top_k": k,
                         "n_seeds": int(values.notna().sum()), "diff_mean": values.mean(),
                         "diff_sd": values.std(ddof=1), "seeds_above_0": int((values > 0).sum())})
    return pd.DataFrame(rows)


def zscore_effect(results: pd.DataFrame) -> pd.DataFrame:
    """Per variant run with both z-score sources: ``all`` minus ``training`` on the same rows."""
    rows = results[results["source"] == "rows"]
    wide = rows.pivot_table(index=["variant", *KEYS], columns="zscore_over", values="accuracy")
    if not {"all", "training"} <= set(wide.columns):
        return pd.DataFrame(columns=["variant", "n_classes", "top_k", "n_seeds", "diff_mean", "diff_sd",
                                     "seeds_not_0"])
    diff = (wide["all"] - wide["training"]).dropna()
    grouped = diff.groupby(level=["variant", "n_classes", "top_k"])
    return grouped.agg(n_seeds="size", diff_mean="mean", diff_sd="std",
                       seeds_not_0=lambda d: int((d != 0).sum())).reset_index()


def reproduced(results: pd.DataFrame) -> pd.DataFrame:
    """A re-run of ours against the default run's rows: the largest absolute difference."""
    rerun = results[(results["source"] == "rows") & (results["variant"] == OURS[0])
                    & (results["zscore_over"] == OURS[1])].set_index(KEYS)["accuracy"]
    if rerun.empty:
        return pd.DataFrame(columns=["n_classes", "top_k", "n_seeds", "max_abs_diff"])
    ours = results[results["source"] == "default_run"].set_index(KEYS)["accuracy"]
    diff = (rerun - ours.reindex(rerun.index)).abs()
    return diff.groupby(level=["n_classes", "top_k"]).agg(n_seeds="size", max_abs_diff="max").reset_index()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--rows", action="append", required=True, metavar="VARIANT:ZSCORE=ROWS_DIR")
    parser.add_argument("--command", required=True)
    parser.add_argument("--cpu-s", type=float)
    parser.add_argument("--wall-s", type=float)
    args = parser.parse_args()
    revision = commit()
    ours = pd.read_csv(args.results / "analysis" / "recognition" / "author_words_results.csv")
    frames = [delta_rows(ours, *OURS, "default_run")]
    for spec in args.rows:
        label, folder = spec.split("=", 1)
        variant, zscore = label.split(":")
        files = sorted((Path(folder) / "author").glob("*_classes/seed*_words.csv"))
        frames.append(delta_rows(read_word_results(files), variant, zscore, "rows"))
    results = pd.concat(frames, ignore_index=True)
    sizes = set(results.loc[results["source"] == "rows", "n_classes"])
    results = results[results["n_classes"].isin(sizes)].reset_index(drop=True)
    tables = {"results.csv": results, "summary.csv": summary(results), "paired.csv": paired(results),
              "zscore.csv": zscore_effect(results), "reproduced.csv": reproduced(results)}
    run = {"command": args.command, "commit": revision, "corpus": corpus_fingerprint(args.results),
           "ours": "the default run's analysis/recognition/author_words_results.csv (docs/evidence/default_run/)",
           "cpu_s": args.cpu_s, "wall_s": args.wall_s}
    write_evidence(args.out, tables, run)
    print(tables["summary.csv"].to_string(), tables["paired.csv"].to_string(), tables["zscore.csv"].to_string(),
          tables["reproduced.csv"].to_string(),
          sep="\n\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
