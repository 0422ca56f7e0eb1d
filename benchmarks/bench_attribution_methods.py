"""Every method of `punctstyle attribute` and `punctstyle rolling` on a run's held-out books
(issue 36): the bundle's own measurements, and the time of `rolling` on a 100,000-word text.

    python benchmarks/bench_attribution_methods.py OUTDIR OUT_DIR

OUTDIR: a finished run's outdir (its ``models/attribution`` bundle built with word methods, its
``books/*.txt.gz``). Prints the record and writes it to OUT_DIR (:func:`record_tables`:
``accuracy.csv``, ``rolling_choice.csv``, ``rolling_timing.csv``; ``run.json`` with the command,
the commit, the corpus fingerprint and the record itself):

* per method (``mlp``, ``kl_<f>``, ``delta_words``, ``delta_both``) the held-out top-1 accuracy of
  ``threshold.json`` (the bundle's split: whole books and the first 200, 800 and 3,200 marks),
  and the method the trusted rule of ``attribute`` picks at each length (it is chosen on the same
  split, so its accuracy is the best single method's by construction: not an independent test);
* the rolling choice: per method the mean precision, recall, F1 within one window and false
  alarms per text on the bundle's synthetic collaborations of held-out books, and the default;
* ``rolling`` of a text of 100,000 words (the run's books joined in id order, cut at the
  100,000th word) with each method, wall seconds on this machine (one process, torch on one
  thread), beside the punctuation method's as the baseline of the same run (ratio).

``--from-json RECORD.json OUT_DIR [--commit SHA]`` writes the same folder from a record this script
wrote as one JSON file before it wrote folders (``--commit``: the commit it was measured at, as
far as known; the corpus as the record gives it, without a fingerprint).

**On books the bundle never saw** (issue 36's targets):

    python benchmarks/bench_attribution_methods.py --held-out RUN_DIR OUT_DIR [--seeds 0 1 2]
        [--fraction 0.25] [--collaborations 10] [--part-marks 2000 20000] [--timing-words 100000]

RUN_DIR: a finished run on the shared Gutenberg mirror (read only: ``corpus/f*.parquet``,
``sequences/``, ``words/``, ``books/``, ``extraction/tokenizer_rules-*.json``, and the bundle's
``models/attribution/manifest.json`` for its settings). Per seed, each author's books are split
(:func:`held_out_split`: a ``--fraction`` of them, at least one, held out of authors with 3 books
or more); a bundle is built with the workflow's code
(:func:`punctstyle.attribution.bundle_build.build_attribution_bundle`, the run's attribution
settings with the seed, the schema's MLP on one thread) on the other books only, and then, as a
user runs the commands:

* ``attribute`` (:func:`punctstyle.api.attribution.attribute_sequence`) on every held-out book,
  whole and cut to an excerpt of 200, 800 and 3,200 marks at a seeded random offset
  (:func:`excerpt_bounds`; the words before those marks): per method and for the trusted
  answer, right or not;
* ``rolling`` with its default (window, step and method,
  :func:`punctstyle.api.results.rolling_sequence`) and with each of ``punctuation``, ``words`` and
  ``both`` on ``--collaborations`` two-author (A-B) texts cut from the held-out books
  (:func:`punctstyle.attribution.collaborations.draw_collaborations`, parts of ``--part-marks``):
  recall within one window, false changes per text (:func:`evaluate_rolling`);
* the CPU seconds (one thread) of extracting a text of ``--timing-words`` words (held-out books
  joined) and rolling over it with the default, character offsets included (``cpu_seconds``: in
  this process; ``command_cpu_seconds``: the whole ``punctstyle rolling FILE --model BUNDLE --json``
  in a child process, start, imports and bundle included, ``bench_rolling.command_seconds``).

Writes to OUT_DIR (:func:`evidence_run.write_evidence`): ``attribute_per_book.csv``,
``attribute_per_seed.csv``, ``attribute_summary.csv`` (per length and method: mean ± sd over
seeds; the trusted answer minus the best single method per seed, :func:`trusted_differences`),
``rolling_per_text.csv``, ``rolling_summary.csv``, ``timing.csv`` and ``run.json``.
"""

