"""Verification on a built corpus (the shared mirror's tables): PAN measures per family and
length over seeds, and the time of one `verify` against the bundle-sized reference.

    nice -n 10 .venv/bin/python benchmarks/bench_verification.py RESULTS \
        --out OUT --seeds 0 1 2 --lengths 800 --max-texts 80

Reads RESULTS/corpus/f*.parquet, RESULTS/corpus/words.npz, RESULTS/sequences/{id}.parquet and
(word families at excerpt lengths) RESULTS/books/{id}.txt.gz, RESULTS/words/{id}.parquet and
RESULTS/extraction/tokenizer_rules-*.json. Writes OUT/results.csv (one row per family,
length and seed), OUT/summary.csv (mean and sd over seeds) and OUT/timing.json. Prints the
summary and the verify time with its ratio to the target (5 s).

With ``--evidence DIR`` (issue 35 item 1) it also stores, small and tracked
(``docs/evidence/<name>/``): ``results.csv``, ``summary.csv`` (with the bands' p1 and p2,
mean and sd over seeds), ``paired.csv`` (each family against a baseline family, paired by
seed: :func:`paired_table`) and ``run.json`` (command, commit, settings, corpus fingerprint,
timing, and where RESULTS holds the workflow's ``analysis/verification/results.csv``, the
largest difference to its rows of the same family, length and seed).
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from punctstyle.attribution.verification_run import (
    VerificationSettings,
    load_verification,
    reference_frame,
    summary_table,
    verification_run,
    write_verification_files,
)
from punctstyle.corpus.sequences import document_sequences
from punctstyle.corpus.words import CorpusWordFiles, read_word_matrix
from punctstyle.features import compute_features
from punctstyle.featuresets import matrices_from_tables
from punctstyle.marks import FEATURES
from punctstyle.text.tokenizer import TokenizerRules

sys.path.insert(0, str(Path(__file__).resolve().parent))
from evidence_run import commit, corpus_fingerprint, write_evidence  # noqa: E402

TARGET_VERIFY_S = 5.0
MEASURES = ("auc", "c_at_1", "f_05_u", "overall")
PAIRS = (("f3+words", "words"), ("all+words", "words"), ("f3", "words"), ("all", "f3"), ("f7", "f3"))
"""(family, baseline) pairs of ``paired.csv``: punctuation beside the words against the words
alone, punctuation alone against the words, the other punctuation families against f3."""


def paired_table(results: pd.DataFrame, pairs=PAIRS, measures=MEASURES) -> pd.DataFrame:
    """Per (family, baseline) pair and length: ``d = family - baseline`` of each measure on the
    same seed's cases; its mean, sd over seeds (ddof 1) and the seeds with ``d > 0`` / ``d < 0``."""
    rows = []
    for family, baseline in pairs:
        a = results[results["family"] == family].set_index(["length", "seed"])
        b = results[results["family"] == baseline].set_index(["length", "seed"])
        if a.empty or b.empty:
            continue
        d = a[list(measures)].sub(b[list(measures)]).dropna()
        for length, part in d.groupby(level="length", sort=False):
            row = {"family": family, "baseline": baseline, "length": length, "n_seeds": len(part)}
            for m in measures:
                row |= {f"d_{m}_mean": part[m].mean(), f"d_{m}_sd": part[m].std(),
                        f"d_{m}_higher": int((part[m] > 0).sum()), f"d_{m}_lower": int((part[m] < 0).sum())}
            rows.append(row)
    return pd.DataFrame(rows)


def band_summary(results: pd.DataFrame) -> pd.DataFrame:
    """Mean and sd over seeds of the bands (p1, p2) fitted on each seed's cases."""
    table = results.groupby(["family", "length"], sort=False)[["p1", "p2"]].agg(["mean", "std"])
    table.columns = [f"{m}_{s}" for m, s in table.columns]
    return table.reset_index()


