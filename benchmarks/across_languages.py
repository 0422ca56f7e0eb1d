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

import numpy as np
import pandas as pd

from punctstyle.analyses.across_languages import (
    accuracy_summary,
    grouped_accuracy,
    language_kl,
    single_slot_authors,
    weibull_by_language,
)
from punctstyle.beyond.gap_weibull import fit_discrete_weibull, word_gaps
from punctstyle.book.steps import clean_and_extract
from punctstyle.features import compute_features
from punctstyle.marks import MARK_NAMES
from punctstyle.sources.tei import TeiRefusal, TeiSettings, corpus_language, read_tei_file, tei_metadata
from punctstyle.text.chunk_cache import ChunkCachedExtractor
from punctstyle.text.tokenizer_facts import export_extraction_rules

sys.path.insert(0, str(Path(__file__).resolve().parent))  # benchmarks/evidence_run.py
from evidence_run import commit, write_evidence  # noqa: E402


REPO = Path(__file__).resolve().parents[1]
SEEDS = [0, 1, 2, 3, 4]
TEST_FRACTION = 0.2


def read_collection(folder: Path) -> tuple[pd.DataFrame, dict[str, dict[str, np.ndarray]]]:
    """One row a novel read and its f1..f6 (file name -> features)."""
    settings = TeiSettings.from_config({"tei": {"path": str(folder)}})
    language = corpus_language(settings)
    frame, _ = tei_metadata(settings)
    extractor = ChunkCachedExtractor(rules=export_extraction_rules(language=language))
    rows, features = [], {}
    for row in frame.itertuples(index=False):
        path = folder / row.file if not Path(row.file).is_absolute() else Path(row.file)
        try:
            text = read_tei_file(path).text
        except TeiRefusal as exc:
            print(f"{path}: {exc}; left out")
            continue
        sequence, _ = clean_and_extract(text, extractor)
        gaps = word_gaps(sequence.gaps)
        fit = fit_discrete_weibull(gaps)
        name = Path(row.file).name
        features[name] = compute_features(sequence.marks, sequence.gaps)
        rows.append({"collection": folder.name, "file": name, "language": language, "author": row.author,
                     "year": row.year, "time_slot": row.time_slot, "gender": row.gender, "marks": len(sequence),
                     "words": sequence.n_words, "mean_gap": float(gaps.mean()) if gaps.size else np.nan,
                     "p": fit.p, "beta": fit.beta, "ks": fit.ks})
    return pd.DataFrame(rows), features


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("collections", nargs="+", type=Path)
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "evidence" / "languages")
    args = parser.parse_args(argv)
    code = commit()

    tables, features = [], {}
    for folder in args.collections:
        table, found = read_collection(folder)
        tables.append(table)
        features.update({(folder.name, name): value for name, value in found.items()})
    novels = pd.concat(tables, ignore_index=True)
    keys = list(zip(novels["collection"], novels["file"], strict=True))

    outputs = {"novels.csv": novels, "weibull.csv": weibull_by_language(novels)}
    accuracy, slots, kl = [], [], []
    for feature in ("f1", "f3"):
        X = np.stack([features[k][feature].ravel() for k in keys])
        accuracy.append(grouped_accuracy(X, novels["language"], novels["language"] + "/" + novels["author"],
                                         SEEDS, TEST_FRACTION).assign(feature=feature))
        kl.append(language_kl(X, novels["language"]).assign(feature=feature))
        one_slot = single_slot_authors(novels).to_numpy()
        for language in sorted(novels["language"].unique()):
            mask = one_slot & (novels["language"] == language).to_numpy()
            part = novels[mask]
            slots.append(grouped_accuracy(X[mask], part["time_slot"], part["author"], SEEDS, TEST_FRACTION)
                         .assign(feature=feature, language=language, classes=part["time_slot"].nunique(),
                                 novels=int(mask.sum())))
    outputs["language_accuracy.csv"] = pd.concat(accuracy, ignore_index=True)
    outputs["time_slot_accuracy.csv"] = pd.concat(slots, ignore_index=True)
    outputs["language_accuracy_summary.csv"] = accuracy_summary(outputs["language_accuracy.csv"], ["feature"])
    outputs["time_slot_accuracy_summary.csv"] = accuracy_summary(
        outputs["time_slot_accuracy.csv"], ["feature", "language", "classes", "novels"])
    outputs["language_kl.csv"] = pd.concat(kl, ignore_index=True)
    f1 = pd.DataFrame(np.stack([features[k]["f1"].ravel() for k in keys]), columns=list(MARK_NAMES))
    f1_by_slot = f1.assign(language=novels["language"], time_slot=novels["time_slot"]).groupby(
        ["language", "time_slot"]).agg(["mean"]).droplevel(1, axis=1).reset_index()
    f1_by_slot.insert(2, "novels", novels.groupby(["language", "time_slot"]).size().to_numpy())
    outputs["f1_by_slot.csv"] = f1_by_slot

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