from __future__ import annotations

import gzip
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

LENGTHS = (200, 800, 3200)
WORDS = 100_000


def accuracy_at(curve: list[dict], n: int) -> float | None:
    for row in curve:
        if int(row["n_marks"]) == n:
            return row.get("accuracy")
    return None


def text_of_words(books: list[Path], n_words: int) -> str:
    """The books' texts joined (Gutenberg header and footer stripped), cut after ``n_words`` words."""
    from punctstyle.text.clean import strip_gutenberg_header

    parts, total = [], 0
    for path in books:
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            body = strip_gutenberg_header(handle.read())
        words = body.split()
        parts.append(" ".join(words[: n_words - total]))
        total += min(len(words), n_words - total)
        if total >= n_words:
            break
    return "\n\n".join(parts)


def main(outdir: str, out: str) -> int:
    import torch

    from punctstyle.api.results import rolling_sequence
    from punctstyle.api.text import sequence_and_words
    from punctstyle.attribution.bundle import load_attribution_bundle

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from evidence_run import commit

    revision = commit()
    torch.set_num_threads(1)
    run = Path(outdir)
    bundle = load_attribution_bundle(run / "models" / "attribution")
    curves = bundle.method_curves()
    full = {"mlp": bundle.threshold.get("mlp_full_accuracy")}
    for feature, entry in (bundle.threshold.get("curves") or {}).items():
        full[f"kl_{feature}"] = entry.get("full_accuracy")
    for method, entry in (bundle.threshold.get("word_curves") or {}).items():
        full[method] = entry.get("full_accuracy")
    table = {m: {**{str(n): accuracy_at(curves[m], n) for n in LENGTHS}, "whole": full.get(m)} for m in curves}
    trusted = {}
    for column in [*map(str, LENGTHS), "whole"]:
        measured = {m: v[column] for m, v in table.items() if v[column] is not None}
        trusted[column] = max(measured, key=lambda m: (measured[m], -list(table).index(m))) if measured else None
    n_test = next((r.get("n_test") for c in curves.values() for r in c if r.get("n_test")), None)
    record = {"n_authors": len(bundle.model.classes), "n_books": bundle.manifest["n_books"], "n_test": n_test,
              "accuracy": table, "trusted": trusted, "rolling_choice": bundle.threshold.get("rolling")}
    books = sorted((run / "books").glob("*.txt.gz"), key=lambda p: int(p.name.split(".")[0]))
    text = text_of_words(books, WORDS)
    sequence, stream = sequence_and_words("bench", text, purpose="roll over")
    timings = {}
    for method in ("punctuation", "words", "both"):
        start = time.perf_counter()
        result = rolling_sequence("bench", sequence, bundle, method=method, stream=stream)
        timings[method] = {"seconds": time.perf_counter() - start, "n_slices": int(len(result.starts)),
                           "window": result.window, "step": result.step, "scored_by": result.scores.method}
    for method, timing in timings.items():
        timing["ratio_to_punctuation"] = timing["seconds"] / timings["punctuation"]["seconds"]
    record["rolling_timing"] = {"n_words": len(stream), "n_marks": len(sequence), "methods": timings}
    from evidence_run import corpus_fingerprint, write_evidence

    run_json = {"command": f"python benchmarks/bench_attribution_methods.py OUTDIR {out}", "commit": revision,
                "corpus": corpus_fingerprint(run), "record": record}
    write_evidence(Path(out), record_tables(record), run_json)
    print(json.dumps(record, indent=1))
    return 0


