"""Across languages (issue 34 item 4): one pass over several TEI collections (ELTeC-eng, -fra,
-pol, ... laid out as their repositories), each novel read as the TEI source reads it (body,
notes out, the collection's language from its headers, that language's extraction rules, the
dialogue dash off as in the paper) and measured:

(a) the discrete Weibull fit of its word gaps, per language, set against Stanisz et al. (2023);
(b) the language of a novel from its punctuation, and its time slot within each language (KL
    nearest class on f1 and f3, 5 seeds, 20% of the authors' novels held out, splits grouped by
    author);
(c) KL between novels within and across languages (f1, f3);
(d) f1 per time slot and language.

Writes under ``--out`` (default ``docs/evidence/languages``): ``novels.csv`` (one row a novel:
collection, file, language, author, year, time slot, marks, words, Weibull fit), ``weibull.csv``,
``language_accuracy.csv``, ``time_slot_accuracy.csv`` (one row a seed) and their
``*_summary.csv`` (mean and sd over the seeds), ``language_kl.csv``, ``f1_by_slot.csv``
and ``run.json`` (command, commit, collections and file names). Prints each table.

Usage: ``python benchmarks/across_languages.py ../shared/eltec/ELTeC-eng ../shared/eltec/ELTeC-fra
../shared/eltec/ELTeC-pol``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

from punctstyle.jobs.across_languages import AcrossLanguagesSettings, Collection, read_collections

sys.path.insert(0, str(Path(__file__).resolve().parent))  # benchmarks/evidence_run.py
from evidence_run import commit, write_evidence  # noqa: E402


REPO = Path(__file__).resolve().parents[1]
SEEDS = [0, 1, 2, 3, 4]
TEST_FRACTION = 0.2


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("collections", nargs="+", type=Path)
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "evidence" / "languages")
    args = parser.parse_args(argv)
    code = commit()

    # the workflow's rule across_languages reads and measures the collections alike
    settings = AcrossLanguagesSettings(tuple(Collection(str(f)) for f in args.collections), "none", tuple(SEEDS),
                                       TEST_FRACTION)
    tables = read_collections(settings, print)
    outputs = {f"{name}.csv": frame for name, frame in tables.items()}
    keys = list(zip(tables["novels"]["collection"], tables["novels"]["file"], strict=True))

    run = {"command": "python benchmarks/across_languages.py " + " ".join(f"<{f.name}>" for f in args.collections),
           "commit": code, "collections": [f.name for f in args.collections], "seeds": SEEDS,
           "test_fraction": TEST_FRACTION, "files": sorted(f"{c}/{n}" for c, n in keys)}
    write_evidence(args.out, outputs, run)
    with pd.option_context("display.width", 200, "display.max_rows", 200, "display.max_columns", 30):
        for name, frame in outputs.items():
            if name == "novels.csv":
                continue
            if not name.endswith("accuracy.csv"):
                print(f"== {name}")  # the per-seed rows: their summaries are printed
                print(frame.to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
