"""Rolling attribution on synthetic collaborations of held-out books, and its speed.

    nice -n 10 python benchmarks/bench_rolling.py RUN_DIR OUT_DIR [--seeds 0 1 2] [--per-kind 10]
        [--window 800] [--step 200] [--words 500] [--timing-words 100000]

RUN_DIR is a finished run (read only): ``corpus/f*.parquet``, ``corpus/words.npz``,
``sequences/{id}.parquet``, ``books/{id}.txt.gz`` and ``extraction/tokenizer_rules-*.json``.
Per seed, the ``rolling`` row over every author is split once
(:func:`punctstyle.experiments.collaborations.collaboration_split`); the training books are the
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

from punctstyle.attribution.rolling import DISTANCE, SliceScores, kl_slice_scores, roll_text, slice_word_frequencies, slice_word_spans
from punctstyle.book.sequence_file import read_sequence
from punctstyle.classifiers.delta import BurrowsDelta
from punctstyle.classifiers.kl_nearest import class_signatures
from punctstyle.corpus.tables import feature_matrix
from punctstyle.corpus.words import BookWordStreams, read_word_matrix, select_vocabulary
from punctstyle.experiments.collaborations import KINDS, assemble, collaboration_split, draw_collaborations, evaluate_rolling
from punctstyle.features import compute_features
from punctstyle.marks import PAPER_FEATURES
from punctstyle.text.tokenizer import TokenizerRules

METHODS = ("kl_f3", "delta_punct", "delta_words", "delta_both")


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
    word_freqs = matrix.relative_frequencies(book_ids)
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

    class Sequences:
        def __getitem__(self, i: int) -> tuple[np.ndarray, np.ndarray]:
            return sequence(i)

    rows = []
    tokenize_seconds = 0.0
    for seed in args.seeds:
        train, test = collaboration_split(table, labels, seed, args.test_fraction, book_ids)
        y = labels[train]
        authors, signatures, _ = class_signatures(f3[train], y)
        vocabulary = select_vocabulary(word_freqs[train], args.words, matrix.cutoff[matrix.rows_of(book_ids[train])])
        columns = vocabulary.columns
        column_of = {w: j for j, w in enumerate(matrix.vocabulary[columns].tolist())}
        train_words = word_freqs[train][:, columns].toarray()
        deltas = {
            "delta_punct": BurrowsDelta(seed=seed, feature_set=()).fit(punct[train], y),
            "delta_words": BurrowsDelta(seed=seed, feature_set=()).fit(train_words, y),
            "delta_both": BurrowsDelta(seed=seed, feature_set=()).fit(np.hstack([punct[train], train_words]), y),
        }
        rng = np.random.default_rng([seed, 2016])
        collaborations = draw_collaborations(
            labels, table["n_marks"].to_numpy(), test, list(KINDS), args.per_kind, (2000, 20000), rng,
            known_authors=np.unique(y),
        )
        for number, collab in enumerate(collaborations):
            start = time.process_time()
            marks, gaps, stream = assemble(collab, Sequences(), words)
            tokenize_seconds += time.process_time() - start
            index = np.array([column_of.get(w, -1) for w in stream], dtype=np.int64)

            def word_block(starts: np.ndarray) -> np.ndarray:
                first, stop = slice_word_spans(gaps, starts, args.window)
                return slice_word_frequencies(index, first, stop, len(columns))

            scorers = {
                "kl_f3": lambda F, s: kl_slice_scores(signatures, authors, F["f3"], "f3"),
                "delta_punct": lambda F, s: SliceScores(
                    "delta_punct", DISTANCE, deltas["delta_punct"].classes, deltas["delta_punct"].distances(punctuation_block(F))),
                "delta_words": lambda F, s: SliceScores(
                    "delta_words", DISTANCE, deltas["delta_words"].classes, deltas["delta_words"].distances(word_block(s))),
                "delta_both": lambda F, s: SliceScores(
                    "delta_both", DISTANCE, deltas["delta_both"].classes,
                    deltas["delta_both"].distances(np.hstack([punctuation_block(F), word_block(s)]))),
            }
            for method in args.methods:
                t0 = time.perf_counter()
                result = roll_text(marks, gaps, args.window, args.step, scorers[method], PAPER_FEATURES,
                                   merge_same_author=not args.no_merge)
                record = evaluate_rolling(result, collab)
                record.update(seed=seed, number=number, method=method, seconds=time.perf_counter() - t0,
                              authors="|".join(collab.authors))
                rows.append(record)
                if seed == args.seeds[0] and number == 0 and method in ("kl_f3", "delta_words"):
                    from punctstyle.report.plots.rolling import rolling_figure, save_figure_as

                    save_figure_as(rolling_figure(result, f"{collab.kind}: {' / '.join(collab.authors)} ({method})",
                                                  collab.boundaries.tolist()), str(args.out / f"example_{method}.png"))
            print(f"seed {seed} #{number} {collab.kind} {collab.n_marks} marks:",
                  {r["method"]: (round(r["slice_accuracy"], 2), r["errors"]) for r in rows[-len(args.methods):]}, flush=True)
    results = pd.DataFrame(rows)
    results.to_csv(args.out / "rolling_results.csv", index=False)
    per_seed = results.groupby(["kind", "method", "seed"]).agg(
        slice_accuracy=("slice_accuracy", "mean"), within_step=("within_step", "mean"),
        median_error=("mean_error", "median"), segments_right=("segments_right", "mean"),
        n=("number", "size"),
    )
    summary = per_seed.groupby(["kind", "method"]).agg(["mean", "std"]).round(3)
    summary.columns = ["_".join(c) for c in summary.columns]
    summary.to_csv(args.out / "rolling_summary.csv")
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