def workflow_difference(results: pd.DataFrame, folder: str) -> dict | None:
    """Rows compared and the largest absolute difference of the measures to the workflow's
    ``analysis/verification/results.csv`` of the same run folder (same family, length, seed)."""
    path = os.path.join(folder, "analysis", "verification", "results.csv")
    if not os.path.isfile(path):
        return None
    keys = ["family", "length", "seed"]
    stored = pd.read_csv(path, dtype={"length": str})
    mine = results.astype({"length": str})
    merged = mine.merge(stored, on=keys, suffixes=("", "_workflow"))
    columns = [c for c in results.columns if c not in keys and f"{c}_workflow" in merged]
    diff = np.abs(merged[columns].to_numpy(float) - merged[[f"{c}_workflow" for c in columns]].to_numpy(float))
    return {"rows_compared": int(len(merged)), "max_abs_difference": float(np.nanmax(diff)) if len(merged) else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results")
    parser.add_argument("--out", required=True)
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--lengths", type=int, nargs="*", default=[800])
    parser.add_argument("--families", nargs="+", default=["f3", "f7", "all", "words", "all+words"])
    parser.add_argument("--max-texts", type=int, default=None)
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--top-words", type=int, default=300)
    parser.add_argument("--bundle-family", default=None, help="the family of the timed verify (default: the last)")
    parser.add_argument("--evidence", default=None, help="also store the small tables and run.json here")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    checkout = commit()

    tables = {f: pd.read_parquet(os.path.join(args.results, "corpus", f"{f}.parquet")) for f in FEATURES}
    matrix = read_word_matrix(os.path.join(args.results, "corpus", "words.npz"))
    _, labels, book_ids = matrices_from_tables(tables, "author")
    sequences = document_sequences(sorted(glob.glob(os.path.join(args.results, "sequences", "*.parquet"))),
                                   tables["f1"], book_ids)
    words = None
    if args.lengths:
        rules = TokenizerRules.load(glob.glob(os.path.join(args.results, "extraction", "tokenizer_rules-*.json"))[0],
                                    check_version=False)
        words = CorpusWordFiles(book_ids, glob.glob(os.path.join(args.results, "books", "*.txt.gz")),
                                glob.glob(os.path.join(args.results, "words", "*.parquet")), rules)

    def stream(i: int) -> np.ndarray:
        marks, gaps = sequences[i]
        return words.stream(i, marks, gaps)

    block = {
        "families": args.families, "bundle_family": args.bundle_family or args.families[-1], "top_words": args.top_words,
        "lengths": args.lengths, "seeds": args.seeds, "test_fraction": 0.2, "n_different": 1,
        "max_texts": args.max_texts, "iterations": args.iterations, "feature_share": 0.5, "imposter_share": 0.5,
        "band_step": 0.01, "min_marks": 50,
    }
    settings = VerificationSettings.from_config(block)
    start = time.process_time()
    results, bands = verification_run(tables, matrix, settings, sequences.__getitem__, stream if words else None,
                                      log=lambda m: print(m, flush=True))
    run_cpu = time.process_time() - start
    results.to_csv(os.path.join(args.out, "results.csv"), index=False)
    summary = summary_table(results)
    summary.to_csv(os.path.join(args.out, "summary.csv"), index=False)
    print(summary.to_string(index=False, float_format=lambda v: f"{v:.3f}"))

    # one verify against the bundle-sized reference (every corpus book), on one core
    reference, chosen = reference_frame(tables, matrix, settings)
    bundle_dir = os.path.join(args.out, "bundle")
    os.makedirs(bundle_dir, exist_ok=True)
    write_verification_files({"record": os.path.join(bundle_dir, "verification.json"),
                              "reference": os.path.join(bundle_dir, "verification_reference.parquet")},
                             reference, chosen, bands, results, settings,
                             float(tables["f1"]["n_marks"].median()))
    start = time.perf_counter()
    bundle = load_verification(bundle_dir)
    marks, gaps = sequences[0]
    text_words = words.stream(0, marks, gaps) if words else np.zeros(0, dtype=object)
    from punctstyle.attribution.verification_run import stream_frequencies

    frequencies = stream_frequencies(text_words, bundle.words)
    score = bundle.score(settings.bundle_family, compute_features(marks, gaps), frequencies, str(labels[0]),
                         np.random.default_rng(0))
    verify_s = time.perf_counter() - start
    timing = {
        "run_cpu_s": run_cpu, "verify_s": verify_s, "verify_target_s": TARGET_VERIFY_S,
        "verify_ratio_to_target": verify_s / TARGET_VERIFY_S, "score_of_book_0_for_its_author": score,
        "n_books": int(labels.size), "n_authors": int(np.unique(labels).size), "family": settings.bundle_family,
        "note": "verify_s: loading the verification files and scoring one text (features given), one process",
    }
    with open(os.path.join(args.out, "timing.json"), "w", encoding="utf-8") as handle:
        json.dump(timing, handle, indent=2)
    print(json.dumps(timing, indent=2))
    if args.evidence:
        store_evidence(args, results, summary, timing, block, checkout)


def store_evidence(args, results: pd.DataFrame, summary: pd.DataFrame, timing: dict, block: dict,
                   checkout: str) -> None:
    """``--evidence``: the tables and ``run.json`` of this run (no path of this machine)."""
    summary = summary.merge(band_summary(results), on=["family", "length"])
    run = {
        "what": "General Imposters verification per family and length over seeds (docs/results.md Verification)",
        "command": "python benchmarks/bench_verification.py RESULTS --out OUT --evidence EVIDENCE " + " ".join(
            f"--{k.replace('_', '-')} {' '.join(map(str, v)) if isinstance(v, list) else v}"
            for k, v in (("seeds", args.seeds), ("lengths", args.lengths), ("families", args.families),
                         ("bundle_family", block["bundle_family"])) if v),
        "commit": checkout, "settings": block, "corpus": corpus_fingerprint(Path(args.results)),
        "timing": {k: timing[k] for k in ("run_cpu_s", "verify_s", "verify_target_s", "family")},
        "clock": "run_cpu_s: process CPU time of verification_run; verify_s: wall time of loading the "
                 "verification files and scoring one text (features given)",
        "workflow_results": workflow_difference(results, args.results),
    }
    write_evidence(Path(args.evidence), {"results.csv": results, "summary.csv": summary,
                                         "paired.csv": paired_table(results)}, run)


if __name__ == "__main__":
    main()