def record_tables(record: dict) -> dict:
    """The record's tables: ``accuracy.csv`` (method, length: 200, 800, 3200 marks or ``whole``,
    held-out top-1 accuracy, whether the trusted rule picks the method there),
    ``rolling_choice.csv`` (per rolling method: precision, recall, F1, false alarms per text, true
    changes within one step, with the window, step and margin they were measured at) and
    ``rolling_timing.csv`` (per method: seconds, slices, ratio to the punctuation method)."""
    import pandas as pd

    accuracy = pd.DataFrame([{"method": method, "length": length, "accuracy": value,
                              "trusted": record["trusted"].get(length) == method}
                             for method, row in record["accuracy"].items() for length, value in row.items()])
    choice = record.get("rolling_choice") or {}
    rolling = pd.DataFrame([{"method": method, **scores, "default": method == choice.get("default"),
                             **{k: choice.get(k) for k in ("window", "step", "margin", "n_collaborations")}}
                            for method, scores in (choice.get("methods") or {}).items()])
    timing = record.get("rolling_timing") or {}
    seconds = pd.DataFrame([{"method": method, **values, "n_words": timing.get("n_words"),
                             "n_marks": timing.get("n_marks")} for method, values in (timing.get("methods") or {}).items()])
    return {"accuracy.csv": accuracy, "rolling_choice.csv": rolling, "rolling_timing.csv": seconds}


