"""Benchmark: Snakemake's main-process CPU per job as the corpus grows (issue 10 item 2).

Generates ``--books`` tiny books (a few hundred words with marks, ``--per-author`` books by
each author) in a ``file://`` mirror in a temporary folder, with their catalog, runs the
catalog and selection checkpoint for real, then for each ``--variants`` entry (extra
snakemake options, e.g. ``"--scheduler greedy"``, ``"--scheduler ilp --drop-metadata"``)
runs snakemake on the per-book features of every selected book (``--cores 2``), with
``--mode``: ``touch`` (default: ``--touch``, the scheduler selects and finishes every job
but starts no job process, so the main process's own cost per job shows alone), ``dry``
(``-n``: planning only, Snakemake skips job selection in a dry run) or ``run`` (for real);
the outputs are removed before the next variant. It prints the CPU seconds of snakemake's main process
(user + system, from ``/proc``, polled) and of the whole process tree, divided by the jobs.

Usage: ``python benchmarks/bench_scheduling.py --books 1000 3000 [--mode touch|dry|run] [--variants ...]``.
Target (issue 10): at most 0.05 main-process CPU s a job at 10,000 books.
"""

from __future__ import annotations

import argparse
import csv
import io
import re
import shutil
import sys
import tempfile
import time
import zipfile
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_workflow import run_phase  # noqa: E402  (the main-process CPU sampler)

REPO = Path(__file__).resolve().parents[1]
TARGET_MAIN_CPU_PER_JOB = 0.05
DEFAULT_VARIANTS = ["--scheduler ilp", "--scheduler greedy"]
SENTENCE = 'He said, "No; not today." She asked: why? Then (quietly) they left. '


def make_mirror(folder: Path, n_books: int, per_author: int) -> Path:
    """``n_books`` tiny zipped books under ``folder/files/<id>/<id>-0.zip``; the catalog path."""
    folder.mkdir(parents=True)
    catalog = folder / "pg_catalog.csv"
    with open(catalog, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["Text#", "Type", "Issued", "Title", "Language", "Authors", "Subjects", "LoCC", "Bookshelves"])
        for book_id in range(1, n_books + 1):
            author = f"Author {(book_id - 1) // per_author:05d}, A."
            text = f"Book {book_id}\n\n" + SENTENCE * (20 + book_id % 7)
            target = folder / "files" / str(book_id)
            target.mkdir(parents=True)
            buffer = io.BytesIO()
            with zipfile.ZipFile(buffer, "w") as archive:
                archive.writestr(f"{book_id}-0.txt", text)
            (target / f"{book_id}-0.zip").write_bytes(buffer.getvalue())
            writer.writerow([book_id, "Text", "2000-01-01", f"Book {book_id}", "en", author, "", "", ""])
    return catalog


def jobs_planned(log: Path) -> int:
    """The ``total`` of the last job-stats table in a snakemake log."""
    totals = re.findall(r"^total\s+(\d+)", log.read_text(encoding="utf-8", errors="replace"), re.MULTILINE)
    return int(totals[-1]) if totals else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--books", type=int, nargs="+", default=[1000, 3000])
    parser.add_argument("--per-author", type=int, default=20)
    parser.add_argument("--variants", nargs="+", default=DEFAULT_VARIANTS, help="extra snakemake options")
    parser.add_argument("--mode", choices=["dry", "touch", "run"], default="touch",
                        help="-n (planning only: snakemake skips job selection in a dry run), --touch "
                        "(scheduling without job processes) or a real run")
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args(argv)
    print(f"{'books':>6} {'variant':<34} {'mode':<5} {'jobs':>6} {'main CPU s':>10} {'main s/job':>10} "
          f"{'tree s/job':>10} {'wall s':>7}")
    ok = True
    for n_books in args.books:
        tmp = Path(tempfile.mkdtemp(prefix="punctstyle-bench-scheduling-"))
        try:
            catalog = make_mirror(tmp / "mirror", n_books, args.per_author)
            outdir = tmp / "results"
            config = {
                "outdir": str(outdir),
                "mirror": {"base_url": f"file://{tmp / 'mirror'}", "url_templates": ["files/{id}/{id}-0.zip"],
                           "catalog_file": str(catalog)},
                "selection": {"min_docs_per_author": min(10, args.per_author)},
            }
            config_path = tmp / "config.yaml"
            config_path.write_text(yaml.safe_dump(config))
            base = [sys.executable, "-m", "snakemake", "--configfile", str(config_path), "--cores", "2"]
            log = tmp / "snakemake.log"
            run_phase("selection", [*base[:3], str(outdir / "corpus/selection.parquet"), *base[3:]], REPO, log, False)
            ids = range(1, n_books + 1)
            targets = [str(outdir / f"features/{i}.parquet") for i in ids]
            for variant in args.variants:
                variant_log = tmp / f"log-{len(variant)}-{time.monotonic_ns()}.txt"
                mode = {"dry": ["-n", "--quiet", "rules"], "touch": ["--touch"], "run": []}[args.mode]
                command = [*base[:3], *targets, *base[3:], *mode, *variant.split()]
                phase = run_phase(variant, command, REPO, variant_log, False)
                jobs = jobs_planned(variant_log) or 3 * n_books
                per_job = phase.main_cpu_s / jobs
                print(f"{n_books:6d} {variant:<34} {args.mode:<5} {jobs:6d} {phase.main_cpu_s:10.1f} "
                      f"{per_job:10.4f} {phase.cpu_s / jobs:10.4f} {phase.wall_s:7.1f}", flush=True)
                if n_books >= 10_000 and per_job > TARGET_MAIN_CPU_PER_JOB:
                    ok = False
                if args.mode != "dry":  # the next variant starts from the selection again
                    for sub in ("books", "sequences", "features"):
                        shutil.rmtree(outdir / sub, ignore_errors=True)
        finally:
            if args.keep:
                print(f"  kept {tmp}")
            else:
                shutil.rmtree(tmp, ignore_errors=True)
    print(f"target at 10,000 books: main process <= {TARGET_MAIN_CPU_PER_JOB} CPU s a job")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
