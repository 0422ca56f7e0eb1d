"""Benchmark: punctuation extraction on real books, fast path vs the plain loop over spaCy.

For every book of the shared Gutenberg mirror (``files/<ID>/<ID>-0.zip``; or a seeded sample
of ``--limit`` books) the text is read, cleaned with :func:`punctstyle.text.clean.clean_text`
(not timed) and extracted three ways, book by book so that any load on the machine hits
the three alike:

* ``spaCy loop``: :func:`punctstyle.text.extract.extract_with_spacy`, the reference definition
  (tokenise the whole text, classify every token);
* ``fast, shared``: one :class:`~punctstyle.text.chunk_cache.ChunkCachedExtractor` for the whole run
  (a process that extracts many books);
* ``fast, cold``: a fresh extractor per book (a workflow job that extracts one book).

spaCy's own tokenizer cache is emptied before each timed call, so every path pays its own
tokenization of each book, as a fresh process would (spaCy's vocabulary stays loaded).
Marks, gaps and ``n_words`` of both fast paths are compared with the reference on every
book; a differing book is listed with its first differing position and the text there.
Throughput is MB of cleaned text (UTF-8) per second, wall clock and CPU time. The peak
memory of each path is measured in a fresh Python process (peak resident size during the
run less the resident size once spaCy is loaded and the text read; Linux ``VmHWM``, see
``_reset_peak``): on the largest book (spaCy, cold) and over all books (shared: its cache
included).

Word counts (the word baselines, issue 12): a fourth timing, ``fast, cold, with words``
(:meth:`~punctstyle.text.chunk_cache.ChunkCachedExtractor.extract_with_words` with a fresh extractor, what
an ``extract_book`` job does), its extra time over ``fast, cold``, the counts compared with
spaCy's word tokens (:func:`punctstyle.text.extract.words_with_spacy`, not timed), and the storage of
the per-book files as the workflow writes them: ``sequences/`` vs ``words/`` (bytes on disk).

Usage: ``python benchmarks/bench_extract.py [--mirror PATH] [--limit N] [--seed S]
[--target 10] [--no-memory]``. Exit status 1 if any book differs or the shared-extractor
speed-up is below ``--target``; 2 if the mirror cannot be read.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from punctstyle.book.sequence_file import write_sequence, write_words
from punctstyle.text.clean import clean_text
from punctstyle.text.chunk_cache import ChunkCachedExtractor
from punctstyle.text.extract import (
    PunctuationSequence,
    classify_token,
    english_tokenizer,
    extract_with_spacy,
    words_with_spacy,
)
from punctstyle.marks import MARKS

REPO = Path(__file__).resolve().parents[1]
DEFAULT_MIRROR = REPO.parent / "shared" / "gutenberg-mirror"
PATHS = ("spacy", "shared", "cold")
LABELS = {
    "spacy": "spaCy loop (reference)",
    "shared": "fast, one extractor (shared)",
    "cold": "fast, fresh per book (cold)",
}


@dataclass
class Timing:
    wall: float = 0.0
    cpu: float = 0.0


@dataclass
class Difference:
    book_id: int
    path: str
    position: int
    detail: str


@dataclass
class Run:
    books: int = 0
    megabytes: float = 0.0
    clean_seconds: float = 0.0
    timings: dict[str, Timing] = field(default_factory=lambda: {p: Timing() for p in PATHS})
    differences: list[Difference] = field(default_factory=list)
    words: Timing = field(default_factory=Timing)
    """fast, cold, with word counts (what an extract_book job does)."""
    word_differences: list[int] = field(default_factory=list)
    """Books whose word counts differ from spaCy's word tokens."""
    sequence_bytes: int = 0
    words_bytes: int = 0
    distinct_words: int = 0


def book_ids(mirror: Path) -> list[int]:
    """The IDs of the zipped books under ``mirror/files``."""
    files = mirror / "files"
    if not files.is_dir():
        raise FileNotFoundError(f"{files}: no such folder (pass --mirror)")
    return sorted(int(p.name) for p in files.iterdir() if p.name.isdigit() and (p / f"{p.name}-0.zip").exists())


