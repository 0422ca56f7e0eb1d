"""Where a book's two processes spend their CPU, piece by piece, on one stored book (issue 37).

For a book's text (``books/{id}.txt.gz`` of a results folder) and the run's tokenizer rules
file, ``--repeats`` fresh child processes of each kind, the kinds interleaved run by run so that
a busy machine weighs on each alike:

* ``extraction``: the steps of ``python -m punctstyle.book.jobs.extract``, timed inside the
  child with ``time.process_time()`` (user + system of the process): the interpreter's start
  (before the first line: Python, ``site``), ``import numpy``, ``import pyarrow.parquet``, the
  package's modules of the job, the tokenizer rules read and compiled
  (:class:`punctstyle.text.chunk_cache.ChunkCachedExtractor`), and the book's work (reading,
  cleaning, extraction, features, three Parquet files; :func:`punctstyle.book.steps.extract_book_files`);
  once with the package compiled from its source in the child (a copy without ``__pycache__``,
  ``PYTHONDONTWRITEBYTECODE=1``: what every process of an editable install pays when that
  variable is set) and once with its bytecode cached (the copy compiled with ``compileall``);
* ``repairs`` (in this process): the CPU of cleaning's two repair patterns on the book's text
  as first written and in their faster form (:data:`punctstyle.text.clean._DASHES`,
  :data:`~punctstyle.text.clean._GLUED_MARK`; the same matches are checked), and of the text's
  gzip compression at level 6 (before) and 1 (:func:`punctstyle.io.write_gzip_text_atomic`),
  with the compressed sizes.

Writes ``OUT/pieces.csv`` (piece, condition, median CPU s over the repeats, least, most; the
sizes in MB) and ``OUT/run.json`` (command, commit, book, text size; benchmarks/evidence_run.py).

Usage: ``python benchmarks/book_pieces.py --text books/ID.txt.gz --rules RULES.json
[--repeats 7] [--evidence OUT]``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from evidence_run import REPO, commit, write_evidence  # noqa: E402

CHILD = """
import json, sys, time
T = time.process_time
t = {"start": T()}
import numpy
t["numpy"] = T()
import pyarrow.parquet
t["pyarrow.parquet"] = T()
from punctstyle.book.inclusion import InclusionRule
from punctstyle.book.steps import extract_book_files
from punctstyle.io import discarding_unreadable
from punctstyle.logs import configure_logging
from punctstyle.text.chunk_cache import ChunkCachedExtractor
from punctstyle.text.tokenizer import TokenizerRules
t["package imports"] = T()
extractor = ChunkCachedExtractor(rules=TokenizerRules.load(sys.argv[2], check_version=False))
t["tokenizer rules read and compiled"] = T()
out = sys.argv[3]
extract_book_files(sys.argv[1], sys.argv[4], int(sys.argv[5]), sequence_path=out + "/s.parquet", words_path=out + "/w.parquet",
                   features_path=out + "/f.parquet", rule=InclusionRule(min_marks=1000, require_quotation_marks="double"),
                   excerpt_marks=None, extractor=extractor)
t["the book's work"] = T()
print(json.dumps(t))
"""
"""One extraction process's steps; prints the cumulative process time after each."""

WRITTEN = {
    "dashes": re.compile(r"\s*(?:—|–|-{2,})\s*"),
    "glued marks": re.compile(r"(?<=[^\W\d_])([,;:?!])(?=[^\W\d_]|[\"'])"),
}
"""Cleaning's two repair patterns as first written (the faster forms must match the same)."""


def step_seconds(cumulative: dict[str, float]) -> dict[str, float]:
    """Each step's own CPU from the cumulative times (in order): ``start`` as it is, then
    ``t[k] - t[k-1]``."""
    names = list(cumulative)
    return {name: cumulative[name] - (cumulative[names[i - 1]] if i else 0.0) for i, name in enumerate(names)}


def package_copies(folder: Path) -> dict[str, Path]:
    """Two copies of the package without ``__pycache__``: ``from source`` as copied, ``bytecode
    cached`` compiled with ``compileall`` (their parent goes first on ``PYTHONPATH``)."""
    copies = {}
    for condition in ("package compiled from source", "package bytecode cached"):
        root = folder / condition.replace(" ", "-")
        shutil.copytree(REPO / "punctstyle", root / "punctstyle", ignore=shutil.ignore_patterns("__pycache__"))
        copies[condition] = root
    cached = copies["package bytecode cached"]
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(cached / "punctstyle")], check=True)
    return copies


