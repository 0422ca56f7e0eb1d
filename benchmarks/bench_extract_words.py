"""Benchmark: how the length curve's word streams are stored (issue 26 item 2).

For ``--books`` books of a results folder (``books/{id}.txt.gz`` and ``sequences/{id}.parquet``
of a finished run, read only) it measures, book by book:

* ``re-tokenize``: what a length-curve row did before, the text re-read, cleaned and
  tokenized on the run's tokenizer rules (:class:`punctstyle.corpus.words.BookWordStreams`),
  CPU seconds;
* for each way of keeping the stream from extraction (word ids against the book's own word
  list, most frequent word first: :func:`punctstyle.book.sequence_file.ranked_word_ids`), the
  bytes on disk and the CPU seconds to read the stream back as words (best of 3):
  ``positions`` (each word's stream positions, a list column of the words file itself),
  ``ids-parquet`` (a separate one-column Parquet file, zstd), ``npy`` (raw ids, uint16 where
  the book has fewer than 65,536 words, else uint32) and ``npz`` (the same, compressed).

Every format's stream is checked against the re-tokenized one. Prints one line per format:
total bytes, bytes per word, read CPU s and its ratio to re-tokenizing.

``--evidence OUT``: the same figures as ``OUT/formats.csv`` and ``OUT/run.json`` (command, commit,
corpus fingerprint, books; benchmarks/evidence_run.py).

Usage: ``python benchmarks/bench_extract_words.py RESULTS [--books N] [--seed S] [--out DIR] [--evidence OUT]``.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

import pandas as pd

from punctstyle.book.sequence_file import read_sequence, ranked_word_ids, read_word_stream, write_words
from punctstyle.book.steps import clean_and_extract_with_word_ids
from punctstyle.corpus.words import BookWordStreams
from punctstyle.io import read_gzip_text
from punctstyle.text.chunk_cache import ChunkCachedExtractor
from punctstyle.text.tokenizer import TokenizerRules

sys.path.insert(0, str(Path(__file__).resolve().parent))
from evidence_run import commit, corpus_fingerprint, write_evidence  # noqa: E402


def cpu(function: Callable[[], object], repeat: int = 3) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.process_time()
        result = function()
        best = min(best, time.process_time() - start)
    return best, result


def id_dtype(n: int) -> type:
    return np.uint16 if n < 65536 else np.uint32


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results")
    parser.add_argument("--books", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None)
    parser.add_argument("--evidence", type=Path, metavar="OUT", help="store formats.csv and run.json in OUT")
    args = parser.parse_args()
    revision = commit()
    root = Path(args.results)
    rules_file = sorted((root / "extraction").glob("tokenizer_rules-spacy*.json"))[0]
    rules = TokenizerRules.load(rules_file)
    ids = sorted(int(p.name.split(".")[0]) for p in (root / "sequences").glob("*.parquet"))
    ok = [i for i in ids if read_sequence(root / "sequences" / f"{i}.parquet")[1].get("status") == "ok"]
    books = random.Random(args.seed).sample(ok, min(args.books, len(ok)))
    sizes: dict[str, int] = {}
    reads: dict[str, float] = {}
    retok = 0.0
    n_words = 0
    text_bytes = 0
    counts_bytes = 0
    with tempfile.TemporaryDirectory(dir=args.out) as tmp:
        out = Path(tmp)
        for book in books:
            sequence, _ = read_sequence(root / "sequences" / f"{book}.parquet")
            text_path = root / "books" / f"{book}.txt.gz"
            text_bytes += text_path.stat().st_size
            seconds, expected = cpu(lambda: BookWordStreams(rules).read(text_path, sequence.marks, sequence.gaps), 1)
            retok += seconds
            vocabulary: dict[str, int] = {}
            again, _, stream = clean_and_extract_with_word_ids(
                read_gzip_text(text_path), ChunkCachedExtractor(rules=rules), vocabulary
            )
            words, counts, ranked = ranked_word_ids(vocabulary, stream)
            n_words += ranked.size
            word_array = np.asarray(words, dtype=object)
            dtype = id_dtype(len(words))
            paths = {
                "positions": out / f"{book}.words.parquet",
                "ids-parquet": out / f"{book}.ids.parquet",
                "npy": out / f"{book}.npy",
                "npz": out / f"{book}.npz",
            }
            write_words(paths["positions"], book, dict(zip(words, counts.tolist())), stream=ranked)
            write_words(out / "counts.parquet", book, dict(zip(words, counts.tolist())))
            counts_bytes += (out / "counts.parquet").stat().st_size
            pq.write_table(pa.table({"id": ranked.astype(dtype)}), paths["ids-parquet"], compression="zstd")
            np.save(paths["npy"], ranked.astype(dtype))
            np.savez_compressed(paths["npz"], ids=ranked.astype(dtype))
            readers = {
                "positions": lambda: read_word_stream(paths["positions"]),
                "ids-parquet": lambda: word_array[pq.ParquetFile(paths["ids-parquet"]).read().column("id").to_numpy()],
                "npy": lambda: word_array[np.load(paths["npy"])],
                "npz": lambda: word_array[np.load(paths["npz"])["ids"]],
            }
            for name, path in paths.items():
                sizes[name] = sizes.get(name, 0) + path.stat().st_size
                seconds, got = cpu(readers[name])
                reads[name] = reads.get(name, 0.0) + seconds
                if list(got) != list(expected):
                    print(f"book {book}: format {name} gives another stream", file=sys.stderr)
                    return 1
    print(f"{len(books)} books, {n_words:,} words, texts {text_bytes:,} bytes (gzip); re-tokenize {retok:.3f} CPU s")
    print(
        f"(positions: the whole words file, its word counts included: {counts_bytes:,} bytes without the "
        f"stream, so the stream takes {(sizes['positions'] - counts_bytes) / n_words:.2f} B/word; "
        "the others: the stream alone)"
    )
    for name in sizes:
        print(
            f"{name:12s} {sizes[name]:>12,} bytes  {sizes[name] / n_words:5.2f} B/word  "
            f"read {reads[name]:.3f} CPU s  ({retok / reads[name]:.0f}x faster than re-tokenizing)"
        )
    if args.evidence:
        rows = [{"way": "re-tokenize", "bytes": text_bytes, "bytes_per_word": text_bytes / n_words,
                 "read_cpu_s": retok, "retokenize_over_read": 1.0}]
        rows += [{"way": name, "bytes": sizes[name], "bytes_per_word": sizes[name] / n_words,
                  "read_cpu_s": reads[name], "retokenize_over_read": retok / reads[name]} for name in sizes]
        rows.append({"way": "positions, stream only", "bytes": sizes["positions"] - counts_bytes,
                     "bytes_per_word": (sizes["positions"] - counts_bytes) / n_words})
        write_evidence(args.evidence, {"formats.csv": pd.DataFrame(rows)}, {
            "command": f"python benchmarks/bench_extract_words.py RESULTS --books {args.books} --seed {args.seed} "
                       "--evidence OUT",
            "commit": revision, "books": sorted(books), "words": n_words, "texts_gzip_bytes": text_bytes,
            "clock": "time.process_time; re-tokenizing once a book, each read best of 3",
            "corpus": corpus_fingerprint(root),
        })
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
