"""Benchmark: corpus-level steps at full-catalogue scale (15,000 books) on synthetic features.

Synthetic books with the real feature sizes (f1 10, f2 100, f3 100, f4 200, f5 40, f6 100, f7 1000;
f3 about 60% zeros; f1, f3, f4, f5 distributions, f2 row-stochastic, f6 mean gaps), 650
authors (at least 10 books each) and catalogue-like metadata. Each step runs in a fresh
worker process, so that its peak resident set size (``ru_maxrss``) is its own:

``prepare``  one ``features/{id}.parquet`` per book (``punctstyle.book.feature_rows.write_feature_row``,
             what rule extract_book writes) and ``selection.parquet``: the inputs of
             rule corpus_tables (setup, timed for information);
``tables``   what rule corpus_tables does: ``read_feature_rows`` of every per-book file,
             ``build_corpus``, the six ``feature_table`` Parquet files written, then read
             back with ``feature_matrix`` (what the analysis rules load);
``tables_unbatched`` (not run by default) the same, but every one-row table is held at
             once before joining (``read_feature_rows(paths, batch=len(paths))``, the
             behaviour before the library batched them): 10.3 GiB at 15k books, for comparison;
``kl``       all-pairs KL of f3, ``pairwise_kl`` (n x n, ``--dtype`` output, float32 by
             default);
``mlp``      one ``train_mlp`` on the feature set ``all`` (550 inputs), hidden layer
             ``--hidden`` (2000), every author a class, trained on a stratified 80% split
             for ``--epochs`` epochs on the CPU with ``--threads`` threads;
``words``    the word baselines' corpus matrix (issue 12): per book, Poisson word counts of
             ``--book-words`` (70,000) tokens a book from a Zipf law (exponent 1.07, each
             book's own log-normal tilt) over the 5,000 commonest words, plus 200 words of
             its own (names: counts 1 to 60) from the rest of ``--vocabulary`` (200,000);
             ``build_word_matrix`` (two passes over the books, generated
             anew each time) pools each book's ``--pool`` (2,000) most frequent words and
             stores the exact count of every pool word in every book, ``write_word_matrix`` /
             ``read_word_matrix``, then what a recognition row does: relative frequencies,
             ``select_vocabulary`` of the top 1,000 on an 80 % training share, and the dense
             (books x 1,000) float64 matrix the classifiers get.

Prints one row per step: seconds (wall, the step alone), CPU seconds of the whole worker
(user + system, all threads, synthetic inputs included), peak RSS of the worker (MiB), its
RSS before the step (imports and synthetic inputs), and the load average before the step
(the machine is shared: the wall times grow with the load; the memory figures do not).

Usage: ``python benchmarks/bench_corpus_scale.py [--n 15000] [--steps prepare,tables,kl,mlp]``
(``--n 2000`` for a quick run; ``--workdir DIR --steps tables_unbatched`` reuses the per-book
files of an earlier run kept in DIR). Exit status 1 if a step fails.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

from punctstyle.marks import FEATURE_SIZES, FEATURES, N_MARKS, feature_column_names

STEPS = ("prepare", "tables", "tables_unbatched", "kl", "mlp", "words")
DEFAULT_STEPS = ("prepare", "tables", "kl", "mlp", "words")
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")
SHELVES = (
    "Adventure",
    "Humor",
    "Horror",
    "Science Fiction",
    "Poetry",
    "Historical Fiction",
    "Children's Fiction",
)


# --------------------------------------------------------------------------- synthetic corpus


def _normalise(values: np.ndarray) -> np.ndarray:
    totals = values.sum(axis=-1, keepdims=True)
    return np.divide(values, totals, out=np.zeros_like(values), where=totals > 0)


def author_of_books(n_books: int, n_authors: int, rng: np.random.Generator) -> np.ndarray:
    """Author index per book: ``min(10, n_books // n_authors)`` each, the rest Zipf-like."""
    base = min(10, n_books // n_authors)
    fixed = np.repeat(np.arange(n_authors), base)
    weights = 1.0 / np.arange(1, n_authors + 1) ** 0.8
    extra = rng.choice(n_authors, size=n_books - fixed.size, p=weights / weights.sum())
    return rng.permutation(np.concatenate([fixed, extra]))


def transition_weights(n_authors: int, rng: np.random.Generator) -> np.ndarray:
    """Per-author expected joint transition frequencies (n_authors, 100), heavy-tailed."""
    corpus = np.sort(rng.dirichlet(np.full(N_MARKS * N_MARKS, 0.5)))[::-1]
    style = rng.gamma(shape=5.0, scale=0.2, size=(n_authors, corpus.size))
    return _normalise(corpus * style)


def synthetic_features(authors: np.ndarray, n_authors: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """f1..f7 arrays (n_books, size) for the given author indices."""
    n = authors.size
    weights = transition_weights(n_authors, rng)[authors]  # (n, 100)
    # presence 1 - exp(-c w): about 60% zeros at c = 100; the most frequent pair always present
    presence = 1.0 - np.exp(-100.0 * weights)
    presence[:, np.argmax(weights.mean(axis=0))] = 1.0
    counts = rng.gamma(shape=200.0 * weights + 0.05) * (rng.random(weights.shape) < presence)
    f3 = _normalise(counts)
    matrix = f3.reshape(n, N_MARKS, N_MARKS)
    f1 = matrix.sum(axis=2)
    f2 = _normalise(matrix).reshape(n, -1)
    f6 = np.where(f3 > 0, rng.gamma(shape=2.0, scale=5.0, size=f3.shape), 0.0)
    k4 = np.arange(1, FEATURE_SIZES["f4"] + 1)
    scale4 = rng.uniform(4.0, 25.0, size=(n, 1))
    f4 = (k4**1.3) * np.exp(-k4 / scale4) * rng.gamma(20.0, size=(n, k4.size))
    f4[f4 < 1e-7 * f4.max(axis=1, keepdims=True)] = 0.0
    k5 = np.arange(1, FEATURE_SIZES["f5"] + 1)
    scale5 = rng.uniform(1.5, 6.0, size=(n, 1))
    f5 = k5 * np.exp(-k5 / scale5) * rng.gamma(20.0, size=(n, k5.size))
    # f7 (ordered triples) as a second-order chain of the same book: f3[a, b] * P(c | b), P = f2
    f7 = (matrix[:, :, :, None] * f2.reshape(n, N_MARKS, N_MARKS)[:, None, :, :]).reshape(n, -1)
    features = {
        "f1": f1,
        "f2": f2,
        "f3": f3,
        "f4": _normalise(f4),
        "f5": _normalise(f5),
        "f6": f6,
        "f7": _normalise(f7),
    }
    assert all(features[f].shape == (n, FEATURE_SIZES[f]) for f in FEATURES)
    return features


def synthetic_corpus(n_books: int, n_authors: int, seed: int):
    """``(selection, rows, features, labels)``: selection metadata, feature rows, arrays."""
    rng = np.random.default_rng(seed)
    n_authors = max(2, min(n_authors, n_books // 2))
    authors = author_of_books(n_books, n_authors, rng)
    features = synthetic_features(authors, n_authors, rng)
    book_ids = np.sort(rng.choice(np.arange(1, 60_000), size=n_books, replace=False)).astype(np.int64)
    names = np.array([f"Author{a:04d}, Synthetic" for a in range(n_authors)], dtype=object)
    birth = rng.integers(1500, 1950, size=n_authors)
    shelf_count = rng.choice(3, size=n_books, p=[0.5, 0.4, 0.1])
    shelves = [list(rng.choice(SHELVES, size=k, replace=False)) for k in shelf_count]
    selection = pd.DataFrame(
        {
            "book_id": book_ids,
            "title": [f"Synthetic book {i}" for i in book_ids],
            "author": names[authors],
            "birth": pd.array(birth[authors], dtype="Int64"),
            "death": pd.array(birth[authors] + 60, dtype="Int64"),
            "bookshelves": shelves,
            "language": "en",
            "issued": "2000-01-01",
            "subjects": "",
        }
    )
    n_marks = rng.lognormal(np.log(30_000), 0.8, size=n_books).astype(np.int64) + 100
    columns = {
        "book_id": book_ids,
        "status": "included",
        "stage": "",
        "reason": "",
        "n_marks": n_marks,
        "n_words": 5 * n_marks,
    }
    for name in FEATURES:
        columns.update(zip(feature_column_names(name), features[name].T))
    rows = pd.DataFrame(columns)
    return selection, rows, features, names[authors]


# --------------------------------------------------------------------------- steps (workers)


def _rss_now() -> int:
    with open("/proc/self/statm", "rb") as handle:
        return int(handle.read().split()[1]) * PAGE_SIZE


def _step_prepare(args, workdir: Path) -> str:
    from punctstyle.book.feature_rows import write_feature_row
    from punctstyle.io import write_parquet_atomic

    selection, rows, _, _ = synthetic_corpus(args.n, args.authors, args.seed)
    folder = workdir / "features"
    folder.mkdir(parents=True, exist_ok=True)
    write_parquet_atomic(selection, workdir / "selection.parquet")
    for row in rows.to_dict(orient="records"):
        row["book_id"], row["n_marks"], row["n_words"] = (
            int(row["book_id"]),
            int(row["n_marks"]),
            int(row["n_words"]),
        )
        write_feature_row(folder / f"{row['book_id']}.parquet", row)
    size = sum(p.stat().st_size for p in folder.iterdir())
    return f"{len(rows)} per-book files, {size / 2**20:.0f} MiB"


def _step_tables(args, workdir: Path, unbatched: bool = False) -> str:
    from punctstyle.corpus.tables import build_corpus, feature_matrix, feature_table, read_feature_rows
    from punctstyle.io import write_parquet_atomic

    selection = pd.read_parquet(workdir / "selection.parquet")
    paths = [str(workdir / "features" / f"{i}.parquet") for i in selection["book_id"]]
    # the library default (batched), or every one-row table held at once (the old behaviour)
    rows = read_feature_rows(paths, batch=max(1, len(paths))) if unbatched else read_feature_rows(paths)
    corpus, exclusions = build_corpus(
        selection,
        rows,
        min_docs_per_author=10,
        genre_shelves="paper",
        genre_min_docs=10,
        genre_multi_shelf_rule="most_specific",
    )
    del rows
    out = workdir / ("corpus_unbatched" if unbatched else "corpus")
    out.mkdir(exist_ok=True)
    for feature in FEATURES:
        write_parquet_atomic(feature_table(corpus, feature), out / f"{feature}.parquet")
    n_corpus = len(corpus)
    del corpus
    tables = {f: pd.read_parquet(out / f"{f}.parquet") for f in FEATURES}
    widths = sum(feature_matrix(tables[f], f).shape[1] for f in FEATURES)
    size = sum((out / f"{f}.parquet").stat().st_size for f in FEATURES)
    return f"{n_corpus} books in corpus, {len(exclusions)} excluded, {widths} feature columns, tables {size / 2**20:.0f} MiB"


def _step_kl(args, workdir: Path) -> tuple[str, float, int]:
    from punctstyle.divergence import pairwise_kl

    _, _, features, _ = synthetic_corpus(args.n, args.authors, args.seed)
    f3 = np.ascontiguousarray(features["f3"])
    del features
    before = _rss_now()
    start = time.perf_counter()
    D = pairwise_kl(f3, dtype=np.dtype(args.dtype))
    seconds = time.perf_counter() - start
    note = f"{D.shape[0]} x {D.shape[1]} {D.dtype} ({D.nbytes / 2**30:.2f} GiB), zeros in f3 {np.mean(f3 == 0):.2f}"
    return note, seconds, before


def _step_mlp(args, workdir: Path) -> tuple[str, float, int]:
    from punctstyle.classifiers.mlp import MLPParams, train_mlp
    from punctstyle.featuresets import stack_features
    from punctstyle.settings import schema_default
    from punctstyle.experiments.row import documents_split

    _, _, features, labels = synthetic_corpus(args.n, args.authors, args.seed)
    X = stack_features(features, "all")
    del features
    train, _ = documents_split(labels, None, 0.2, np.random.default_rng(args.seed))
    settings = {
        **schema_default("recognition", "mlp"),
        "hidden_units": args.hidden,
        "max_epochs": args.epochs,
        "patience": args.epochs + 1,
    }
    params = MLPParams.from_config(settings)
    before = _rss_now()
    start = time.perf_counter()
    model = train_mlp(X[train], labels[train], params=params, seed=args.seed, device="cpu", num_threads=args.threads)
    seconds = time.perf_counter() - start
    n_params = sum(p.numel() for p in model.network.parameters())
    note = (
        f"{train.size} x {X.shape[1]} inputs, {model.classes.size} classes, hidden {args.hidden}, "
        f"{model.epochs} epochs ({seconds / max(model.epochs, 1):.1f} s/epoch), {n_params / 1e6:.2f} M weights"
    )
    return note, seconds, before


def _step_words(args, workdir: Path) -> tuple[str, float, int]:
    from punctstyle.corpus.words import build_word_matrix, read_word_matrix, select_vocabulary, write_word_matrix

    rng = np.random.default_rng(args.seed)
    vocabulary = np.array([f"w{i:06d}" for i in range(args.vocabulary)])
    head = 5000
    zipf = 1.0 / np.arange(1, head + 1) ** 1.07
    zipf /= zipf.sum()

    class Books:
        """The synthetic books, the same ones on each pass (build_word_matrix reads them twice)."""

        def __iter__(self):
            book_rng = np.random.default_rng([args.seed, 1])
            for book_id in range(args.n):
                # each book tilts the law a little (its favourite words) and has words of its own
                counts = book_rng.poisson(args.book_words * zipf * book_rng.lognormal(0.0, 0.5, head))
                own = book_rng.choice(np.arange(head, args.vocabulary), size=200, replace=False)
                words = np.concatenate([vocabulary[:head], vocabulary[own]])
                counts = np.concatenate([counts, book_rng.integers(1, 61, size=200)])
                present = np.flatnonzero(counts)
                yield book_id, words[present], counts[present], int(counts.sum())

    before = _rss_now()
    start = time.perf_counter()
    matrix = build_word_matrix(Books(), args.pool)
    path = workdir / "words.npz"
    write_word_matrix(path, matrix)
    del matrix
    matrix = read_word_matrix(path)
    freqs = matrix.relative_frequencies(matrix.book_ids)
    train = np.sort(rng.choice(args.n, size=int(0.8 * args.n), replace=False))
    chosen = select_vocabulary(freqs[train], 1000, matrix.cutoff[train])
    dense = freqs[:, chosen.columns].toarray()
    seconds = time.perf_counter() - start
    note = (
        f"pool {matrix.vocabulary.size} words, {matrix.counts.nnz / 1e6:.1f} M exact counts, file {path.stat().st_size / 2**20:.0f} MiB; "
        f"top 1000 proven {chosen.proven}; dense {dense.shape[0]} x {dense.shape[1]} float64 {dense.nbytes / 2**20:.0f} MiB"
    )
    return note, seconds, before


def worker(args) -> int:
    workdir = Path(args.workdir)
    if args.worker in ("prepare", "tables", "tables_unbatched"):
        before = _rss_now()
        start = time.perf_counter()
        if args.worker == "prepare":
            note = _step_prepare(args, workdir)
        else:
            note = _step_tables(args, workdir, unbatched=args.worker == "tables_unbatched")
        seconds = time.perf_counter() - start
    else:
        step = {"kl": _step_kl, "mlp": _step_mlp, "words": _step_words}[args.worker]
        note, seconds, before = step(args, workdir)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    peak = usage.ru_maxrss * 1024  # Linux: KiB
    cpu = usage.ru_utime + usage.ru_stime  # the whole worker (synthetic inputs included)
    print(json.dumps({"seconds": seconds, "cpu": cpu, "peak": peak, "before": before, "note": note}))
    return 0


# --------------------------------------------------------------------------- driver


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=15_000, help="books (default 15000)")
    parser.add_argument("--authors", type=int, default=650, help="authors = MLP classes (default 650)")
    parser.add_argument("--steps", default=",".join(DEFAULT_STEPS), help=f"comma-separated, some of {','.join(STEPS)}")
    parser.add_argument("--dtype", choices=("float32", "float64"), default="float32", help="KL output dtype")
    parser.add_argument("--hidden", type=int, default=2000, help="MLP hidden units (default 2000)")
    parser.add_argument("--epochs", type=int, default=3, help="MLP epochs (default 3)")
    parser.add_argument("--threads", type=int, default=2, help="torch threads (default 2)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--vocabulary", type=int, default=200_000, help="words step: distinct words (default 200000)")
    parser.add_argument("--book-words", type=int, default=70_000, help="words step: tokens a book (default 70000)")
    parser.add_argument("--pool", type=int, default=2000, help="words step: pool_per_book (default 2000)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    parser.add_argument(
        "--workdir", help="use (and keep) this folder; 'tables' without 'prepare' reuses its per-book files"
    )
    parser.add_argument("--worker", choices=STEPS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return worker(args)

    steps = [s for s in args.steps.split(",") if s]
    unknown = [s for s in steps if s not in STEPS]
    if unknown:
        parser.error(f"unknown step {unknown[0]!r}: expected some of {', '.join(STEPS)}")
    keep = args.keep or args.workdir is not None
    workdir = Path(args.workdir) if args.workdir else Path(tempfile.mkdtemp(prefix="punctstyle-bench-corpus-"))
    workdir.mkdir(parents=True, exist_ok=True)
    first_tables = next((s for s in steps if s.startswith("tables")), None)
    if first_tables and "prepare" not in steps and not (workdir / "selection.parquet").is_file():
        steps.insert(steps.index(first_tables), "prepare")
    common = [
        "--n",
        str(args.n),
        "--authors",
        str(args.authors),
        "--dtype",
        args.dtype,
        "--hidden",
        str(args.hidden),
    ]
    common += ["--epochs", str(args.epochs), "--threads", str(args.threads), "--seed", str(args.seed)]
    common += ["--vocabulary", str(args.vocabulary), "--book-words", str(args.book_words), "--pool", str(args.pool)]
    print(f"{args.n} synthetic books, {args.authors} authors; {os.cpu_count()} cores; workdir {workdir}")
    results, failed = [], False
    try:
        for step in steps:
            load = os.getloadavg()[0]
            command = [sys.executable, __file__, "--worker", step, "--workdir", str(workdir), *common]
            proc = subprocess.run(command, capture_output=True, text=True)
            if proc.returncode != 0:
                print(f"step {step} failed (rc {proc.returncode}):\n{proc.stderr[-4000:]}", file=sys.stderr)
                failed = True
                break
            record = json.loads(proc.stdout.strip().splitlines()[-1])
            results.append((step, record, load))
            print(f"  {step}: {record['seconds']:.1f} s, peak {record['peak'] / 2**20:.0f} MiB", flush=True)
    finally:
        if keep:
            print(f"kept {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    header = ("step", "seconds", "worker CPU s", "peak MiB", "before MiB", "load", "what")
    rows = [
        (
            step,
            f"{r['seconds']:.1f}",
            f"{r['cpu']:.1f}",
            f"{r['peak'] / 2**20:.0f}",
            f"{r['before'] / 2**20:.0f}",
            f"{load:.2f}",
            r["note"],
        )
        for step, r, load in results
    ]
    widths = [max(len(h), *(len(row[i]) for row in rows)) if rows else len(h) for i, h in enumerate(header)]
    print()
    for row in (header, *rows):
        print("  ".join(c.ljust(w) if i in (0, 6) else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))))
    by_step = {step: r for step, r, _ in results}
    if "tables" in by_step and "tables_unbatched" in by_step:
        plain, batched = by_step["tables"], by_step["tables_unbatched"]
        print(
            f"tables_unbatched vs tables (baseline): peak {batched['peak'] / plain['peak']:.2f}x, "
            f"CPU {batched['cpu'] / plain['cpu']:.2f}x"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