def read_book(mirror: Path, book_id: int) -> str:
    """The raw UTF-8 text of ``files/<ID>/<ID>-0.zip``."""
    path = mirror / "files" / str(book_id) / f"{book_id}-0.zip"
    with zipfile.ZipFile(path) as archive:
        names = [n for n in archive.namelist() if n.endswith(".txt")]
        name = f"{book_id}-0.txt" if f"{book_id}-0.txt" in names else names[0]
        return archive.read(name).decode("utf-8")


def flush_spacy_cache() -> None:
    """Empty spaCy's tokenizer cache (what a fresh process starts with)."""
    english_tokenizer()._flush_cache()


def timed(fn: Callable[[], PunctuationSequence], timing: Timing) -> PunctuationSequence:
    flush_spacy_cache()
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    timing.cpu += time.process_time() - cpu
    timing.wall += time.perf_counter() - wall
    return result


def first_difference(ref: PunctuationSequence, got: PunctuationSequence) -> tuple[int, str] | None:
    """None if identical, else the first differing mark position and a description."""
    n = min(len(ref), len(got))
    differs = np.flatnonzero((ref.marks[:n] != got.marks[:n]) | (ref.gaps[:n] != got.gaps[:n]))
    if differs.size:
        k = int(differs[0])
    elif len(ref) != len(got):
        k = n
    elif ref.n_words != got.n_words:
        return len(ref), f"n_words {ref.n_words} (spaCy) vs {got.n_words}"
    else:
        return None

    def show(seq: PunctuationSequence) -> str:
        lo, hi = max(0, k - 3), min(len(seq), k + 4)
        return " ".join(f"{MARKS[m]}/{g}" for m, g in zip(seq.marks[lo:hi].tolist(), seq.gaps[lo:hi].tolist()))

    return k, f"marks/gaps {k - 3 if k >= 3 else 0}..: spaCy [{show(ref)}] vs fast [{show(got)}]"


def text_at_mark(text: str, k: int) -> str:
    """The cleaned text around the reference's ``k``-th mark."""
    seen = 0
    for token in english_tokenizer()(text):
        if 0 <= classify_token(token.text) and seen == k:
            start = max(0, token.idx - 60)
            return repr(text[start : token.idx + 60])
        seen += 0 <= classify_token(token.text)
    return repr(text[-120:])


def run_benchmark(mirror: Path, ids: list[int], texts: list[bytes] | None) -> Run:
    """Time the three paths book by book and compare outputs (module docstring)."""
    run = Run()
    shared = ChunkCachedExtractor()
    english_tokenizer()("Warm up.")
    start = time.perf_counter()
    for n, book_id in enumerate(ids, 1):
        t0 = time.perf_counter()
        text = clean_text(read_book(mirror, book_id))
        run.clean_seconds += time.perf_counter() - t0
        encoded = text.encode("utf-8")
        if texts is not None:
            texts.append(encoded)
        run.books += 1
        run.megabytes += len(encoded) / 1e6
        # cold and shared first: the reference must not pre-warm anything they use
        cold = timed(lambda: ChunkCachedExtractor()(text), run.timings["cold"])
        fast = timed(lambda: shared(text), run.timings["shared"])
        ref = timed(lambda: extract_with_spacy(text), run.timings["spacy"])
        with_words, counts = timed(lambda: ChunkCachedExtractor().extract_with_words(text), run.words)
        if counts != words_with_spacy(text) or first_difference(ref, with_words) is not None:
            run.word_differences.append(book_id)
            print(f"  DIFFERS book {book_id}: word counts or sequence with words", flush=True)
        with tempfile.TemporaryDirectory(prefix="bench_words_") as folder:
            write_sequence(Path(folder, "s.parquet"), book_id, with_words)
            write_words(Path(folder, "w.parquet"), book_id, counts)
            run.sequence_bytes += Path(folder, "s.parquet").stat().st_size
            run.words_bytes += Path(folder, "w.parquet").stat().st_size
        run.distinct_words += len(counts)
        for path, got in (("shared", fast), ("cold", cold)):
            found = first_difference(ref, got)
            if found is not None:
                k, detail = found
                run.differences.append(Difference(book_id, path, k, f"{detail}; text: {text_at_mark(text, k)}"))
                print(f"  DIFFERS book {book_id} ({path}) at mark {k}: {run.differences[-1].detail}", flush=True)
        if n % 50 == 0 or n == len(ids):
            t = run.timings
            print(
                f"  {n}/{len(ids)} books, {run.megabytes:.1f} MB, {time.perf_counter() - start:.0f} s elapsed; "
                f"MB/s spaCy {run.megabytes / t['spacy'].wall:.2f}, shared {run.megabytes / t['shared'].wall:.1f}, "
                f"cold {run.megabytes / t['cold'].wall:.1f}; differing {len(run.differences)}",
                flush=True,
            )
    print(f"  shared extractor: {shared.cache_size:,} distinct chunks cached", flush=True)
    return run


