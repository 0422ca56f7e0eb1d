"""Benchmark: what a book costs in the workflow, next to what its work costs (issue 10).

On a seeded sample of whole authors of the shared mirror (at least ``--books`` books, each
author with at least 10 books there, so that the default selection keeps them) it builds a
``file://`` mirror in a temporary folder (the sample's ``files/{id}/{id}-0.zip`` and the
mirror's catalog restricted to them) and runs the workflow to the corpus tables in phases,
each a ``snakemake --cores 2`` run timed apart:

* fixed costs: catalog and selection; the tokenizer rules (once per run); corpus tables;
* per-book job kinds: downloads, extractions, features (each phase's targets are that
  kind's outputs for every selected book; since issue 37 ``extract_book`` writes the features
  too, so this version's features phase has nothing to do and its "3 jobs" are 2).

CPU seconds are user + system of the whole process tree (``getrusage(RUSAGE_CHILDREN)``
around each snakemake run: snakemake, its jobs and their children); the snakemake main
process's own share is sampled from ``/proc`` (its last sample before it exits). Then the
same books are extracted in ONE process (read, clean, extract, features; imports included)
and the ratio workflow / one process per book is the figure of merit.

``--whole-call``: what a user measures instead: ONE snakemake call from nothing (catalog,
selection, tokenizer rules, every book's jobs, corpus tables) to the corpus tables, its CPU
(the whole process tree) divided by the selected books; the main process's share and the
fixed part (Snakemake's start, the catalog, selection and corpus tables: a second call after
deleting the catalog and corpus folders, the tokenizer rules and per-book files kept) are
printed beside it. The phase figures above leave the fixed part out, so they are lower than
the whole call's figure (docs/performance.md).

``--processes N`` (with ``--whole-call``): then what each per-book process costs and imports
(issue 37): the per-book files of ``N`` selected books are deleted and made again by one more
call (``--skip-script-cleanup``, so that a ``script:`` job's generated script stays), and each
job's process (its command, or ``python`` on its generated script, in ``bash -c`` as Snakemake
runs it, with ``OPENBLAS_NUM_THREADS=1`` as Snakemake's shell sets it) is run again ``--repeats``
times: its CPU (user + system of the process tree, median over the repeats, mean over the books)
and, from one more run under ``python -X importtime``, the import time of each top-level package
(the modules' own times summed by the first part of their name; the standard library as one).

``--baseline PATH``: another checkout (e.g. ``git worktree add /tmp/old HEAD``) run the same
way in the same run (its Snakefile, its ``punctstyle`` first on ``PYTHONPATH``); the corpus
tables of the two runs are compared value for value (use ``--quotation any`` when the
baseline predates the ``double`` quotation rule). ``--books`` 200 or more for the target:
at most 1.0 CPU s a book over its three jobs.

``--evidence OUT`` (with ``--whole-call``): the figures as ``OUT/calls.csv`` (one line per tree:
the whole call, the fixed part, per book), ``OUT/processes.csv`` (``--processes``: CPU s of each
per-book process and its heaviest imports), with ``--baseline`` ``OUT/differences.csv`` (this tree
minus the baseline: a book's CPU and each per-book process both run; ``--differences OUT`` alone
writes it again from the stored tables) and ``OUT/run.json`` (command, commits, sample, whether
the corpus tables are identical, whether the package's bytecode was cached;
benchmarks/evidence_run.py).

Usage: ``python benchmarks/bench_workflow.py [--books 200] [--seed 0] [--baseline PATH]
[--quotation double|any|none] [--keep] [--whole-call [--processes 10 --repeats 3] [--evidence OUT]]``.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from evidence_run import commit, write_evidence  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
DEFAULT_MIRROR = REPO.parent / "shared" / "gutenberg-mirror"
TARGET_CPU_PER_BOOK = 1.0
MIN_BOOKS_PER_AUTHOR = 10
CORPUS_TARGETS = [f"corpus/f{i}.parquet" for i in range(1, 7)] + ["corpus/exclusions.csv", "corpus/summary.json"]
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
SERVER_LINE = "Per-book jobs: run as forks of one warm process"
"""The start of the line a run writes when its per-book jobs run on the book-job server
(``punctstyle.plan.book_jobs.SERVER_STARTED``; a tree of an earlier version never writes it)."""

ONE_PROCESS = r"""
import sys, time
sys.modules.setdefault("torch", None)
start = time.process_time()
from punctstyle.text.clean import clean_text
from punctstyle.text.chunk_cache import ChunkCachedExtractor
from punctstyle.features import compute_features
from punctstyle.io import read_gzip_text
extractor = ChunkCachedExtractor()
for path in sys.argv[1:]:
    sequence = extractor(clean_text(read_gzip_text(path)))
    compute_features(sequence.marks, sequence.gaps)
