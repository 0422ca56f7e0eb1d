"""The per-row analyses beyond the paper on a finished corpus, without Snakemake (like
recognition_rows.py for Tables 2-4): the accuracy-vs-length curve (rule length_curve_row) and
the raw-sequence network (rule sequence_row), with the same functions and the schema's
defaults, for a GPU box or a quick what-if.

    python benchmarks/beyond_rows.py CORPUS_DIR SEQUENCES_DIR OUT_DIR --analyses length sequence
        [--sizes 10 50] [--seeds 0 1 2 3 4] [--device auto] [--threads 1] [--jobs 1]
        [--methods '{"delta": ["words100"], "mlp": ["all"]}'] [--books BOOKS_DIR --words WORDS_DIR
        --rules RULES_JSON]

CORPUS_DIR holds the corpus tables of a run, SEQUENCES_DIR its per-book `sequences/{id}.parquet`.
`--methods` (JSON) replaces the schema's `length_curve.methods`; word methods (words<k>) also
need the run's `books/` (texts, re-tokenized), `words/` (per-book word counts) and tokenizer
rules file (`extraction/tokenizer_rules-spacy*.json`), as the rule does.
Writes `OUT_DIR/length/{classes}_classes/seed{seed}_{results,excerpts}.csv` and
`OUT_DIR/length_summary.csv` (the rule length_curve's summary over the rows found there), and
the sequence model's rows and summary likewise. Prints the wall and CPU seconds each row took
(for word methods also the CPU seconds spent re-tokenizing the books).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pandas as pd

from punctstyle.settings import schema_defaults


def length_row(
    corpus: Path,
    sequences: Path,
    out: Path,
    size: int,
    seed: int,
    device: str,
    threads: int,
    methods: dict | None = None,
    words: tuple[Path, Path, Path] | None = None,
) -> str:
    """One (class size, seed) row of the length curve (scripts/length_curve_row.py); ``methods``
    replaces the schema's, ``words`` is (books dir, words dir, tokenizer rules file)."""
    from punctstyle.classifiers.options import classifier_params, options_by_classifier
    from punctstyle.jobs.length_curve import LengthCurveSettings, length_curve_job

    start, cpu = time.perf_counter(), time.process_time()
    config = schema_defaults()
    config["recognition"]["mlp"]["device"] = device
    curve = config["length_curve"]
    methods = {name: sets for name, sets in (methods or curve["methods"]).items() if sets}
    word_inputs = {}
    if words is not None:
        books, counts, rules = words
        word_inputs = {
            "texts": sorted(books.glob("*.txt.gz")),
            "words": sorted(counts.glob("*.parquet")),
            "rules": rules,
        }
    stem = out / "length" / f"{size}_classes" / f"seed{seed}"
    stem.parent.mkdir(parents=True, exist_ok=True)
    job = length_curve_job(
        pd.read_parquet(corpus / "f1.parquet"),
        [str(path) for path in sorted(sequences.glob("*.parquet"))],
        {"results": f"{stem}_results.csv", "excerpts": f"{stem}_excerpts.csv"},
        LengthCurveSettings(
            test_fraction=config["recognition"]["test_fraction"],
            lengths=curve["lengths"],
            methods=methods,
            training=curve["training"],
            short_documents=curve["short_documents"],
            classifier_options=options_by_classifier(config, classifier_params(config, methods), threads),
        ),
        n_classes=size,
        seed=seed,
        **word_inputs,
    )
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    words_note = f", re-tokenizing {job.tokenizing_cpu_s:.1f} CPU s" if word_inputs else ""
    return f"length {size} seed {seed}: {wall:.1f} s wall, {cpu:.1f} CPU s{words_note}"


def length_summary(out: Path) -> None:
    """The rule length_curve's summary over the row files in ``out/length``."""
    from punctstyle.training.length_curve import EXCERPT_COLUMNS, RESULT_COLUMNS
    from punctstyle.training.length_summary import summarise

    keep = {"keep_default_na": True, "dtype": {"length": str}}
    results = [pd.read_csv(p, **keep) for p in sorted((out / "length").glob("*_classes/seed*_results.csv"))]
    excerpts = [pd.read_csv(p, **keep) for p in sorted((out / "length").glob("*_classes/seed*_excerpts.csv"))]
    if results:
        results_frame = pd.concat(results, ignore_index=True).reindex(columns=RESULT_COLUMNS)
        excerpts_frame = pd.concat(excerpts, ignore_index=True).reindex(columns=EXCERPT_COLUMNS)
        summarise(results_frame, excerpts_frame).to_csv(out / "length_summary.csv", index=False)