def _status_bytes(name: str) -> int:
    """A ``/proc/self/status`` memory figure (``VmRSS``, ``VmHWM``) in bytes."""
    with open("/proc/self/status") as handle:
        for line in handle:
            if line.startswith(name + ":"):
                return int(line.split()[1]) * 1024
    raise OSError(f"/proc/self/status has no {name}")


def _reset_peak() -> int:
    """Restart the peak-RSS count from the current resident size; return that size.

    ``ru_maxrss`` cannot be used in a child: it keeps the peak of the process image it was
    exec'd from (this benchmark, with every text in memory). ``VmHWM`` is the peak of the
    current image, and writing 5 to ``/proc/self/clear_refs`` resets it (Linux >= 4.0).
    """
    try:
        with open("/proc/self/clear_refs", "w") as handle:
            handle.write("5")
    except OSError:  # not allowed here: the peak then also counts start-up (an upper bound)
        pass
    return _status_bytes("VmRSS")


def memory_child(path: str, folder: Path) -> int:
    """In a fresh process: peak resident memory that ``path`` adds (bytes), on the largest
    text of ``folder`` (spacy, cold) or on all of them in order (shared)."""
    files = sorted(folder.glob("*.txt"))
    extractor = ChunkCachedExtractor()  # loads spaCy and the tokenizer facts
    extract_with_spacy("Warm up, once.")
    if path == "shared":
        base = _reset_peak()
        for file in files:
            extractor(file.read_bytes().decode("utf-8"))
    else:
        text = max(files, key=lambda f: f.stat().st_size).read_bytes().decode("utf-8")
        base = _reset_peak()
        if path == "spacy":
            extract_with_spacy(text)
        else:
            extractor(text)
    return max(0, _status_bytes("VmHWM") - base)


def measure_memory(texts: list[bytes]) -> dict[str, int]:
    """Peak extra memory of each path, each in a fresh Python process (``VmHWM``)."""
    memory: dict[str, int] = {}
    with tempfile.TemporaryDirectory(prefix="bench_extract_") as folder:
        for i, encoded in enumerate(texts):
            Path(folder, f"{i:05d}.txt").write_bytes(encoded)
        for path in PATHS:
            command = [sys.executable, __file__, "--memory-child", path, "--texts", folder]
            done = subprocess.run(command, capture_output=True, text=True, check=False)
            if done.returncode != 0:
                raise RuntimeError(f"memory child for {path} failed: {done.stderr.strip()[-500:]}")
            memory[path] = int(done.stdout.split()[-1])
    return memory