print(time.process_time() - start)
"""


@dataclass
class Phase:
    label: str
    cpu_s: float
    wall_s: float
    main_cpu_s: float
    per_book: bool
    served: bool = False  # the book-job server ran the per-book jobs (SERVER_LINE in the call's log)


def sample_books(mirror: Path, books: int, seed: int) -> pd.DataFrame:
    """Catalog rows of whole authors (seeded order) with >= 10 mirror books, >= ``books``."""
    catalog = pd.read_csv(mirror / "cache/epub/feeds/pg_catalog.csv", dtype=str)
    have = {int(p.parent.name) for p in (mirror / "files").glob("*/*-0.zip") if p.parent.name.isdigit()}
    catalog = catalog[catalog["Text#"].astype(int).isin(have)]
    catalog = catalog[(catalog["Type"] == "Text") & (catalog["Language"] == "en")]
    counts = catalog.groupby("Authors").size()
    authors = sorted(counts[counts >= MIN_BOOKS_PER_AUTHOR].index)
    random.Random(seed).shuffle(authors)
    chosen, total = [], 0
    for author in authors:
        if total >= books:
            break
        chosen.append(author)
        total += int(counts[author])
    return catalog[catalog["Authors"].isin(chosen)]


def build_mirror(mirror: Path, sample: pd.DataFrame, folder: Path) -> Path:
    """A file:// mirror of the sample: its zip files (linked) and its catalog rows."""
    for book_id in sample["Text#"].astype(int):
        target = folder / "files" / str(book_id)
        target.mkdir(parents=True, exist_ok=True)
        (target / f"{book_id}-0.zip").symlink_to(mirror / "files" / str(book_id) / f"{book_id}-0.zip")
    catalog = folder / "pg_catalog.csv"
    sample.to_csv(catalog, index=False)
    return catalog


