"""Rolling attribution on synthetic collaborations of held-out books, and its speed.

    nice -n 10 python benchmarks/bench_rolling.py RUN_DIR OUT_DIR [--seeds 0 1 2] [--per-kind 10]
        [--window 800] [--step 200] [--words 500] [--timing-words 100000]

RUN_DIR is a finished run (read only): ``corpus/f*.parquet``, ``corpus/words.npz``,
``sequences/{id}.parquet``, ``books/{id}.txt.gz`` and ``extraction/tokenizer_rules-*.json``.
Per seed, the ``rolling`` row over every author is split once
(:func:`punctstyle.attribution.collaborations.collaboration_split`); the training books are the
reference set, ``--per-kind`` collaborations of each kind (A-B, A-B-A, A-B-C; parts of 2,000 to
20,000 marks) are cut from the held-out books, and each is rolled with every method:

* ``kl_f3``: KL divergence of each slice's f3 to the authors' f3 signatures (punctuation);
* ``delta_punct``: Burrows' Delta (author centroids of z-scores) on the paper's f1..f6 (punctuation);
* ``delta_words``: Burrows' Delta on the ``--words`` most frequent words of the training books;
* ``delta_both``: Burrows' Delta on f1..f6 and those words together.

Writes ``OUT_DIR/rolling_results.csv`` (one line per collaboration and method),
``OUT_DIR/rolling_summary.csv`` (mean ± sd over seeds of the per-seed means, per kind and
method) and ``OUT_DIR/rolling_timing.json``: the seconds of ``roll_text`` (the CLI's path after
extraction: slices, f1..f6 of each slice, scores, change points) and of the extraction of a text of
``--timing-words`` words, with the ratio to one whole-text feature computation measured in the
same run (the ``attribute`` command's work after extraction). Also an example figure.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import pandas as pd

from punctstyle.attribution.rolling import DISTANCE, SliceScores, kl_slice_scores, roll_text
from punctstyle.book.sequence_file import read_sequence
from punctstyle.classifiers.delta import BurrowsDelta
from punctstyle.classifiers.kl_nearest import class_signatures
from punctstyle.corpus.tables import feature_matrix
from punctstyle.corpus.words import BookWordStreams, read_word_matrix
from punctstyle.attribution.collaborations import (ROLLING_METHODS as METHODS, RollingSettings, collaboration_split,
                                                   rolling_collaborations, rolling_summary)
from punctstyle.features import compute_features
from punctstyle.marks import PAPER_FEATURES
from punctstyle.text.tokenizer import TokenizerRules



def punctuation_block(features: dict[str, np.ndarray]) -> np.ndarray:
    return np.hstack([np.atleast_2d(features[f]) for f in PAPER_FEATURES])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--per-kind", type=int, default=10)
    parser.add_argument("--window", type=int, default=800)
    parser.add_argument("--step", type=int, default=200)
    parser.add_argument("--words", type=int, default=500)
    parser.add_argument("--test-fraction", type=float, default=0.2)
    parser.add_argument("--timing-words", type=int, default=100_000)
    parser.add_argument("--methods", nargs="+", default=list(METHODS), choices=METHODS)
    parser.add_argument("--no-merge", action="store_true",
                        help="keep neighbouring segments with the same author apart (merge_same_author=False)")
    parser.add_argument("--no-timing", action="store_true")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)

    tables = {f: pd.read_parquet(args.run / "corpus" / f"{f}.parquet") for f in PAPER_FEATURES}
    table = tables["f1"]
    labels = table["author"].to_numpy(dtype=object)
    book_ids = table["book_id"].to_numpy(dtype=np.int64)
    punct = np.hstack([feature_matrix(tables[f], f) for f in PAPER_FEATURES])
    f3 = feature_matrix(tables["f3"], "f3")
    matrix = read_word_matrix(args.run / "corpus" / "words.npz")
    rules = TokenizerRules.load(next((args.run / "extraction").glob("tokenizer_rules-*.json")))
    streams = BookWordStreams(rules)
    sequence_cache: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    word_cache: dict[int, np.ndarray] = {}

    def sequence(i: int) -> tuple[np.ndarray, np.ndarray]:
        if i not in sequence_cache:
            s, _ = read_sequence(args.run / "sequences" / f"{book_ids[i]}.parquet")
            sequence_cache[i] = (np.asarray(s.marks), np.asarray(s.gaps))
        return sequence_cache[i]

    def words(i: int) -> np.ndarray:
        if i not in word_cache:
            m, g = sequence(i)
            word_cache[i] = streams.read(args.run / "books" / f"{book_ids[i]}.txt.gz", m, g)
        return word_cache[i]

    settings = RollingSettings(args.window, args.step, args.words, args.per_kind, (2000, 20000),
                               args.test_fraction, tuple(args.seeds), tuple(args.methods))
    tokenize = [0.0]

    def timed_words(i: int) -> np.ndarray:
        start = time.process_time()
        stream = words(i)
        tokenize[0] += time.process_time() - start
        return stream

    results = rolling_collaborations(tables, sequence, settings, matrix, timed_words, merge_same_author=not args.no_merge)
    tokenize_seconds = tokenize[0]
    for (seed, number), group in results.groupby(["seed", "number"], sort=False):
        print(f"seed {seed} #{number} {group['kind'].iloc[0]} {group['n_marks'].iloc[0]} marks:",
              {r.method: (round(r.slice_accuracy, 2), r.errors) for r in group.itertuples()})
    results.to_csv(args.out / "rolling_results.csv", index=False)
    summary = rolling_summary(results).round(3)
    summary.to_csv(args.out / "rolling_summary.csv", index=False)
    print(summary.to_string())
    print(f"word streams: {tokenize_seconds:.1f} CPU s re-tokenizing books")
    if args.no_timing:
        return

    # timing: a text of --timing-words words (the longest held-out book, cut), one core
    longest = int(np.argmax(table["n_marks"].to_numpy()))
    m, g = sequence(longest)
    keep = int(np.searchsorted(np.cumsum(g), args.timing_words, side="right"))
    m, g = m[:keep], g[:keep]
    t0 = time.perf_counter()
    compute_features(m, g)
    baseline = time.perf_counter() - t0
    train, _ = collaboration_split(table, labels, args.seeds[0], args.test_fraction, book_ids)
    authors, signatures, _ = class_signatures(f3[train], labels[train])
    delta = BurrowsDelta(seed=0, feature_set=()).fit(punct[train], labels[train])
    timings = {}
    for method, scorer in {
        "kl_f3": lambda F, s: kl_slice_scores(signatures, authors, F["f3"], "f3"),
        "delta_punct": lambda F, s: SliceScores("delta_punct", DISTANCE, delta.classes, delta.distances(punctuation_block(F))),
    }.items():
        t0 = time.perf_counter()
        result = roll_text(m, g, args.window, args.step, scorer, PAPER_FEATURES)
        timings[method] = time.perf_counter() - t0
    record = {
        "book_id": int(book_ids[longest]), "n_words": int(g.sum()), "n_marks": int(keep),
        "n_slices": int(len(result.starts)), "n_authors": int(len(authors)),
        "whole_text_features_s": baseline, "rolling_s": timings,
        "ratio_to_whole_text_features": {k: v / baseline for k, v in timings.items()},
    }
    (args.out / "rolling_timing.json").write_text(json.dumps(record, indent=2))
    print(json.dumps(record, indent=2))


if __name__ == "__main__":
    main()