def sequence_row(corpus: Path, sequences: Path, out: Path, size: int, seed: int, device: str, threads: int) -> str:
    """One (class size, seed) row of the raw-sequence network (scripts/sequence_row.py)."""
    from punctstyle.classifiers.options import classifier_params, options_by_classifier
    from punctstyle.jobs.sequence import SEQUENCE_METHOD, sequence_row_job

    start = time.perf_counter()
    config = schema_defaults()
    config["beyond"]["sequence"]["device"] = device
    params = classifier_params(config, [SEQUENCE_METHOD])  # as the workflow's sequence_classifier_params
    curve = config["length_curve"]
    path = out / "sequence" / f"{size}_classes" / f"seed{seed}.csv"
    path.parent.mkdir(parents=True, exist_ok=True)
    sequence_row_job(
        pd.read_parquet(corpus / "f1.parquet"),
        [str(p) for p in sorted(sequences.glob("*.parquet"))],
        {"row": path, "lengths": path.with_name(f"seed{seed}_lengths.csv")},
        class_size=size,
        seed=seed,
        test_fraction=config["recognition"]["test_fraction"],
        classifier_options=options_by_classifier(config, params, threads),
        lengths=curve["lengths"] if curve["enabled"] else [],
        short_documents=curve["short_documents"],
    )
    return f"sequence {size} seed {seed}: {time.perf_counter() - start:.1f} s"


def sequence_summary(out: Path) -> None:
    """The sequence model's rows (mean and sd over seeds; the comparison with the feature MLP
    needs the recognition rows: punctstyle.training.sequence_recognition.comparison_table)."""
    from punctstyle.training.sequence_recognition import length_summary, read_length_rows, read_sequence_rows

    paths = sorted(str(p) for p in (out / "sequence").glob("*_classes/seed*.csv") if not p.stem.endswith("_lengths"))
    if paths:
        read_sequence_rows(paths).to_csv(out / "sequence_rows.csv", index=False)
    lengths = sorted(str(p) for p in (out / "sequence").glob("*_classes/seed*_lengths.csv"))
    if lengths:
        length_summary(read_length_rows(lengths)).to_csv(out / "sequence_lengths.csv", index=False)


ROWS = {"length": length_row, "sequence": sequence_row}
SUMMARIES = {"length": length_summary, "sequence": sequence_summary}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("sequences", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--analyses", nargs="+", choices=sorted(ROWS), default=sorted(ROWS))
    parser.add_argument("--sizes", nargs="+", type=int, default=[10, 50])
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2, 3, 4])
    parser.add_argument("--device", default="auto")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--methods", type=json.loads, default=None, help="length_curve.methods as JSON")
    parser.add_argument("--books", type=Path, help="the run's books/ (texts), for word methods")
    parser.add_argument("--words", type=Path, help="the run's words/ (per-book word counts), for word methods")
    parser.add_argument("--rules", type=Path, help="the run's tokenizer rules file, for word methods")
    args = parser.parse_args()
    words = (args.books, args.words, args.rules) if args.books and args.words and args.rules else None
    start = time.perf_counter()
    rows = [(name, size, seed) for name in args.analyses for size in args.sizes for seed in args.seeds]
    context = multiprocessing.get_context("spawn")  # CUDA cannot be used in forked children
    with ProcessPoolExecutor(max_workers=max(1, args.jobs), mp_context=context) as pool:
        extra = {"length": {"methods": args.methods, "words": words}}
        futures = [
            pool.submit(
                ROWS[name],
                args.corpus,
                args.sequences,
                args.out,
                size,
                seed,
                args.device,
                args.threads,
                **extra.get(name, {}),
            )
            for name, size, seed in rows
        ]
        for future in futures:
            print(future.result(), flush=True)
    for name in args.analyses:
        SUMMARIES[name](args.out)
    print(f"{len(rows)} rows in {time.perf_counter() - start:.1f} s wall", flush=True)


if __name__ == "__main__":
    main()