def _cpu_of(pid: int) -> float:
    """utime + stime of one process, from /proc (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat = handle.read()
    except OSError:
        return 0.0
    fields = stat[stat.rfind(b")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def run_phase(label: str, command: list[str], tree: Path, log: Path, per_book: bool) -> Phase:
    """Run one snakemake phase in ``tree``: tree CPU, wall, and the main process's CPU."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with open(log, "a") as out:
        out.write(f"\n### {label}: {' '.join(command)}\n")
        out.flush()
        proc = subprocess.Popen(command, cwd=tree, env=env, stdout=out, stderr=subprocess.STDOUT)
        main_cpu = [0.0]
        done = threading.Event()

        def sample() -> None:
            while not done.is_set():
                main_cpu[0] = max(main_cpu[0], _cpu_of(proc.pid))
                done.wait(0.05)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        code = proc.wait()
        done.set()
        sampler.join()
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if code != 0:
        raise RuntimeError(f"{label} failed (rc {code}); see {log}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Phase(label, cpu, wall, main_cpu[0], per_book)


def run_workflow(
    tree: Path, config: dict, folder: Path, ids: list[int], has_rules: bool, extra: list[str]
) -> list[Phase]:
    """The workflow of ``tree`` to the corpus tables, phase by phase."""
    outdir = Path(config["outdir"])
    config_path = folder / "config.yaml"
    config_path.write_text(yaml.safe_dump(config))
    snakemake = [sys.executable, "-m", "snakemake"]
    options = [*extra, "--cores", "2", "--configfile", str(config_path)]  # after the targets (nargs="+")
    log = folder / "snakemake.log"

    def command(*targets: str) -> list[str]:
        return [*snakemake, *targets, *options]

    def targets(pattern: str) -> list[str]:
        return [str(outdir / pattern.format(book_id=i)) for i in ids]

    phases = [run_phase("catalog + selection", command(str(outdir / "corpus/selection.parquet")), tree, log, False)]
    chosen = pd.read_parquet(outdir / "corpus/selection.parquet", columns=["book_id"])["book_id"].tolist()
    if sorted(chosen) != sorted(ids):
        print(f"  note: the selection kept {len(chosen)} of the {len(ids)} sampled books")
    ids[:] = chosen
    if has_rules:
        phases.append(run_phase("tokenizer rules", command("tokenizer_rules"), tree, log, False))
    for label, pattern in (
        ("downloads", "books/{book_id}.json"),
        ("extractions", "sequences/{book_id}.parquet"),
        ("features", "features/{book_id}.parquet"),
    ):
        phases.append(run_phase(label, command(*targets(pattern)), tree, log, True))
    phases.append(run_phase("corpus tables", command(*[str(outdir / t) for t in CORPUS_TARGETS]), tree, log, False))
    return phases


def run_whole_call(tree: Path, config: dict, folder: Path, extra: list[str]) -> tuple[Phase, Phase, int]:
    """One snakemake call to the corpus tables from nothing, then the fixed part alone (the
    catalog, selection and corpus tables remade, the tokenizer rules and per-book files kept);
    returns both phases and the number of selected books."""
    outdir = Path(config["outdir"])
    config_path = folder / "config.yaml"
    config_path.write_text(yaml.safe_dump(config))
    command = [sys.executable, "-m", "snakemake", *[str(outdir / t) for t in CORPUS_TARGETS]]
    command += [*extra, "--cores", "2", "--configfile", str(config_path)]
    log = folder / "snakemake.log"
    start = log.stat().st_size if log.exists() else 0
    whole = run_phase("selection to corpus tables, one call", command, tree, log, True)
    with open(log, "rb") as handle:
        handle.seek(start)
        whole.served = SERVER_LINE in handle.read().decode(errors="replace")
    n_books = len(pd.read_parquet(outdir / "corpus/selection.parquet", columns=["book_id"]))
    for name in ("catalog", "corpus"):  # not extraction/: a new rules file would redo every book
        shutil.rmtree(outdir / name, ignore_errors=True)
    fixed = run_phase("the same call, per-book files kept", command, tree, log, False)
    return whole, fixed, n_books


def one_process_cpu(tree: Path, outdir: Path, ids: list[int]) -> float:
    """CPU seconds of extracting and featurising the downloaded books in one process."""
    paths = [str(outdir / f"books/{i}.txt.gz") for i in ids if (outdir / f"books/{i}.txt.gz").exists()]
    env = dict(os.environ, PYTHONPATH=str(tree))
    result = subprocess.run(
        [sys.executable, "-c", ONE_PROCESS, *paths], cwd=tree, env=env, capture_output=True, text=True, check=True
    )  # cwd: ``-c`` puts the working folder first on sys.path
    return float(result.stdout.split()[-1])


def report(label: str, phases: list[Phase], n_books: int, one_process: float) -> float:
    """Print one tree's phases; returns its per-book CPU seconds."""
    print(f"\n{label}: {n_books} books")
    print(f"  {'phase':<22} {'CPU s':>8} {'wall s':>8} {'snakemake main CPU s':>21} {'CPU s/book':>11}")
    for p in phases:
        each = f"{p.cpu_s / n_books:11.3f}" if p.per_book else f"{'':>11}"
        print(f"  {p.label:<22} {p.cpu_s:8.1f} {p.wall_s:8.1f} {p.main_cpu_s:21.1f} {each}")
    per_book = [p for p in phases if p.per_book]
    cpu = sum(p.cpu_s for p in per_book) / n_books
    wall = sum(p.wall_s for p in per_book) / n_books
    main = sum(p.main_cpu_s for p in per_book) / (3 * n_books)
    fixed = sum(p.cpu_s for p in phases if not p.per_book)
    print(f"  per book (3 jobs): {cpu:.3f} CPU s, {wall:.3f} wall s; snakemake main {main:.3f} CPU s a job")
    print(f"  fixed costs (catalog, selection, rules, corpus tables): {fixed:.1f} CPU s")
    print(f"  same books in one process: {one_process / n_books:.3f} CPU s a book "
          f"({one_process:.1f} s, imports included): workflow / one process = {cpu * n_books / one_process:.1f}x")
    return cpu


PER_BOOK_RULES = ("download_book", "ingest_document", "extract_book", "book_features")
"""The per-book rules, of this version (download_book, extract_book) and of earlier ones."""
_SHELL_COMMAND = re.compile(r"^Shell command: (.*-m punctstyle\.book\.jobs\.(\w+) .*)$", re.MULTILINE)
_JOB_MODULE_RULE = {"download": "download_book", "ingest": "ingest_document", "ingest_tei": "ingest_document",
                    "extract": "extract_book"}  # fmt: skip
_IMPORT_LINE = re.compile(r"^import time:\s+(\d+) \|\s+\d+ \|(\s+)(\S+)$", re.MULTILINE)


@dataclass
class ProcessCost:
    rule: str
    cpu_s: float
    """Mean over the books of the median CPU of a process (user + system, its whole tree)."""
    imports_ms: dict[str, float]
    """Import time (wall ms, ``-X importtime``) of each top-level package, mean over the books."""


def _process_cpu(command: str, cwd: Path, env: dict[str, str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(["bash", "-c", "set -euo pipefail; " + command], cwd=cwd, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _import_times(command: str, cwd: Path, env: dict[str, str]) -> dict[str, float]:
    """ms of import time per top-level package (modules' own times; the standard library as one)."""
    result = subprocess.run(["bash", "-c", "set -euo pipefail; " + command], cwd=cwd, check=True, capture_output=True,
                            text=True, env={**env, "PYTHONPROFILEIMPORTTIME": "1"})  # fmt: skip
    times: dict[str, float] = {}
    for own_us, _, module in _IMPORT_LINE.findall(result.stderr):
        top = module.split(".")[0]
        group = "(standard library)" if top in sys.stdlib_module_names or top.startswith("_") else top
        times[group] = times.get(group, 0.0) + int(own_us) / 1000
    return times


def book_job_environment(config: dict) -> dict[str, str]:
    """The variables a per-book ``shell:`` command reads (``$PUNCTSTYLE_JOB_PYTHON``,
    ``$PUNCTSTYLE_DOWNLOAD_POLICY``), as the workflow sets them for ``config``; the commands of a
    version with ``script:`` jobs ignore them."""
    from punctstyle.plan.book_jobs import job_environment
    from punctstyle.settings import schema_defaults

    return job_environment([], {**schema_defaults()["mirror"], **config["mirror"]})


def per_book_processes(tree: Path, config: dict, folder: Path, books: int, repeats: int) -> list[ProcessCost]:
    """Remake the per-book files of ``books`` selected books in one call, then run each job's
    process again (module docstring, ``--processes``)."""
    outdir = Path(config["outdir"])
    ids = pd.read_parquet(outdir / "corpus/selection.parquet", columns=["book_id"])["book_id"].tolist()[:books]
    for book_id in ids:
        for pattern in ("books/{}.txt.gz", "books/{}.json", "sequences/{}.parquet", "words/{}.parquet",
                        "features/{}.parquet"):  # fmt: skip
            (outdir / pattern.format(book_id)).unlink(missing_ok=True)
    scripts = tree / ".snakemake" / "scripts"
    before = set(scripts.glob("*.py")) if scripts.is_dir() else set()
    log = folder / "processes.log"
    command = [sys.executable, "-m", "snakemake", *[str(outdir / f"features/{b}.parquet") for b in ids],
               "--skip-script-cleanup", "--printshellcmds", "--cores", "2", "--configfile", str(folder / "config.yaml")]  # fmt: skip
    env = dict(os.environ, PYTHONPATH=str(tree), OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    env.update(book_job_environment(config))
    with open(log, "w") as out:
        subprocess.run(command, cwd=tree, env=env, stdout=out, stderr=subprocess.STDOUT, check=True)
    jobs: list[tuple[str, str]] = [(_JOB_MODULE_RULE[m], c) for c, m in _SHELL_COMMAND.findall(log.read_text())]
    made = sorted(set(scripts.glob("*.py")) - before) if scripts.is_dir() else []
    for path in made:
        rule = next((r for r in PER_BOOK_RULES if path.name.endswith(f".{r}.py")), None)
        if rule:
            jobs.append((rule, f"{shlex.quote(sys.executable)} {shlex.quote(str(path))}"))
    costs = []
    for rule in PER_BOOK_RULES:
        commands = [c for r, c in jobs if r == rule]
        if not commands:
            continue
        cpu = [statistics.median(_process_cpu(c, tree, env) for _ in range(repeats)) for c in commands]
        imports: dict[str, float] = {}
        for c in commands:
            for group, ms in _import_times(c, tree, env).items():
                imports[group] = imports.get(group, 0.0) + ms / len(commands)
        costs.append(ProcessCost(rule, statistics.fmean(cpu), imports))
    for path in made:
        path.unlink(missing_ok=True)
    return costs


def report_processes(label: str, costs: list[ProcessCost], top: int = 8) -> None:
    print(f"\n{label}: each per-book process run again (CPU: median of the repeats, mean over the books)")
    for cost in costs:
        groups = sorted(cost.imports_ms.items(), key=lambda item: -item[1])
        total = sum(cost.imports_ms.values())
        shown = ", ".join(f"{group} {ms:.0f}" for group, ms in groups[:top])
        print(f"  {cost.rule:<16} {cost.cpu_s:.3f} CPU s a process; imports {total:.0f} ms wall: {shown}")
    print(f"  a book's processes: {sum(c.cpu_s for c in costs):.3f} CPU s")


def compare_tables(a: Path, b: Path) -> list[str]:
    """Differences between the corpus tables of two runs (value for value)."""
    problems = []
    for name in [f"f{i}.parquet" for i in range(1, 7)]:
        x, y = pd.read_parquet(a / "corpus" / name), pd.read_parquet(b / "corpus" / name)
        try:
            pd.testing.assert_frame_equal(x, y, check_exact=True)
        except AssertionError as exc:
            problems.append(f"{name}: {str(exc).splitlines()[0]}")
    for name in ("exclusions.csv",):
        x, y = pd.read_csv(a / "corpus" / name), pd.read_csv(b / "corpus" / name)
        if not x.equals(y):
            problems.append(f"{name} differs")
    return problems


def bytecode_condition(environ: dict[str, str]) -> str:
    """Whether the per-book processes find the package's modules compiled: Python writes no
    ``__pycache__`` when ``PYTHONDONTWRITEBYTECODE`` is set to a non-empty value, and an editable
    install (this repository) then compiles every module of the package from its source in every
    process (about 0.03 CPU s of an extraction job: docs/performance.md, "Cutting a book's
    processes"); the installed libraries come with theirs."""
    if environ.get("PYTHONDONTWRITEBYTECODE"):
        return "not written (PYTHONDONTWRITEBYTECODE set): the package compiled from source in every process"
    return "written and reused (__pycache__)"


def tree_commit(tree: Path) -> str:
    """The short commit of a checkout."""
    out = subprocess.run(["git", "-C", str(tree), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return out.stdout.strip()


def whole_call_row(label: str, tree: Path, whole: Phase, fixed: Phase, n_books: int) -> dict:
    """One line of ``calls.csv``: a tree's whole call, its fixed part and their per-book shares."""
    return {"tree": label, "commit": tree_commit(tree), "books": n_books, "cpu_s": whole.cpu_s,
            "wall_s": whole.wall_s, "snakemake_main_cpu_s": whole.main_cpu_s, "cpu_s_a_book": whole.cpu_s / n_books,
            "fixed_cpu_s": fixed.cpu_s, "fixed_cpu_s_a_book": fixed.cpu_s / n_books,
            "jobs_cpu_s_a_book": (whole.cpu_s - fixed.cpu_s) / n_books, "load_1min_after": os.getloadavg()[0],
            "book_job_server": whole.served}


def process_rows(label: str, costs: list[ProcessCost], top: int = 4) -> list[dict]:
    """Lines of ``processes.csv``: each per-book process's CPU and its ``top`` heaviest imports (ms)."""
    rows = []
    for cost in costs:
        groups = sorted(cost.imports_ms.items(), key=lambda item: -item[1])[:top]
        rows.append({"tree": label, "rule": cost.rule, "cpu_s": cost.cpu_s,
                     "imports_ms": sum(cost.imports_ms.values()),
                     "heaviest_imports": "; ".join(f"{group} {ms:.0f}" for group, ms in groups)})
    return rows


def differences(calls: pd.DataFrame, processes: pd.DataFrame | None) -> pd.DataFrame:
    """This tree minus the baseline, in the same run: CPU s a book of the whole call and of the
    books' jobs (``calls.csv``), and CPU s of each per-book process both trees run
    (``processes.csv``); ``ratio`` is this tree / the baseline."""
    trees = calls.set_index("tree")
    rows = [("whole call, a book", "cpu_s_a_book"), ("the books' jobs, a book", "jobs_cpu_s_a_book")]
    out = [{"what": what, "this_tree": trees.loc["this tree", col], "baseline": trees.loc["baseline", col]}
           for what, col in rows]  # fmt: skip
    if processes is not None and len(processes):
        by = processes.set_index(["tree", "rule"])["cpu_s"]
        for rule in processes.loc[processes["tree"] == "this tree", "rule"]:
            if ("baseline", rule) in by.index:
                out.append({"what": f"process {rule}", "this_tree": by[("this tree", rule)],
                            "baseline": by[("baseline", rule)]})  # fmt: skip
    table = pd.DataFrame(out)
    table["difference"] = table["this_tree"] - table["baseline"]
    table["ratio"] = table["this_tree"] / table["baseline"]
    return table


def store_differences(folder: Path) -> pd.DataFrame:
    """``folder/differences.csv`` from the folder's stored ``calls.csv`` (and ``processes.csv``)."""
    processes = folder / "processes.csv"
    table = differences(pd.read_csv(folder / "calls.csv"), pd.read_csv(processes) if processes.is_file() else None)
    table.to_csv(folder / "differences.csv", index=False, float_format="%.6g")
    return table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mirror", type=Path, default=DEFAULT_MIRROR)
    parser.add_argument("--books", type=int, default=200, help="at least this many books (whole authors)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--baseline", type=Path, help="another checkout, run alike in the same run")
    parser.add_argument("--quotation", choices=["double", "any", "none"], help="extraction.require_quotation_marks")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    parser.add_argument(
        "--whole-call", action="store_true", help="one snakemake call from nothing to the corpus tables (what a user measures)"
    )
    parser.add_argument("--no-tree", action="store_true", help="run the baseline only")
    parser.add_argument(
        "--processes", type=int, default=0, help="with --whole-call: run the per-book processes of N books again"
    )
    parser.add_argument("--repeats", type=int, default=3, help="runs of each process (--processes)")
    parser.add_argument(
        "--snakemake-args", default="", help="extra snakemake options for this tree, e.g. '--scheduler ilp'"
    )
    parser.add_argument("--evidence", type=Path, metavar="OUT", help="with --whole-call: store the figures in OUT")
    parser.add_argument(
        "--differences", type=Path, metavar="OUT", help="only (re)write OUT/differences.csv from OUT's stored tables"
    )
    args = parser.parse_args(argv)
    if args.differences:
        print(store_differences(args.differences).to_string(index=False))
        return 0
    revision = commit()
    calls: list[dict] = []
    processes: list[dict] = []
    sample = sample_books(args.mirror.resolve(), args.books, args.seed)
    tmp = Path(tempfile.mkdtemp(prefix="punctstyle-bench-workflow-"))
    print(f"sample: {len(sample)} books by {sample['Authors'].nunique()} authors (seed {args.seed}); folder {tmp}")
    ok = True
    try:
        catalog = build_mirror(args.mirror.resolve(), sample, tmp / "mirror")
        trees = [] if args.no_tree else [("this tree", REPO, True)]
        trees += [("baseline", args.baseline.resolve(), False)] if args.baseline else []
        outdirs = []
        for label, tree, has_rules in trees:
            folder = tmp / label.replace(" ", "-")
            folder.mkdir()
            config = {
                "outdir": str(folder / "results"),
                "mirror": {
                    "base_url": f"file://{tmp / 'mirror'}",
                    "url_templates": ["files/{id}/{id}-0.zip"],
                    "catalog_file": str(catalog),
                },
            }
            if args.quotation and label == "this tree":
                config["extraction"] = {"require_quotation_marks": args.quotation}
            ids = sample["Text#"].astype(int).tolist()
            extra = args.snakemake_args.split() if label == "this tree" else []
            if args.whole_call:
                whole, fixed, n_books = run_whole_call(tree, config, folder, extra)
                print(f"\n{label}: {n_books} books, one snakemake call from nothing to the corpus tables")
                print(
                    f"  {whole.cpu_s:.1f} CPU s ({whole.cpu_s / n_books:.3f} a book), wall {whole.wall_s:.1f} s, "
                    f"snakemake main process {whole.main_cpu_s:.1f} CPU s"
                )
                print(
                    f"  fixed part (start, catalog, selection, corpus tables; rules and per-book files kept): "
                    f"{fixed.cpu_s:.1f} CPU s ({fixed.cpu_s / n_books:.3f} a book); the books' jobs "
                    f"{(whole.cpu_s - fixed.cpu_s) / n_books:.3f} CPU s a book"
                )
                calls.append(whole_call_row(label, tree, whole, fixed, n_books))
                if args.processes:
                    costs = per_book_processes(tree, config, folder, args.processes, args.repeats)
                    report_processes(label, costs)
                    processes += process_rows(label, costs)
                outdirs.append(folder / "results")
                continue
            phases = run_workflow(tree, config, folder, ids, has_rules, extra)
            cpu = report(label, phases, len(ids), one_process_cpu(tree, folder / "results", ids))
            if label == "this tree" and len(ids) >= 200:
                met = cpu <= TARGET_CPU_PER_BOOK
                ok = ok and met
                print(f"  target <= {TARGET_CPU_PER_BOOK} CPU s a book: {'met' if met else 'MISSED'}")
            outdirs.append(folder / "results")
        if len(outdirs) == 2:
            problems = compare_tables(*outdirs)
            print("\ncorpus tables: " + ("identical to the baseline's" if not problems else "; ".join(problems)))
            ok = ok and not problems
        if args.evidence and calls:
            tables = {"calls.csv": pd.DataFrame(calls)} | ({"processes.csv": pd.DataFrame(processes)} if processes else {})
            write_evidence(args.evidence, tables, {
                "command": f"python benchmarks/bench_workflow.py --whole-call --books {args.books} --seed {args.seed}"
                           + (" --baseline BASELINE" if args.baseline else "")
                           + (f" --processes {args.processes} --repeats {args.repeats}" if args.processes else "")
                           + " --evidence OUT",
                "commit": revision, "sample": {"books": len(sample), "authors": int(sample["Authors"].nunique()),
                                               "seed": args.seed, "book_ids": sorted(sample["Text#"].astype(int).tolist())},
                "corpus_tables_identical": (len(outdirs) == 2 and not problems) if len(outdirs) == 2 else None,
                "clock": "getrusage(RUSAGE_CHILDREN) around each snakemake call: user + system of the process tree",
                "package_bytecode": bytecode_condition(dict(os.environ)),
            })
            if args.baseline and not args.no_tree:
                store_differences(args.evidence)
    finally:
        if not args.keep and ok:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
