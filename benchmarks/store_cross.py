"""Store the summaries and paired comparisons that docs/results.md quotes from a run's cross
analyses (issue 25; issue 35 item 1): the rule ``cross_analyses``'s tables
(``analysis/cross/*.csv``, stored as they are in ``docs/evidence/default_run/cross_*.csv``)
summed up over seeds and books, and every difference the section claims paired on the same runs.

    python benchmarks/store_cross.py RESULTS OUT

RESULTS: a run's outdir (its ``analysis/cross/`` and ``corpus/``), read only; OUT: the evidence
folder (``docs/evidence/cross_summaries``). A few seconds of CPU.
"""

from __future__ import annotations

import argparse
import sys
from itertools import permutations
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from evidence_run import commit, corpus_fingerprint, write_evidence  # noqa: E402

RUN_KEYS = ["grouping", "train_group", "test_group", "seed"]
WEIBULL_PAIRS = [("delta:f8", "delta:f5"), ("delta:f5+f8", "delta:f5"), ("delta:f5+f8", "delta:f8"),
                 ("kl:f5", "delta:f5"), ("kl:f5", "delta:f5+f8")]  # fmt: skip


def paired(a: pd.Series, b: pd.Series) -> dict[str, float]:
    """The paired difference ``d = a - b`` over the runs both have (aligned on their index):
    mean, sd (ddof 1), runs with ``d > 0`` and ``d < 0``, runs."""
    d = (a - b).dropna()
    return {"diff_mean": float(d.mean()), "diff_sd": float(d.std(ddof=1)), "runs_higher": int((d > 0).sum()),
            "runs_lower": int((d < 0).sum()), "n_runs": int(d.size)}


def run_table(records: pd.DataFrame) -> pd.DataFrame:
    """Across-groups records as one row per run (directed pair and seed) and method, with the
    within and across accuracies and the drop ``within - cross``."""
    wide = records.pivot_table(index=RUN_KEYS + ["method"], columns="condition", values="accuracy").reset_index()
    wide["drop"] = wide["within"] - wide["cross"]
    return wide


def method_differences(records: pd.DataFrame) -> pd.DataFrame:
    """For every ordered pair of methods and each measure (within, cross, drop): the paired
    difference over the runs (same directed pair, seed and test books)."""
    wide = run_table(records).set_index(RUN_KEYS)
    rows = []
    for method, against in permutations(sorted(wide["method"].unique()), 2):
        a, b = wide[wide["method"] == method], wide[wide["method"] == against]
        for measure in ("within", "cross", "drop"):
            rows.append({"method": method, "against": against, "measure": measure,
                         **paired(a[measure], b[measure])})  # fmt: skip
    return pd.DataFrame(rows)


def chosen_k(records: pd.DataFrame) -> pd.DataFrame:
    """How often each k was recorded per input (``chosen_k > 0``: chosen on the training books
    for the masked unigrams and the distortions, fixed for ``words100`` and ``words1000``), over
    the records (within and across runs)."""
    chosen = records[records["chosen_k"] > 0]
    return chosen.groupby(["input", "chosen_k"]).size().rename("runs").reset_index()


def seed_summary(frame: pd.DataFrame, by: list[str], extra: list[str]) -> pd.DataFrame:
    """Per group of ``by``: mean and sd (ddof 1) over seeds of ``accuracy``, the seeds, and the
    first value of each ``extra`` column."""
    grouped = frame.groupby(by, sort=True)
    table = grouped["accuracy"].agg(accuracy_mean="mean", accuracy_sd="std", seeds="size")
    return table.join(grouped[extra].first()).reset_index()


def seed_differences(frame: pd.DataFrame, column: str, pairs: list[tuple[str, str]], **keys: str) -> list[dict]:
    """For each ``(a, b)`` of ``pairs`` (values of ``column``): the paired difference of the
    accuracy over seeds, ``accuracy(a) - accuracy(b)`` of the same seed; ``keys`` label the rows."""
    by_seed = frame.pivot_table(index="seed", columns=column, values="accuracy")
    return [{**keys, "method": a, "against": b, **paired(by_seed[a], by_seed[b])} for a, b in pairs]


