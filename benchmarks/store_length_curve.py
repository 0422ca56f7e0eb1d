"""Store a run's accuracy-against-length curve (and, when given, the raw-sequence network's rows
from ``benchmarks/beyond_rows.py --analyses sequence``) as evidence (issue 35 item 1), with the
derived numbers docs/results.md quotes ("How much punctuation is enough", "Punctuation against
words on excerpts", "A network on raw punctuation sequences"):

    python benchmarks/store_length_curve.py RESULTS OUT --commit SHA --command "..." [--sequence SEQ_DIR]
        [--sequence-time TIME_V_FILE] [--sequence-commit SHA]

RESULTS is a finished run (its ``analysis/length/author_results.csv`` and
``analysis/recognition/author_results.csv``), SEQ_DIR the OUT_DIR of beyond_rows.py on that
run's corpus (``sequence/{K}_classes/seed{s}.csv`` and ``seed{s}_lengths.csv``), TIME_V_FILE the
``/usr/bin/time -v`` output of that call. Writes:

- ``results.csv``: one row per class size, seed, method, feature set and length (the curve's rows,
  trained on whole books, with the sequence network's rows added: ``feature_set`` ``sequence``);
- ``summary.csv``: mean and sd (ddof 1) over seeds per class size, method, feature set and
  length, the chance level, the mean count of test books shorter than n, the median words of
  the test excerpts (``median_words``, from the curve's summary), ``share_of_whole`` (mean over
  the same method's whole-book mean) and ``times_chance`` (mean over chance);
- ``paired.csv``: per class size, length and pair (a, b) the difference a - b paired by seed:
  mean, sd (ddof 1), least, most, seeds with a > b, and the ratio of the two means;
- ``sequence_rows.csv`` (with SEQ_DIR): the sequence network's whole-book rows with their
  training seconds;
- ``run.json``: command, the run's commit (``--commit``), the commit that stored it, the corpus
  fingerprint, the sequence rows' commit and seconds, and the largest difference of the curve's
  whole-book rows from the recognition grid's (0: the same fits).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from evidence_run import commit, corpus_fingerprint, gnu_time_seconds, write_evidence  # noqa: E402

KEYS = ["n_classes", "method", "feature_set", "length"]
PUNCTUATION_NETWORK = ("mlp", "all")
PAIRS = [
    (("mlp", "words1000"), PUNCTUATION_NETWORK),
    (("delta", "words100"), PUNCTUATION_NETWORK),
    (("delta", "words500"), PUNCTUATION_NETWORK),
    (("delta", "words1000"), PUNCTUATION_NETWORK),
    (PUNCTUATION_NETWORK, ("kl", "f3")),
    (("kl", "f3"), ("kl", "f1")),
    (("sequence_cnn", "sequence"), PUNCTUATION_NETWORK),
    (("sequence_cnn", "sequence"), ("kl", "f3")),
]
"""(a, b) as (method, feature set): the comparisons the pages quote, a - b paired by seed."""
TABLE3_SETS = ["f1", "f3", "f1+f3+f4+f5", "all", "f7"]
"""The feature network's feature sets the sequence network is compared with (Table 3's rows)."""


def curve_rows(results: Path) -> pd.DataFrame:
    """The curve's rows trained on whole books (the columns of :data:`KEYS`, seed, accuracy,
    baseline, n_short_test)."""
    rows = pd.read_csv(results / "analysis" / "length" / "author_results.csv", dtype={"length": str})
    rows = rows[rows["training"] == "whole"]
    return rows[["n_classes", "seed", "method", "feature_set", "length", "accuracy", "baseline", "n_short_test"]]


def sequence_rows(folder: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The sequence network's rows as curve rows (its whole-book row file and its length files),
    and its whole-book rows with their training seconds."""
    files = sorted(folder.glob("sequence/*_classes/seed*.csv"))
    whole = pd.concat([pd.read_csv(p) for p in files if not p.stem.endswith("_lengths")], ignore_index=True)
    lengths = pd.concat([pd.read_csv(p, dtype={"length": str}) for p in files if p.stem.endswith("_lengths")],
                        ignore_index=True)  # fmt: skip
    as_curve = pd.concat([whole.assign(length="whole", n_short_test=0), lengths], ignore_index=True)
    keep = ["n_classes", "seed", "method", "feature_set", "length", "accuracy", "baseline", "n_short_test"]
    return as_curve[keep], whole[["n_classes", "seed", "method", "accuracy", "train_seconds", "device"]]


def summarise(rows: pd.DataFrame, medians: pd.DataFrame) -> pd.DataFrame:
    """Mean and sd over seeds per :data:`KEYS`; ``share_of_whole`` = mean / (the same method's
    whole-book mean); ``times_chance`` = mean / chance."""
    grouped = rows.groupby(KEYS, sort=False)
    summary = grouped.agg(accuracy_mean=("accuracy", "mean"), accuracy_sd=("accuracy", "std"),
                          n_seeds=("seed", "nunique"), baseline=("baseline", "mean"),
                          n_short_test=("n_short_test", "mean")).reset_index()  # fmt: skip
    whole = summary[summary["length"] == "whole"].set_index(KEYS[:3])["accuracy_mean"]
    own_whole = whole.reindex(pd.MultiIndex.from_frame(summary[KEYS[:3]])).to_numpy()
    summary["share_of_whole"] = summary["accuracy_mean"].to_numpy() / own_whole
    summary["times_chance"] = summary["accuracy_mean"] / summary["baseline"]
    return summary.merge(medians, on=["n_classes", "length"], how="left")


