"""Benchmark: punctuation extraction on real books, fast path vs the plain loop over spaCy.

For every book of the shared Gutenberg mirror (``files/<ID>/<ID>-0.zip``; or a seeded sample
of ``--limit`` books) the text is read, cleaned with :func:`punctstyle.clean.clean_text`
(not timed) and extracted three ways, book by book so that any load on the machine hits
the three alike:

* ``spaCy loop``: :func:`punctstyle.extract.extract_with_spacy`, the reference definition
  (tokenise the whole text, classify every token);
* ``fast, shared``: one :class:`~punctstyle.extract.ChunkCachedExtractor` for the whole run
  (a process that extracts many books);
* ``fast, cold``: a fresh extractor per book (a workflow job that extracts one book).

spaCy's own tokenizer cache is emptied before each timed call, so every path pays its own
tokenization of each book, as a fresh process would (spaCy's vocabulary stays loaded).
Marks, gaps and ``n_words`` of both fast paths are compared with the reference on every
book; a differing book is listed with its first differing position and the text there.
Throughput is MB of cleaned text (UTF-8) per second, wall clock and CPU time. The peak
memory of each path (``ru_maxrss`` of a forked child, less the child's resident size at
the fork) is measured on the largest book (spaCy, cold) and on all books (shared).

Usage: ``python benchmarks/bench_extract.py [--mirror PATH] [--limit N] [--seed S]
[--target 10] [--no-memory]``. Exit status 1 if any book differs or the shared-extractor
speed-up is below ``--target``; 2 if the mirror cannot be read.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import sys
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from punctstyle.clean import clean_text
from punctstyle.extract import (
    ChunkCachedExtractor,
    PunctuationSequence,
    classify_token,
    english_tokenizer,
    extract_with_spacy,
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


def _resident_bytes() -> int:
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def peak_extra_memory(work: Callable[[], None]) -> int:
    """Peak resident memory that ``work`` adds, measured in a forked child (bytes)."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.close(read_end)
        status = 0
        try:
            base = _resident_bytes()
            work()
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
            os.write(write_end, str(max(0, peak - base)).encode())
        except BaseException as exc:  # report any failure to the parent, then leave
            os.write(write_end, f"error {exc!r}".encode())
            status = 1
        finally:
            os._exit(status)
    os.close(write_end)
    with os.fdopen(read_end) as handle:
        answer = handle.read()
    os.waitpid(pid, 0)
    if answer.startswith("error"):
        raise RuntimeError(f"memory child failed: {answer}")
    return int(answer)


def measure_memory(texts: list[bytes]) -> dict[str, int]:
    """Peak extra memory of each path: spaCy and cold on the largest book, shared on all."""
    largest = max(texts, key=len)

    def spacy_largest() -> None:
        extract_with_spacy(largest.decode("utf-8"))

    def cold_largest() -> None:
        ChunkCachedExtractor()(largest.decode("utf-8"))

    def shared_all() -> None:
        extractor = ChunkCachedExtractor()
        for encoded in texts:
            extractor(encoded.decode("utf-8"))

    return {"spacy": peak_extra_memory(spacy_largest), "cold": peak_extra_memory(cold_largest), "shared": peak_extra_memory(shared_all)}


def report(run: Run, memory: dict[str, int] | None, target: float, largest_mb: float) -> bool:
    """Print the table; True when no book differs and the shared speed-up meets the target."""
    t = run.timings
    print()
    print(f"Extraction on {run.books} books, {run.megabytes:.1f} MB of cleaned text "
          f"({os.cpu_count()} cores; cleaning, not timed: {run.clean_seconds:.0f} s)")
    mem_header = f"  {'peak MB':>8}" if memory else ""
    print(f"{'path':<30} {'books':>6} {'MB':>8} {'wall s':>9} {'MB/s':>8} {'cpu s':>9} {'MB/s cpu':>9}{mem_header}")
    for path in PATHS:
        mem = f"  {memory[path] / 1e6:8.0f}" if memory else ""
        print(
            f"{LABELS[path]:<30} {run.books:>6} {run.megabytes:>8.1f} {t[path].wall:>9.2f} "
            f"{run.megabytes / t[path].wall:>8.2f} {t[path].cpu:>9.2f} {run.megabytes / t[path].cpu:>9.2f}{mem}"
        )
    if memory:
        print(f"(peak MB: extra resident memory; spaCy and cold on the largest book, {largest_mb:.1f} MB; "
              "shared over all books, its cache included)")
    ok = True
    for path in ("shared", "cold"):
        wall, cpu = t["spacy"].wall / t[path].wall, t["spacy"].cpu / t[path].cpu
        line = f"ratio {path:<6} / spaCy: {wall:6.1f}x wall, {cpu:6.1f}x cpu"
        if path == "shared":
            met = wall >= target
            ok &= met
            line += f"   (target >= {target:g}x: {'met' if met else 'NOT MET'})"
        print(line)
    by_path = {p: sorted({d.book_id for d in run.differences if d.path == p}) for p in ("shared", "cold")}
    differing = sorted({d.book_id for d in run.differences})
    print(f"books whose marks, gaps or n_words differ from spaCy: {len(differing)} "
          f"(shared {len(by_path['shared'])}, cold {len(by_path['cold'])})")
    for d in run.differences:
        print(f"  book {d.book_id} ({d.path}), first difference at mark {d.position}: {d.detail}")
    return ok and not differing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mirror", type=Path, default=DEFAULT_MIRROR, help=f"Gutenberg mirror (default {DEFAULT_MIRROR})")
    parser.add_argument("--limit", type=int, default=None, help="number of books, a seeded random sample (default all)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the --limit sample (default 0)")
    parser.add_argument("--target", type=float, default=10.0, help="required shared speed-up (default 10)")
    parser.add_argument("--no-memory", action="store_true", help="skip the peak-memory children")
    args = parser.parse_args(argv)
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
        print("  measuring peak memory in forked children...", flush=True)
        memory = measure_memory(texts)
        largest_mb = max(len(t) for t in texts) / 1e6
    return 0 if report(run, memory, args.target, largest_mb) else 1


if __name__ == "__main__":
    sys.exit(main())