def from_json_main(argv) -> int:
    """``--from-json RECORD.json OUT_DIR [--commit SHA]``: the folder of an earlier JSON record."""
    import argparse

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from evidence_run import write_evidence

    parser = argparse.ArgumentParser(prog="bench_attribution_methods.py --from-json")
    parser.add_argument("record", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--commit", default=None, help="the commit the record was measured at, as far as known")
    args = parser.parse_args(argv)
    record = json.loads(args.record.read_text(encoding="utf-8"))
    run_json = {"command": "python benchmarks/bench_attribution_methods.py OUTDIR RECORD.json (a JSON record, "
                           f"converted by --from-json RECORD.json {args.out})", "commit": args.commit,
                "corpus": {"books_in_corpus": record.get("n_books"), "authors_in_corpus": record.get("n_authors"),
                           "book_ids_sha256": None}, "record": record}
    write_evidence(args.out, record_tables(record), run_json)
    print(f"{args.out}: accuracy.csv, rolling_choice.csv, rolling_timing.csv, run.json")
    return 0



# --------------------------------------------------------------------------- books the bundle never saw

WHOLE = 0
"""The length column of a whole book (``length`` 0 in the tables)."""
ROLLING_CHOICES = ("default", "punctuation", "words", "both")


def held_out_split(labels, fraction: float, seed: int):
    """(training rows, held-out rows): per author (sorted rows, a permutation seeded by ``[seed,
    author index]``) ``h_a = max(1, round(fraction n_a))`` books held out when ``n_a >= 3``, none
    otherwise (the bundle's own split needs two training books per author)."""
    import numpy as np

    labels = np.asarray(labels, dtype=object)
    held = []
    for k, author in enumerate(np.unique(labels)):
        rows = np.flatnonzero(labels == author)
        if rows.size < 3:
            continue
        order = np.random.default_rng([seed, k]).permutation(rows)
        held.extend(order[: max(1, int(round(fraction * rows.size)))].tolist())
    held = np.sort(np.asarray(held, dtype=np.int64))
    return np.setdiff1d(np.arange(labels.size), held), held


def excerpt_bounds(n_marks: int, length: int, seed: int, book_id: int) -> tuple[int, int] | None:
    """``(a, a + n)``: ``n = length`` marks at an offset ``a`` uniform in ``[0, n_marks - n]`` (seeded by
    ``[seed, book_id, n]``); ``(0, n_marks)`` for ``length`` :data:`WHOLE`; None when the book is shorter."""
    import numpy as np

    if length == WHOLE:
        return 0, int(n_marks)
    if n_marks < length:
        return None
    a = int(np.random.default_rng([seed, book_id, length]).integers(0, n_marks - length + 1))
    return a, a + int(length)


def excerpt(marks, gaps, stream, bounds: tuple[int, int]):
    """The marks ``[a, b)``, their gaps and the words before them (``stream[sum_{k<a} g_k : sum_{k<b} g_k]``)."""
    import numpy as np

    a, b = bounds
    cumulative = np.concatenate([[0], np.cumsum(np.asarray(gaps, dtype=np.int64))])
    return np.asarray(marks)[a:b], np.asarray(gaps)[a:b], np.asarray(stream, dtype=object)[cumulative[a]:cumulative[b]]


def attribute_accuracy(per_book):
    """Per seed, length and method (``trusted`` among them): ``accuracy`` (mean of ``right``) and ``n``."""
    return (per_book.groupby(["seed", "length", "method"], as_index=False)
            .agg(accuracy=("right", "mean"), n=("right", "size")))


def trusted_differences(per_seed):
    """Per length: the best single method on average over seeds (``best_method``: the largest mean
    accuracy, ties by name), the trusted answer's and its accuracy mean ± sd over seeds, and the
    per-seed differences ``trusted - best_method`` and ``trusted - max_m accuracy_m`` (the best
    single method of each seed, chosen after the fact), mean ± sd (sd with ``ddof = 1``), min and
    the seeds where trusted is at least as good (``seeds_at_least``)."""
    import pandas as pd

    rows = []
    for length, block in per_seed.groupby("length"):
        table = block.pivot(index="seed", columns="method", values="accuracy")
        single = table.drop(columns="trusted")
        means = single.mean().sort_index()
        best = str(means.idxmax())
        diff = table["trusted"] - single[best]
        diff_oracle = table["trusted"] - single.max(axis=1)
        rows.append({"length": int(length), "n_seeds": int(table.shape[0]),
                     "trusted_mean": table["trusted"].mean(), "trusted_sd": table["trusted"].std(ddof=1),
                     "best_method": best, "best_mean": single[best].mean(), "best_sd": single[best].std(ddof=1),
                     "diff_mean": diff.mean(), "diff_sd": diff.std(ddof=1), "diff_min": diff.min(),
                     "seeds_at_least": int((diff >= 0).sum()),
                     "diff_per_seed_best_mean": diff_oracle.mean(), "diff_per_seed_best_sd": diff_oracle.std(ddof=1),
                     "seeds_at_least_per_seed_best": int((diff_oracle >= 0).sum())})
    return pd.DataFrame(rows)


def method_summary(per_seed, value: str, keys):
    """Per ``keys``: mean and sd over seeds (``ddof = 1``) of the per-seed ``value``."""
    grouped = per_seed.groupby(keys)[value]
    return grouped.agg(["mean", "std", "size"]).rename(
        columns={"mean": f"{value}_mean", "std": f"{value}_sd", "size": "n_seeds"}).reset_index()


def rolling_summary(per_text):
    """Per method: per seed the means over its texts of recall (true changes within one window),
    false changes per text, F1 and true changes within one step, then mean ± sd over seeds."""
    import pandas as pd

    measures = ["recall", "false_alarms", "f1", "within_step"]
    per_seed = per_text.groupby(["method", "seed"], as_index=False)[measures + ["window"]].mean()
    out = per_seed.groupby("method").agg(n_seeds=("seed", "size"), window=("window", "mean"))
    for name in measures:
        out[f"{name}_mean"] = per_seed.groupby("method")[name].mean()
        out[f"{name}_sd"] = per_seed.groupby("method")[name].std(ddof=1)
    out["n_texts"] = per_text.groupby("method").size()
    return pd.DataFrame(out).reset_index()


def held_out_seed(run: Path, seed: int, args, scratch: Path, log=print):
    """One seed: the bundle built on the training books, and the held-out measurements
    (``(per_book, per_text, timing)`` records)."""
    import numpy as np
    import pandas as pd
    import torch

    from punctstyle.api.attribution import attribute_sequence
    from punctstyle.api.results import rolling_sequence
    from punctstyle.api.text import sequence_and_words
    from punctstyle.attribution import bundle as bundles
    from punctstyle.attribution.bundle_build import build_attribution_bundle
    from punctstyle.attribution.collaborations import assemble, draw_collaborations, evaluate_rolling
    from punctstyle.book.sequence_file import read_sequence
    from punctstyle.corpus.words import CorpusWordFiles
    from punctstyle.rule_names import FEATURES
    from punctstyle.settings import schema_defaults
    from punctstyle.text.extract import PunctuationSequence
    from punctstyle.text.tokenizer import TokenizerRules

    torch.set_num_threads(1)
    tables = {f: pd.read_parquet(run / "corpus" / f"{f}.parquet") for f in FEATURES}
    if args.authors:  # the first authors by name only (a smoke run)
        kept = sorted(tables[FEATURES[0]]["author"].unique())[: args.authors]
        tables = {f: t[t["author"].isin(kept)].reset_index(drop=True) for f, t in tables.items()}
    table = tables[FEATURES[0]]
    labels = table["author"].to_numpy(dtype=object)
    book_ids = table["book_id"].to_numpy(dtype=np.int64)
    train, test = held_out_split(labels, args.fraction, seed)
    texts = sorted((run / "books").glob("*.txt.gz"))
    words = sorted((run / "words").glob("*.parquet"))
    rules = TokenizerRules.load(next((run / "extraction").glob("tokenizer_rules-*.json")))
    sequence_paths = [run / "sequences" / f"{i}.parquet" for i in book_ids]
    manifest = json.loads((run / "models" / "attribution" / "manifest.json").read_text(encoding="utf-8"))
    settings = bundles.AttributionSettings.from_config({**manifest["settings"], "seed": seed})
    mlp = {"params": schema_defaults()["recognition"]["mlp"], "device": "cpu", "num_threads": 1}
    folder = scratch / f"bundle-{seed}"
    outputs = {key: folder / name for key, name in {**bundles.BUNDLE_FILES, **bundles.OPTIONAL_FILES}.items()}
    start = time.process_time()
    build_attribution_bundle({f: t.iloc[train].reset_index(drop=True) for f, t in tables.items()}, sequence_paths,
                             outputs, settings=settings, classifier_options={"mlp": mlp},
                             word_files=CorpusWordFiles(book_ids[train].tolist(), texts, words, rules),
                             log=lambda m: log(f"seed {seed}: {m}"))
    build_seconds = time.process_time() - start
    bundle = bundles.load_attribution_bundle(folder)
    held_words = CorpusWordFiles(book_ids[test].tolist(), texts, words, rules)
    sequences, streams = {}, {}
    for k, i in enumerate(test):
        sequence, _ = read_sequence(sequence_paths[i])
        sequences[int(i)] = (np.asarray(sequence.marks), np.asarray(sequence.gaps))
        streams[int(i)] = np.asarray(held_words.stream(k, *sequences[int(i)]), dtype=object)
    per_book = []
    for i in test:
        marks, gaps = sequences[int(i)]
        for length in (WHOLE, *LENGTHS):
            bounds = excerpt_bounds(len(marks), length, seed, int(book_ids[i]))
            if bounds is None:
                continue
            m, g, stream = excerpt(marks, gaps, streams[int(i)], bounds)
            result = attribute_sequence("held-out", PunctuationSequence(m, g, len(stream)), bundle, list(stream))
            answers = {a.method: a for a in result.answers}
            answers["trusted"] = result.trusted
            for method, answer in answers.items():
                per_book.append({"seed": seed, "book_id": int(book_ids[i]), "author": labels[i], "length": length,
                                 "start": bounds[0], "method": method, "first_author": answer.authors[0],
                                 "right": answer.authors[0] == labels[i],
                                 "scored_by": answer.method if method == "trusted" else method})
    rng = np.random.default_rng([seed, 3636])
    n_marks = np.array([len(sequences[int(i)][0]) if int(i) in sequences else 0 for i in range(labels.size)])
    collaborations = draw_collaborations(labels, n_marks, test, ("A-B",), args.collaborations,
                                         tuple(args.part_marks), rng, known_authors=np.unique(labels[train]))
    per_text = []
    for number, collaboration in enumerate(collaborations):
        marks, gaps, stream = assemble(collaboration, sequences, lambda j: streams[int(j)])
        sequence = PunctuationSequence(marks, gaps, len(stream))
        for choice in ROLLING_CHOICES:
            result = rolling_sequence("collaboration", sequence, bundle, method=None if choice == "default" else choice,
                                      stream=list(stream))
            record = evaluate_rolling(result, collaboration)
            per_text.append({"seed": seed, "number": number, "method": choice, "scored_by": result.scores.method,
                             "authors": "|".join(collaboration.authors), "n_marks": record["n_marks"],
                             "window": result.window, "step": result.step, "n_true": record["n_true"],
                             "n_found": record["n_found"], **{k: record[k] for k in (
                                 "recall", "false_alarms", "precision", "f1", "within_step")}})
    text = text_of_words([texts_by_id(texts)[int(book_ids[i])] for i in test], args.timing_words)
    start = time.process_time()
    sequence, stream = sequence_and_words("timing", text, purpose="roll over")
    result = rolling_sequence("timing", sequence, bundle, stream=stream, text=text)
    in_process = time.process_time() - start
    from bench_rolling import command_seconds

    timing = {"seed": seed, "n_words": len(stream), "n_marks": len(sequence), "n_chars": len(text),
              "cpu_seconds": in_process, "command_cpu_seconds": command_seconds(text, folder, None), "window": result.window, "step": result.step,
              "scored_by": result.scores.method, "build_cpu_seconds": build_seconds,
              "n_train_books": int(train.size), "n_held_out_books": int(test.size),
              "n_authors": int(np.unique(labels[train]).size), "min_marks": bundle.min_marks,
              "rolling_default": (bundle.manifest.get("rolling_choice") or {}).get("default"),
              "choice_window": (bundle.manifest.get("rolling_choice") or {}).get("window")}
    return per_book, per_text, timing


def texts_by_id(paths):
    return {int(p.name.split(".")[0]): p for p in paths}


def held_out_main(argv) -> int:
    import argparse
    import tempfile

    import pandas as pd

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from evidence_run import commit, corpus_fingerprint, write_evidence

    parser = argparse.ArgumentParser(prog="bench_attribution_methods.py --held-out")
    parser.add_argument("run", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--fraction", type=float, default=0.25)
    parser.add_argument("--collaborations", type=int, default=10)
    parser.add_argument("--part-marks", type=int, nargs=2, default=[2000, 20000])
    parser.add_argument("--timing-words", type=int, default=WORDS)
    parser.add_argument("--authors", type=int, default=0, help="only the first N authors by name (0: all)")
    args = parser.parse_args(argv)
    revision = commit()
    per_book, per_text, timings = [], [], []
    with tempfile.TemporaryDirectory() as scratch:
        for seed in args.seeds:
            books, texts, timing = held_out_seed(args.run, seed, args, Path(scratch))
            per_book += books
            per_text += texts
            timings.append(timing)
            print(f"seed {seed}: {timing}", flush=True)
    per_book, per_text, timings = pd.DataFrame(per_book), pd.DataFrame(per_text), pd.DataFrame(timings)
    per_seed = attribute_accuracy(per_book)
    summary = method_summary(per_seed, "accuracy", ["length", "method"])
    differences = trusted_differences(per_seed)
    rolling = rolling_summary(per_text)
    run = {"commit": revision, "corpus": corpus_fingerprint(args.run), "seeds": args.seeds,
           "fraction": args.fraction, "collaborations": args.collaborations, "part_marks": args.part_marks,
           "lengths": [WHOLE, *LENGTHS], "timing_words": args.timing_words,
           "command": "python benchmarks/bench_attribution_methods.py --held-out RUN_DIR OUT_DIR "
                      + " ".join(["--seeds", *map(str, args.seeds), "--fraction", str(args.fraction),
                                  "--collaborations", str(args.collaborations), "--part-marks",
                                  *map(str, args.part_marks), "--timing-words", str(args.timing_words)]
                               + (["--authors", str(args.authors)] if args.authors else []))}
    write_evidence(args.out, {"attribute_per_book.csv": per_book, "attribute_per_seed.csv": per_seed,
                              "attribute_summary.csv": summary, "attribute_differences.csv": differences,
                              "rolling_per_text.csv": per_text, "rolling_summary.csv": rolling,
                              "timing.csv": timings}, run)
    with pd.option_context("display.width", 200, "display.max_columns", 30):
        print(summary.to_string(), differences.to_string(), rolling.to_string(), timings.to_string(), sep="\n\n")
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--held-out":
        raise SystemExit(held_out_main(sys.argv[2:]))
    if len(sys.argv) > 1 and sys.argv[1] == "--from-json":
        raise SystemExit(from_json_main(sys.argv[2:]))
    raise SystemExit(main(*sys.argv[1:3]))