def extraction_steps(root: Path, text: Path, rules: Path, provenance: Path, out: Path) -> dict[str, float]:
    """One extraction child with the package of ``root``: each step's CPU s (run in ``root``:
    ``python -c`` puts its working directory first on ``sys.path``, so a checkout there would be
    imported instead of the copy)."""
    env = dict(os.environ, PYTHONPATH=str(root), PYTHONDONTWRITEBYTECODE="1", OPENBLAS_NUM_THREADS="1",
               OMP_NUM_THREADS="1")  # fmt: skip
    book_id = text.name.split(".")[0]
    result = subprocess.run([sys.executable, "-c", CHILD, str(text), str(rules), str(out), str(provenance), book_id],
                            env=env, cwd=root, check=True, capture_output=True, text=True)  # fmt: skip
    return step_seconds(json.loads(result.stdout.strip().splitlines()[-1]))


def cpu_of(function, repeats: int) -> list[float]:
    """Process CPU s of ``function()``, ``repeats`` times."""
    times = []
    for _ in range(repeats):
        start = time.process_time()
        function()
        times.append(time.process_time() - start)
    return times


def repair_rows(text: str, repeats: int) -> list[dict]:
    """The repair patterns written / fast and gzip level 6 / 1 on ``text``: CPU s (and MB)."""
    from punctstyle.text.clean import (
        _DASHES,
        _GLUED_MARK,
        normalise_line_endings,
        normalise_quotes,
        strip_gutenberg_header,
    )

    cleaned = normalise_quotes(strip_gutenberg_header(normalise_line_endings(text)))
    rows = []
    for piece, fast, replacement in (("dashes", _DASHES, " — "), ("glued marks", _GLUED_MARK, r"\1 ")):
        written = WRITTEN[piece]
        same = [m.span() for m in fast.finditer(cleaned)] == [m.span() for m in written.finditer(cleaned)]
        for condition, pattern in (("as written", written), ("faster form", fast)):
            times = cpu_of(lambda p=pattern: p.sub(replacement, cleaned), repeats)
            rows.append(_row(f"repair: {piece}", condition, times, same_matches=same))
    data = text.encode("utf-8")
    for level in (6, 1):
        size = len(gzip.compress(data, compresslevel=level, mtime=0)) / 2**20
        times = cpu_of(lambda lv=level: gzip.compress(data, compresslevel=lv, mtime=0), repeats)
        rows.append(_row("download: gzip of the text", f"level {level}", times, mb=size, gzip_level=level))
    return rows


def _row(piece: str, condition: str, times: list[float], **extra) -> dict:
    return {"piece": piece, "condition": condition, "cpu_s": statistics.median(times), "least_s": min(times),
            "most_s": max(times), **extra}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--text", type=Path, required=True, help="a stored books/{id}.txt.gz")
    parser.add_argument("--rules", type=Path, required=True, help="the run's tokenizer rules file")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--evidence", type=Path, metavar="OUT")
    args = parser.parse_args(argv)
    args.text, args.rules = args.text.resolve(), args.rules.resolve()
    revision = commit()
    text = gzip.decompress(args.text.read_bytes()).decode("utf-8")
    steps: dict[tuple[str, str], list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="punctstyle-book-pieces-") as tmp:
        folder = Path(tmp)
        copies = package_copies(folder)
        provenance = args.text.with_suffix("").with_suffix(".json")
        for _ in range(args.repeats):
            for condition, root in copies.items():
                for step, seconds in extraction_steps(root, args.text, args.rules, provenance, folder).items():
                    steps.setdefault((step, condition), []).append(seconds)
    rows = [_row(f"extraction: {step}", condition, times) for (step, condition), times in steps.items()]
    rows += repair_rows(text, args.repeats)
    table = pd.DataFrame(rows)
    print(table.to_string(index=False))
    if args.evidence:
        write_evidence(args.evidence, {"pieces.csv": table}, {
            "command": f"python benchmarks/book_pieces.py --text books/{args.text.name} --rules RULES "
                       f"--repeats {args.repeats} --evidence OUT",
            "commit": revision, "book": int(args.text.name.split(".")[0]), "text_mb": len(text.encode("utf-8")) / 2**20,
            "clock": "time.process_time() (user + system of the process), median over the repeats",
            "load_1min_after": os.getloadavg()[0],
        })  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
