"""Verification on a built corpus (the shared mirror's tables): PAN measures per family and
length over seeds, and the time of one `verify` against the bundle-sized reference.

    nice -n 10 .venv/bin/python benchmarks/bench_verification.py RESULTS \
        --out OUT --seeds 0 1 2 --lengths 800 --max-texts 80

Reads RESULTS/corpus/f*.parquet, RESULTS/corpus/words.npz, RESULTS/sequences/{id}.parquet and
(word families at excerpt lengths) RESULTS/books/{id}.txt.gz, RESULTS/words/{id}.parquet and
RESULTS/extraction/tokenizer_rules-*.json. Writes OUT/results.csv (one row per family,
length and seed), OUT/summary.csv (mean and sd over seeds) and OUT/timing.json. Prints the
summary and the verify time with its ratio to the target (5 s).
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import time

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

TARGET_VERIFY_S = 5.0


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
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)

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
        "families": args.families, "bundle_family": args.families[-1], "top_words": args.top_words,
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


if __name__ == "__main__":
    main()
