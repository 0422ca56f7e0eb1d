"""The recognition grid (Tables 2-4) of a finished corpus, without Snakemake: for another
machine (a GPU box) or a quick what-if on the settings, with the same code as the rules
(`punctstyle.analyses.paper.recognition_run` per (task, class size, seed), the same row files, the
same summary tables).

    python benchmarks/recognition_rows.py CORPUS_DIR OUT_DIR [--set recognition.mlp.stopping=validation ...]
        [--tasks author genre] [--sizes 10 50 all] [--seeds 0 1] [--device auto] [--threads 2] [--jobs 1]
        [--words CORPUS_DIR/words.npz]

CORPUS_DIR holds the corpus tables (`f1.parquet` ...) of a run; the settings are the schema's
defaults with the `--set KEY=VALUE` overrides (YAML values), validated against the schema when
jsonschema is installed. `--jobs N` runs N rows at once in separate processes (each with
`--threads` threads; a GPU is shared). Prints the seconds each row took and writes
`OUT_DIR/{task}/{classes}_classes/seed{seed}_*` and `OUT_DIR/{task}_summary.csv` (over every
row file found there, so that runs of separate rows add up). With `--words` (the rule
corpus_words's matrix), the rows of the tasks in `recognition.words.tasks` also run the word
baselines on the same split (`seed{seed}_words.csv`, `OUT_DIR/{task}_words_summary.csv`).
"""

from __future__ import annotations

import argparse
import importlib.util
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pandas as pd
import yaml

from punctstyle.analyses.paper import (
    duplicates_full_corpus_row,
    labelled_rows,
    task_column,
)
from punctstyle.classifiers.options import classifier_params, options_by_classifier
from punctstyle.featuresets import word_methods
from punctstyle.jobs.recognition import RecognitionSettings, recognition_job
from punctstyle.marks import FEATURES
from punctstyle.analyses.recognition_files import read_results, read_word_results
from punctstyle.report.recognition_tables import summarise
from punctstyle.settings import coerce_config_types, config_error, schema_defaults


def settings(overrides: list[str]) -> dict:
    """The schema's defaults with ``KEY=VALUE`` overrides (YAML values), type-coerced."""
    config = schema_defaults()
    for item in overrides:
        key, value = item.split("=", 1)
        node = config
        *path, last = key.split(".")
        for part in path:
            node = node[part]
        node[last] = yaml.safe_load(value)
    config = coerce_config_types(config)
    if importlib.util.find_spec("jsonschema") is None:
        print("jsonschema is not installed: the settings are not validated against the schema")
    else:
        problem = config_error({**config, "outdir": "x"})
        if problem:
            raise SystemExit(problem)
    return config


def planned_rows(tables: dict[str, pd.DataFrame], tasks, sizes, seeds) -> list[tuple[str, str, int]]:
    """The (task, class size, seed) rows the workflow would run, in its order."""
    rows = []
    for task in tasks:
        n_available = labelled_rows(tables["f1"], task)[task_column(task)].nunique()
        for size in sizes:
            class_size = "all" if size == "all" else int(size)
            if n_available < 2 or duplicates_full_corpus_row(class_size, n_available, "all" in sizes):
                continue
            rows.extend((task, size, int(seed)) for seed in seeds)
    return rows


def run_row(
    corpus: Path,
    out: Path,
    row: tuple[str, str, int],
    config: dict,
    device: str,
    threads: int,
    words: Path | None,
    words_only: bool = False,
) -> str:
    """Compute and write one row's files; return a line saying how long it took."""
    task, size, seed = row
    start = time.perf_counter()
    tables = {name: pd.read_parquet(corpus / f"{name}.parquet") for name in FEATURES}
    recognition = config["recognition"]
    methods = {name: sets for name, sets in recognition["methods"].items() if sets}
    config["recognition"]["mlp"]["device"] = device
    stem = out / task / f"{size}_classes" / f"seed{seed}"
    stem.parent.mkdir(parents=True, exist_ok=True)
    methods_words = word_methods(recognition["words"], task) if words else {}
    # as the workflow's recognition rule: each classifier's options from its config section
    options = options_by_classifier(config, classifier_params(config, methods), threads)
    word_options = options_by_classifier(config, classifier_params(config, methods_words), threads)
    outputs = (
        {}
        if words_only
        else {
            "results": f"{stem}_results.csv",
            "per_class": f"{stem}_per_class.csv",
            "confusion": f"{stem}_confusion.parquet",
        }
    )
    if methods_words:
        outputs["words"] = Path(f"{stem}_words.csv")
    recognition_job(
        tables,
        task,
        "all" if size == "all" else int(size),
        seed,
        outputs,
        RecognitionSettings(
            methods=methods,
            test_fraction=recognition["test_fraction"],
            classifier_options=options,
            all_configured=False,
            word_methods=methods_words,
            word_options=word_options,
        ),
        word_matrix=words,
        words_only=words_only,
    )
    return f"{task} {size} seed {seed}: {time.perf_counter() - start:.1f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--set", dest="overrides", action="append", default=[])
    parser.add_argument("--tasks", nargs="+", default=["author", "genre"])
    parser.add_argument("--sizes", nargs="+", default=None, help="class sizes (default: recognition.class_sizes)")
    parser.add_argument("--seeds", nargs="+", type=int, default=None, help="seeds (default: recognition.seeds)")
    parser.add_argument("--device", default="auto")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=1, help="rows computed at once, each in its own process")
    parser.add_argument("--words", type=Path, default=None, help="the corpus word matrix (words.npz)")
    parser.add_argument("--words-only", action="store_true", help="with --words: only the word baselines")
    args = parser.parse_args()
    config = settings(args.overrides)
    recognition = config["recognition"]
    if args.tasks == ["author", "genre"] and not recognition["genre_recognition"]:
        args.tasks = ["author"]
    sizes = list(dict.fromkeys(str(size) for size in (args.sizes or recognition["class_sizes"])))
    seeds = args.seeds if args.seeds is not None else recognition["seeds"]
    tables = {"f1": pd.read_parquet(args.corpus / "f1.parquet")}
    rows = planned_rows(tables, args.tasks, sizes, seeds)
    start = time.perf_counter()
    if args.jobs <= 1:
        for row in rows:
            print(
                run_row(args.corpus, args.out, row, config, args.device, args.threads, args.words, args.words_only),
                flush=True,
            )
    else:
        context = multiprocessing.get_context("spawn")  # CUDA cannot be used in forked children
        with ProcessPoolExecutor(max_workers=args.jobs, mp_context=context) as pool:
            futures = [
                pool.submit(
                    run_row, args.corpus, args.out, row, config, args.device, args.threads, args.words, args.words_only
                )
                for row in rows
            ]
            for future in futures:
                print(future.result(), flush=True)
    print(f"{len(rows)} rows in {time.perf_counter() - start:.1f} s wall", flush=True)
    for task in args.tasks:
        files = sorted(str(path) for path in (args.out / task).glob("*_classes/seed*_results.csv"))
        if files:
            summarise(read_results(files)).to_csv(args.out / f"{task}_summary.csv", index=False)
        word_files = sorted(str(path) for path in (args.out / task).glob("*_classes/seed*_words.csv"))
        words_results = read_word_results(word_files) if word_files else None
        if words_results is not None and len(words_results):
            summarise(words_results).to_csv(args.out / f"{task}_words_summary.csv", index=False)


if __name__ == "__main__":
    main()
