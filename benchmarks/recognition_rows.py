"""The recognition grid (Tables 2-4) of a finished corpus, without Snakemake: for another
machine (a GPU box) or a quick what-if on the settings, with the same code as the rules
(`punctstyle.analysis.recognition_run` per (task, class size, seed), the same row files, the
same summary tables).

    python benchmarks/recognition_rows.py CORPUS_DIR OUT_DIR [--set recognition.mlp.stopping=validation ...]
        [--tasks author genre] [--device auto] [--threads 2]

CORPUS_DIR holds the corpus tables (`f1.parquet` ...) of a run; the settings are the schema's
defaults with the `--set KEY=VALUE` overrides (YAML values). Prints the seconds each row took
and writes `OUT_DIR/{task}/{classes}_classes/seed{seed}_*` and `OUT_DIR/{task}_summary.csv`.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pandas as pd
import yaml

from punctstyle.analysis import duplicates_full_corpus_row, labelled_rows, recognition_run, task_column
from punctstyle.marks import FEATURES
from punctstyle.recognition_files import read_results, write_row_files
from punctstyle.recognition_tables import summarise
from punctstyle.settings import coerce_config_types, config_error, schema_defaults, without_execution_keys


def settings(overrides: list[str]) -> dict:
    config = schema_defaults()
    for item in overrides:
        key, value = item.split("=", 1)
        node = config
        *path, last = key.split(".")
        for part in path:
            node = node[part]
        node[last] = yaml.safe_load(value)
    config = coerce_config_types(config)
    problem = config_error({**config, "outdir": "x"})
    if problem:
        raise SystemExit(problem)
    return config


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--set", dest="overrides", action="append", default=[])
    parser.add_argument("--tasks", nargs="+", default=["author", "genre"])
    parser.add_argument("--device", default="auto")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    config = settings(args.overrides)
    recognition = config["recognition"]
    methods = {name: sets for name, sets in recognition["methods"].items() if sets}
    mlp = without_execution_keys(config)["recognition"]["mlp"]
    options = {"mlp": {"params": mlp, "device": args.device, "num_threads": args.threads}}
    tables = {name: pd.read_parquet(args.corpus / f"{name}.parquet") for name in FEATURES}
    sizes = list(dict.fromkeys(str(size) for size in recognition["class_sizes"]))
    for task in args.tasks:
        n_available = labelled_rows(tables["f1"], task)[task_column(task)].nunique()
        files = []
        for size in sizes:
            class_size = "all" if size == "all" else int(size)
            if n_available < 2 or duplicates_full_corpus_row(class_size, n_available, "all" in sizes):
                continue
            for seed in recognition["seeds"]:
                start = time.perf_counter()
                run = recognition_run(tables, task, class_size, int(seed), methods=methods,
                                      test_fraction=recognition["test_fraction"], classifier_options=options)
                stem = args.out / task / f"{size}_classes" / f"seed{seed}"
                stem.parent.mkdir(parents=True, exist_ok=True)
                paths = [f"{stem}_results.csv", f"{stem}_per_class.csv", f"{stem}_confusion.parquet"]
                write_row_files(*paths, run.results, run.per_class, run.confusion)
                files.append(paths[0])
                print(f"{task} {size} seed {seed}: {time.perf_counter() - start:.1f} s", flush=True)
        if files:
            summarise(read_results(files)).to_csv(args.out / f"{task}_summary.csv", index=False)


if __name__ == "__main__":
    main()