def paired(rows: pd.DataFrame, pairs: list[tuple[tuple[str, str], tuple[str, str]]]) -> pd.DataFrame:
    """Per class size, length and pair (a, b): a - b paired by seed (mean, sd with ddof 1, least,
    most, seeds with a > b) and the ratio of the means, mean(a) / mean(b)."""
    wide = rows.pivot_table(index=["n_classes", "length", "seed"], columns=["method", "feature_set"],
                            values="accuracy")  # fmt: skip
    out = []
    for a, b in pairs:
        if a not in wide or b not in wide:
            continue
        both = pd.DataFrame({"a": wide[a], "b": wide[b]}).dropna()
        for (classes, length), part in both.groupby(level=["n_classes", "length"]):
            difference = (part["a"] - part["b"]).to_numpy()
            out.append({"n_classes": classes, "length": length, "a": "/".join(a), "b": "/".join(b),
                        "n_seeds": len(difference), "difference_mean": difference.mean(),
                        "difference_sd": difference.std(ddof=1), "difference_least": difference.min(),
                        "difference_most": difference.max(), "seeds_a_above": int((difference > 0).sum()),
                        "ratio_of_means": part["a"].mean() / part["b"].mean()})  # fmt: skip
    return pd.DataFrame(out)


def table3_rows(results: Path) -> pd.DataFrame:
    """The feature network's whole-book rows of Table 3 (the recognition grid), as curve rows."""
    grid = pd.read_csv(results / "analysis" / "recognition" / "author_results.csv")
    grid = grid[(grid["method"] == "mlp") & grid["feature_set"].isin(TABLE3_SETS) & grid["n_classes"].isin([10, 50])]
    return grid.assign(length="whole", n_short_test=0)[
        ["n_classes", "seed", "method", "feature_set", "length", "accuracy", "baseline", "n_short_test"]
    ]


def grid_difference(rows: pd.DataFrame, results: Path) -> float:
    """The largest |accuracy - the recognition grid's accuracy| of the curve's whole-book rows
    (same class size, seed, method and feature set; 0: the whole-book column is Tables 2-3's and
    the word baselines' rows)."""
    grid = pd.concat([pd.read_csv(results / "analysis" / "recognition" / name)
                      for name in ("author_results.csv", "author_words_results.csv")], ignore_index=True)  # fmt: skip
    whole = rows[(rows["length"] == "whole") & (rows["method"] != "sequence_cnn")]
    both = whole.merge(grid, on=["n_classes", "seed", "method", "feature_set"], suffixes=("", "_grid"))
    if len(both) != len(whole):
        raise ValueError(f"{len(whole) - len(both)} whole-book rows of the curve are not in the recognition grid")
    return float((both["accuracy"] - both["accuracy_grid"]).abs().max())


def sequence_run(whole: pd.DataFrame, commit: str | None, time_v: Path | None) -> dict:
    """What the sequence rows are: their commit, count, device, least and most training seconds
    per class size, and the CPU and wall seconds of the whole call (``time_v``)."""
    seconds = {str(k): [round(float(t.min()), 1), round(float(t.max()), 1)]
               for k, t in whole.groupby("n_classes")["train_seconds"]}  # fmt: skip
    run = {"commit": commit, "rows": len(whole), "device": sorted(whole["device"].unique()),
           "train_seconds_least_most": seconds}  # fmt: skip
    if time_v is not None:
        run["time_v"] = gnu_time_seconds(time_v)
    return run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--command", required=True)
    parser.add_argument("--commit", required=True, help="the commit the run was computed at")
    parser.add_argument("--sequence", type=Path)
    parser.add_argument("--sequence-time", type=Path)
    parser.add_argument("--sequence-commit")
    args = parser.parse_args()

    rows = curve_rows(args.results)
    curve_summary = pd.read_csv(args.results / "analysis" / "length" / "author_summary.csv", dtype={"length": str})
    medians = curve_summary.groupby(["n_classes", "length"])["median_words"].first().reset_index()
    tables: dict[str, pd.DataFrame] = {}
    run = {"command": args.command, "commit": args.commit, "stored_by_commit": commit(),
           "corpus": corpus_fingerprint(args.results),
           "source": "analysis/length/author_results.csv (trained on whole books) of the run"}  # fmt: skip
    if args.sequence is not None:
        as_curve, whole = sequence_rows(args.sequence)
        rows = pd.concat([rows, as_curve], ignore_index=True)
        tables["sequence_rows.csv"] = whole
        run["sequence"] = sequence_run(whole, args.sequence_commit, args.sequence_time)
    table3 = table3_rows(args.results)
    run["whole_books_against_the_grid"] = grid_difference(rows, args.results)
    table3_pairs = [(("sequence_cnn", "sequence"), ("mlp", name)) for name in TABLE3_SETS if name != "all"]
    grid_rows = pd.concat([rows[rows["method"] == "sequence_cnn"], table3], ignore_index=True)
    tables["results.csv"] = rows
    tables["summary.csv"] = summarise(rows, medians)
    tables["paired.csv"] = pd.concat([paired(rows, PAIRS), paired(grid_rows, table3_pairs)], ignore_index=True)
    write_evidence(args.out, tables, run)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
