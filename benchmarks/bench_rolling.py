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

``--sweep-windows W.. [--sweep-scales K..] [--sweep-min-marks M..]`` measures change-point rules
instead: per seed and collaboration (as above), each method's slice scores are computed once per
window (step a quarter of it) and cut by every rule: penalty ``K beta``
(``rolling_attribution(penalty_scale=K)``) and segments of at least ``max(L, ceil(M / step))``
slices (``M = 0``: the default ``L = ceil(window / step)``); writes ``OUT_DIR/rules_per_seed.csv``
(per seed the means over its texts), ``OUT_DIR/rules_difference.csv`` (``--after`` against
``--before``: mean ± sd over seeds of the per-seed differences), ``OUT_DIR/rules_summary.csv`` (per kind, parts, method, window and rule: mean ± sd over seeds of
the per-seed means of recall, false alarms per text, precision, F1; margin one window) and
``OUT_DIR/run.json`` (:func:`evidence_run.write_evidence`, with the commit).

``--cli-timing BUNDLE_DIR [--timing-windows W..]`` times the ``punctstyle rolling`` path on one
thread (torch and BLAS at one thread) instead: a text of at least ``--timing-words`` words, the
run's downloaded books (``books/*.txt.gz``, headers stripped) joined in id order, then per stage
the process-CPU seconds in this one process: extraction with the word stream (what every command
does first), the character offsets (:func:`punctstyle.attribution.rolling_chars.mark_ends`), and
rolling against the bundle with each of ``punctuation``, ``words`` and ``both`` at each window;
each stage also as a ratio to the extraction measured in the same run (the machine is shared:
ratios, not seconds, compare); and the whole command (stage ``command``, :func:`command_seconds`:
a child process's CPU seconds, start, imports and the bundle included) with each method at the
default window. Writes ``OUT_DIR/cli_timing.csv``, ``OUT_DIR/cli_timing_summary.csv``
(:func:`timing_summary`) and ``OUT_DIR/run.json``.
"""

from __future__ import annotations

import argparse
import os
import json
import time
from pathlib import Path

import numpy as np
import pandas as pd

from punctstyle.attribution.rolling import (DISTANCE, SliceScores, kl_slice_scores, roll_text, rolling_attribution,
                                            slice_features, slice_starts, slice_word_frequencies, slice_word_spans)
from punctstyle.book.sequence_file import read_sequence
from punctstyle.classifiers.delta import BurrowsDelta
from punctstyle.classifiers.kl_nearest import class_signatures
from punctstyle.corpus.tables import feature_matrix
from punctstyle.corpus.words import BookWordStreams, read_word_matrix
from punctstyle.corpus.words import CorpusWordFiles, select_vocabulary
from punctstyle.attribution.collaborations import (KINDS, ROLLING_METHODS as METHODS, RollingSettings, assemble,
                                                   collaboration_split, draw_collaborations, evaluate_rolling,
                                                   rolling_collaborations, rolling_summary)
from punctstyle.features import compute_features
from punctstyle.marks import PAPER_FEATURES
from punctstyle.text.tokenizer import TokenizerRules



def punctuation_block(features: dict[str, np.ndarray]) -> np.ndarray:
    return np.hstack([np.atleast_2d(features[f]) for f in PAPER_FEATURES])


SWEEP_MEASURES = ("recall", "false_alarms", "precision", "f1")


def rule_sweep(tables: dict[str, pd.DataFrame], sequence, words, matrix, args: argparse.Namespace) -> pd.DataFrame:
    """One record per (seed, collaboration, method, window, scale, min_marks): the change-point
    scores of :func:`evaluate_rolling` (margin: one window) of that rule (module docstring)."""
    table = tables["f1"]
    labels = table["author"].to_numpy(dtype=object)
    book_ids = table["book_id"].to_numpy(dtype=np.int64)
    f3 = feature_matrix(tables["f3"], "f3")
    freqs = matrix.relative_frequencies(book_ids)
    records = []
    for seed in args.seeds:
        train, test = collaboration_split(table, labels, seed, args.test_fraction, book_ids)
        y = labels[train]
        authors, signatures, _ = class_signatures(f3[train], y)
        columns = select_vocabulary(freqs[train], args.words, matrix.cutoff[matrix.rows_of(book_ids[train])]).columns
        column_of = {w: j for j, w in enumerate(matrix.vocabulary[columns].tolist())}
        delta = BurrowsDelta(seed=seed, feature_set=()).fit(freqs[train][:, columns].toarray(), y)
        rng = np.random.default_rng([seed, 2016])
        collaborations = draw_collaborations(labels, table["n_marks"].to_numpy(), test, args.kinds, args.per_kind,
                                             (2000, 20000), rng, known_authors=np.unique(y))
        for number, collaboration in enumerate(collaborations):
            marks, gaps, stream = assemble(collaboration, _Indexed(sequence), words)
            index = np.array([column_of.get(w, -1) for w in stream], dtype=np.int64)
            for window in args.sweep_windows:
                step = max(1, round(window / 4))
                starts = slice_starts(len(marks), window, step)
                lag = -(-window // step)
                for method in args.methods:
                    if method == "kl_f3":
                        features = slice_features(marks, gaps, starts, window, ["f3"])
                        scores = kl_slice_scores(signatures, authors, features["f3"], "f3")
                    else:
                        first, stop = slice_word_spans(gaps, starts, window)
                        rows = slice_word_frequencies(index, first, stop, len(column_of))
                        scores = SliceScores(method, DISTANCE, delta.classes, delta.distances(rows))
                    for scale in args.sweep_scales:
                        for min_marks in args.sweep_min_marks:
                            min_slices = max(lag, -(-min_marks // step))
                            result = rolling_attribution(scores, starts, window, step, len(marks),
                                                         min_slices=min_slices, penalty_scale=scale)
                            record = evaluate_rolling(result, collaboration)
                            records.append({"seed": seed, "number": number, "kind": collaboration.kind,
                                            "parts": len(collaboration.authors), "n_marks": len(marks),
                                            "method": method, "window": window, "step": step, "scale": scale,
                                            "min_marks": min_marks, "n_found": record["n_found"],
                                            **{k: record[k] for k in SWEEP_MEASURES}})
        print(f"seed {seed}: {len(collaborations)} collaborations", flush=True)
    return pd.DataFrame(records)


def sweep_summary(records: pd.DataFrame) -> pd.DataFrame:
    """Per parts (2 or 3), method, window, scale and min_marks: mean and sd over seeds of the
    per-seed means of :data:`SWEEP_MEASURES`, and the texts counted."""
    keys = ["parts", "method", "window", "scale", "min_marks"]
    per_seed = records.groupby([*keys, "seed"]).agg(n=("number", "size"), **{m: (m, "mean") for m in SWEEP_MEASURES})
    grouped = per_seed.groupby(keys)
    out = pd.DataFrame({"n_texts": grouped["n"].sum(), "n_seeds": grouped["n"].size()})
    for m in SWEEP_MEASURES:
        out[f"{m}_mean"] = grouped[m].mean()
        out[f"{m}_sd"] = grouped[m].std(ddof=1)
    return out.reset_index()


def sweep_difference(records: pd.DataFrame, before: tuple[float, float, float],
                     after: tuple[float, float, float]) -> pd.DataFrame:
    """The rule ``after`` against ``before`` (each ``(window, scale, min_marks)``), per parts and
    method: mean and sd over seeds of the per-seed difference ``after - before`` of the per-seed
    means of :data:`SWEEP_MEASURES` (the same texts under both rules)."""
    keys = ["parts", "method", "seed"]
    rule = records[["window", "scale", "min_marks"]].astype(float).apply(tuple, axis=1)
    means = {name: records[rule == tuple(float(v) for v in value)].groupby(keys)[list(SWEEP_MEASURES)].mean()
             for name, value in (("before", before), ("after", after))}
    difference = (means["after"] - means["before"]).dropna()
    grouped = difference.groupby(["parts", "method"])
    out = pd.DataFrame({"n_seeds": grouped.size()})
    for m in SWEEP_MEASURES:
        out[f"{m}_before"] = means["before"].groupby(["parts", "method"])[m].mean()
        out[f"{m}_after"] = means["after"].groupby(["parts", "method"])[m].mean()
        out[f"{m}_difference_mean"] = grouped[m].mean()
        out[f"{m}_difference_sd"] = grouped[m].std(ddof=1)
    out = out.reset_index()
    out.insert(2, "before", "window {:g}, scale {:g}, min_marks {:g}".format(*before))
    out.insert(3, "after", "window {:g}, scale {:g}, min_marks {:g}".format(*after))
    return out


class _Indexed:
    def __init__(self, function) -> None:
        self.function = function

    def __getitem__(self, i: int):
        return self.function(i)


def command_seconds(text: str, bundle_dir: Path, method: str | None) -> float:
    """CPU seconds (user + system) of ``punctstyle rolling FILE --model BUNDLE --method METHOD
    --json`` in a child process on one thread, at the default window: Python's start, the
    imports, reading the text and the bundle included (``method`` None: no ``--method``, the
    bundle's default)."""
    import os
    import resource
    import subprocess
    import sys
    import tempfile

    env = {**os.environ, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "text.txt"
        path.write_text(text, encoding="utf-8")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sys.executable, "-m", "punctstyle.cli", "rolling", str(path), "--model", str(bundle_dir),
                        *(["--method", method] if method else []), "--json"], check=True, env=env, stdout=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def cli_timing(run: Path, bundle_dir: Path, n_words: int, windows: list[int], repeats: int) -> pd.DataFrame:
    """One row per stage and repeat (module docstring): ``stage``, ``method``, ``window``,
    ``cpu_s`` and ``ratio_to_extraction`` (that repeat's extraction)."""
    import gzip

    import torch

    from punctstyle.api.results import rolling_sequence
    from punctstyle.api.text import sequence_and_words
    from punctstyle.attribution.bundle import load_attribution_bundle
    from punctstyle.attribution.rolling_chars import mark_ends
    from punctstyle.text.chunk_cache import ChunkCachedExtractor
    from punctstyle.text.clean import strip_gutenberg_header

    torch.set_num_threads(1)
    bundle = load_attribution_bundle(bundle_dir)
    parts, words = [], 0
    for path in sorted((run / "books").glob("*.txt.gz"), key=lambda p: int(p.name.split(".")[0])):
        body = strip_gutenberg_header(gzip.open(path, "rt", encoding="utf-8").read())
        parts.append(body)
        words += len(body.split())
        if words >= n_words:
            break
    text = "\n\n".join(parts)
    rows = []
    for repeat in range(repeats):
        t0 = time.process_time()
        sequence, stream = sequence_and_words("timing", text, purpose="roll over")
        extraction = time.process_time() - t0
        rows.append({"repeat": repeat, "stage": "extraction", "method": "", "window": 0, "cpu_s": extraction})
        t0 = time.process_time()
        ends = mark_ends(text, sequence.marks, ChunkCachedExtractor())
        rows.append({"repeat": repeat, "stage": "characters", "method": "", "window": 0,
                     "cpu_s": time.process_time() - t0})
        assert ends is not None and len(ends) == len(sequence)
        for window in windows:
            for method in ("punctuation", "words", "both"):
                t0 = time.process_time()
                rolling_sequence("timing", sequence, bundle, window, None, method=method, stream=stream)
                rows.append({"repeat": repeat, "stage": "rolling", "method": method, "window": window,
                             "cpu_s": time.process_time() - t0})
        for method in ("punctuation", "words", "both"):
            rows.append({"repeat": repeat, "stage": "command", "method": method, "window": 0,
                         "cpu_s": command_seconds(text, bundle_dir, method)})
        for row in rows:
            if row["repeat"] == repeat:
                row["ratio_to_extraction"] = row["cpu_s"] / extraction
        print(rows[-1], flush=True)
    frame = pd.DataFrame(rows)
    frame["n_chars"], frame["n_words"], frame["n_marks"] = len(text), int(sequence.n_words), len(sequence)
    frame["n_books"] = len(parts)
    return frame


def timing_summary(frame: pd.DataFrame) -> pd.DataFrame:
    """Per stage, method and window: mean, sd and max over the repeats of the CPU seconds and of
    the ratio to that repeat's extraction; and stage ``total`` per window and method: extraction,
    character offsets and that rolling together."""
    extraction = frame[frame["stage"] == "extraction"].set_index("repeat")["cpu_s"]
    fixed = frame[frame["stage"].isin(["extraction", "characters"])].groupby("repeat")["cpu_s"].sum()
    rows = []
    for (stage, method, window), group in frame.groupby(["stage", "method", "window"], sort=False):
        rows.append((stage, method, window, group.set_index("repeat")["cpu_s"]))
        if stage == "rolling":
            rows.append(("total", method, window, group.set_index("repeat")["cpu_s"] + fixed))
    out = []
    for stage, method, window, seconds in rows:
        ratio = seconds / extraction.loc[seconds.index]
        out.append({"stage": stage, "method": method, "window": window, "n_repeats": len(seconds),
                    "cpu_s_mean": seconds.mean(), "cpu_s_sd": seconds.std(ddof=1), "cpu_s_max": seconds.max(),
                    "ratio_mean": ratio.mean(), "ratio_sd": ratio.std(ddof=1)})
    return pd.DataFrame(out)


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
    parser.add_argument("--kinds", nargs="+", default=list(KINDS), choices=list(KINDS))
    parser.add_argument("--sweep-windows", type=int, nargs="+", default=None)
    parser.add_argument("--sweep-scales", type=float, nargs="+", default=[1.0])
    parser.add_argument("--sweep-min-marks", type=int, nargs="+", default=[0])
    parser.add_argument("--before", type=float, nargs=3, default=[100, 1, 0], metavar=("WINDOW", "SCALE", "MIN_MARKS"),
                        help="the rule the default was (the bundle's min_marks window on the development run)")
    parser.add_argument("--after", type=float, nargs=3, default=[800, 1, 0], metavar=("WINDOW", "SCALE", "MIN_MARKS"),
                        help="the default rule (rolling_window)")
    parser.add_argument("--cli-timing", type=Path, default=None, metavar="BUNDLE_DIR")
    parser.add_argument("--timing-windows", type=int, nargs="+", default=[100, 800])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    if args.cli_timing:
        from evidence_run import commit, corpus_fingerprint, write_evidence

        revision = commit()
        frame = cli_timing(args.run, args.cli_timing, args.timing_words, args.timing_windows, args.repeats)
        print(frame.to_string())
        summary = timing_summary(frame)
        print(summary.round(3).to_string())
        write_evidence(args.out, {"cli_timing.csv": frame, "cli_timing_summary.csv": summary},
                       {"commit": revision, "corpus": corpus_fingerprint(args.run), "bundle": os.path.relpath(args.cli_timing, args.run),
                        "timing_words": args.timing_words, "windows": args.timing_windows, "repeats": args.repeats,
                        "threads": 1, "clock": "time.process_time (this process's CPU)"})
        return
    if args.sweep_windows:
        from evidence_run import commit, corpus_fingerprint, write_evidence

        revision = commit()
        tables = {f: pd.read_parquet(args.run / "corpus" / f"{f}.parquet") for f in PAPER_FEATURES}
        book_ids = tables["f1"]["book_id"].to_numpy(dtype=np.int64)
        files = CorpusWordFiles(book_ids, [], sorted((args.run / "words").glob("*.parquet")))
        cache: dict[int, tuple[np.ndarray, np.ndarray]] = {}

        def sequence_of(i: int) -> tuple[np.ndarray, np.ndarray]:
            if i not in cache:
                s, _ = read_sequence(args.run / "sequences" / f"{book_ids[i]}.parquet")
                cache[i] = (np.asarray(s.marks), np.asarray(s.gaps))
            return cache[i]

        start = time.process_time()
        records = rule_sweep(tables, sequence_of, lambda i: files.stream(i, *sequence_of(i)),
                             read_word_matrix(args.run / "corpus" / "words.npz"), args)
        summary = sweep_summary(records)
        difference = sweep_difference(records, tuple(args.before), tuple(args.after))
        print(summary.round(3).to_string())
        print(difference.round(3).to_string())
        per_seed = records.groupby(["parts", "method", "window", "scale", "min_marks", "seed"]).agg(
            n_texts=("number", "size"), **{m: (m, "mean") for m in SWEEP_MEASURES}).reset_index()
        write_evidence(args.out, {"rules_per_seed.csv": per_seed, "rules_summary.csv": summary,
                                  "rules_difference.csv": difference},
                       {"commit": revision, "corpus": corpus_fingerprint(args.run), "seeds": args.seeds, "per_kind": args.per_kind,
                        "kinds": args.kinds, "methods": args.methods, "windows": args.sweep_windows,
                        "scales": args.sweep_scales, "min_marks": args.sweep_min_marks, "words": args.words,
                        "before": args.before, "after": args.after,
                        "part_marks": [2000, 20000], "margin": "one window", "cpu_seconds": time.process_time() - start})
        return
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