def translator_differences(recognition: pd.DataFrame) -> pd.DataFrame:
    """Translators' recognition, paired by seed: Delta against KL under each label, and the
    translator label against the original author under each method."""
    rows = []
    for label, frame in recognition.groupby("label"):
        rows += seed_differences(frame, "method", [("delta", "kl")], label=str(label))
    for method, frame in recognition.groupby("method"):
        rows += seed_differences(frame, "label", [("translator", "original author")], label=f"{method}: labels")
    return pd.DataFrame(rows)


def weibull_books(fits: pd.DataFrame) -> pd.DataFrame:
    """Per fitted quantity over the books: mean, sd (ddof 1), median, books, and books below 1
    and above 0.05; ``zero_share`` is a book's zero gaps over all its gaps,
    ``zero_gaps / (zero_gaps + n_gaps)``."""
    frame = fits.assign(zero_share=fits["zero_gaps"] / (fits["zero_gaps"] + fits["n_gaps"]))
    rows = []
    for column in ("zero_share", "p", "beta", "ks", "sentence_p", "sentence_beta", "sentence_ks"):
        values = frame[column].dropna().to_numpy(dtype=float)
        rows.append({"quantity": column, "mean": values.mean(), "sd": values.std(ddof=1), "median": np.median(values),
                     "least": values.min(), "books": values.size, "books_below_1": int((values < 1).sum()),
                     "books_above_0.05": int((values > 0.05).sum())})  # fmt: skip
    return pd.DataFrame(rows)


def decreasing_hazard(fits: pd.DataFrame) -> pd.DataFrame:
    """Per author with a book of decreasing word-gap hazard (β < 1): those books, and the
    author's books, most first."""
    below = fits[fits["beta"] < 1].groupby("author").size().rename("books_beta_below_1")
    table = pd.concat([below, fits.groupby("author").size().rename("books")], axis=1, join="inner")
    return table.sort_values("books_beta_below_1", ascending=False, kind="stable").reset_index()


def tables(cross: Path) -> dict[str, pd.DataFrame]:
    """The stored tables, from a run's ``analysis/cross/`` folder."""
    records = pd.read_csv(cross / "cross_domain_records.csv")
    recognition = pd.read_csv(cross / "translator_recognition.csv")
    weibull = pd.read_csv(cross / "gap_weibull_recognition.csv")
    fits = pd.read_csv(cross / "gap_weibull.csv")
    return {
        "methods_paired.csv": method_differences(records),
        "chosen_k.csv": chosen_k(records),
        "translator_recognition_summary.csv": seed_summary(recognition, ["label", "method"],
                                                           ["baseline", "n_classes", "n_books"]),
        "translator_paired.csv": translator_differences(recognition),
        "translator_handling_summary.csv": seed_summary(pd.read_csv(cross / "translator_handling.csv"),
                                                        ["translated_books"], ["n_books", "n_authors"]),
        "weibull_books.csv": weibull_books(fits),
        "weibull_decreasing_hazard.csv": decreasing_hazard(fits),
        "weibull_recognition_summary.csv": seed_summary(weibull, ["input"], ["baseline", "n_books", "n_authors"]),
        "weibull_recognition_paired.csv": pd.DataFrame(seed_differences(weibull, "input", WEIBULL_PAIRS)),
    }  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path)
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    sha = commit()
    stored = tables(args.results / "analysis" / "cross")
    run = {"command": "python benchmarks/store_cross.py RESULTS docs/evidence/cross_summaries", "commit": sha,
           "corpus": corpus_fingerprint(args.results),
           "source": "RESULTS/analysis/cross/*.csv of the default run (stored as docs/evidence/default_run/cross_*.csv)",
           "results": "the default run (docs/evidence/default_run/run.json)"}  # fmt: skip
    write_evidence(args.out, stored, run)
    print(f"{args.out}: {', '.join(stored)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