def report(run: Run, memory: dict[str, int] | None, target: float, largest_mb: float) -> bool:
    """Print the table; True when no book differs and the shared speed-up meets the target."""
    t = run.timings
    print()
    print(
        f"Extraction on {run.books} books, {run.megabytes:.1f} MB of cleaned text "
        f"({os.cpu_count()} cores; cleaning, not timed: {run.clean_seconds:.0f} s)"
    )
    mem_header = f"  {'peak MB':>8}" if memory else ""
    print(f"{'path':<30} {'books':>6} {'MB':>8} {'wall s':>9} {'MB/s':>8} {'cpu s':>9} {'MB/s cpu':>9}{mem_header}")
    for path in PATHS:
        mem = f"  {memory[path] / 1e6:8.0f}" if memory else ""
        print(
            f"{LABELS[path]:<30} {run.books:>6} {run.megabytes:>8.1f} {t[path].wall:>9.2f} "
            f"{run.megabytes / t[path].wall:>8.2f} {t[path].cpu:>9.2f} {run.megabytes / t[path].cpu:>9.2f}{mem}"
        )
    if memory:
        print(
            f"(peak MB: extra resident memory; spaCy and cold on the largest book, {largest_mb:.1f} MB; "
            "shared over all books, its cache included)"
        )
    ok = True
    for path in ("shared", "cold"):
        wall, cpu = t["spacy"].wall / t[path].wall, t["spacy"].cpu / t[path].cpu
        line = f"ratio {path:<6} / spaCy: {wall:6.1f}x wall, {cpu:6.1f}x cpu"
        if path == "shared":
            met = wall >= target
            ok &= met
            line += f"   (target >= {target:g}x: {'met' if met else 'NOT MET'})"
        print(line)
    extra = run.words.wall / t["cold"].wall - 1
    print(
        f"word counts: fast, cold, with words {run.words.wall:.2f} s wall, {run.words.cpu:.2f} s cpu: "
        f"{100 * extra:+.1f} % wall over fast, cold ({100 * (run.words.cpu / t['cold'].cpu - 1):+.1f} % cpu); "
        f"books whose word counts differ from spaCy's word tokens: {len(run.word_differences)}"
    )
    print(
        f"storage: sequences/ {run.sequence_bytes / 1e6:.2f} MB, words/ {run.words_bytes / 1e6:.2f} MB "
        f"({run.words_bytes / max(run.sequence_bytes, 1):.2f} x the sequences, "
        f"{100 * run.words_bytes / (run.megabytes * 1e6):.1f} % of the cleaned text); "
        f"{run.distinct_words / max(run.books, 1):,.0f} distinct words a book"
    )
    ok &= not run.word_differences
    by_path = {p: sorted({d.book_id for d in run.differences if d.path == p}) for p in ("shared", "cold")}
    differing = sorted({d.book_id for d in run.differences})
    print(
        f"books whose marks, gaps or n_words differ from spaCy: {len(differing)} "
        f"(shared {len(by_path['shared'])}, cold {len(by_path['cold'])})"
    )
    for d in run.differences:
        print(f"  book {d.book_id} ({d.path}), first difference at mark {d.position}: {d.detail}")
    return ok and not differing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--mirror", type=Path, default=DEFAULT_MIRROR, help=f"Gutenberg mirror (default {DEFAULT_MIRROR})"
    )
    parser.add_argument("--limit", type=int, default=None, help="number of books, a seeded random sample (default all)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the --limit sample (default 0)")
    parser.add_argument("--target", type=float, default=10.0, help="required shared speed-up (default 10)")
    parser.add_argument("--no-memory", action="store_true", help="skip the peak-memory measurement")
    parser.add_argument("--memory-child", choices=PATHS, help=argparse.SUPPRESS)
    parser.add_argument("--texts", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.memory_child:
        print(memory_child(args.memory_child, args.texts))
        return 0
    if args.limit is not None and args.limit < 1:
        parser.error("--limit must be at least 1")
    try:
        ids = book_ids(args.mirror)
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not ids:
        print(f"error: {args.mirror}/files holds no <ID>/<ID>-0.zip", file=sys.stderr)
        return 2
    if args.limit is not None and args.limit < len(ids):
        ids = sorted(random.Random(args.seed).sample(ids, args.limit))
    print(f"{len(ids)} books from {args.mirror}", flush=True)
    texts: list[bytes] | None = None if args.no_memory else []
    run = run_benchmark(args.mirror, ids, texts)
    memory = None
    largest_mb = 0.0
    if texts:
        print("  measuring peak memory, one fresh process per path...", flush=True)
        try:
            memory = measure_memory(texts)
        except (OSError, RuntimeError) as exc:
            print(f"  peak memory not measured: {exc}", flush=True)
        largest_mb = max(len(t) for t in texts) / 1e6
    return 0 if report(run, memory, args.target, largest_mb) else 1


if __name__ == "__main__":
    sys.exit(main())
