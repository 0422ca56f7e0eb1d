"""Benchmark: the folder route (``source: folder``) against the Gutenberg route on the same books.

Issue 11, item 8. It measures whether a folder corpus made of Project Gutenberg books gives
the same corpus tables as the Gutenberg route on those books, and what each route costs.

1. **The books**: the Gutenberg route's own selection (:func:`punctstyle.sources.selection.select_books`
   with the workflow's ``selection`` block, ``config/config.yaml`` plus ``--authors`` (a seeded
   sample of whole authors, ``max_authors``), ``--max-docs`` and ``--seed``) on the shared
   mirror's catalog, so that both routes see the same books.
2. **The folder**: each selected book's text as a plain file, the bytes of the ``.txt`` member
   of ``files/<ID>/<ID>-0.zip`` unchanged (Gutenberg header and licence included, so that
   ingest's ``*** START OF`` / ``*** END OF`` stripping is exercised), as
   ``<author>/<ID>-0.txt``, and ``metadata.csv`` in the README's format, every value from the
   catalog as :mod:`punctstyle.sources.catalog` parses it: ``file``, ``id`` (the Gutenberg number, so
   that ``book_id`` is the same in both routes), ``author`` (the selection's author label),
   ``title``, ``author_birth``, ``author_death``, ``genre`` and ``year``. ``genre`` holds the
   book's bookshelves that are candidate genres of the Gutenberg route (``genres.shelves``),
   joined by ``;``: the folder route assigns genres among every genre of the CSV with the same
   :func:`punctstyle.sources.genres.assign_genres` (``genres.min_docs``, ``multi_shelf_rule``), on the
   same corpus, so it picks the genre the Gutenberg route picks. ``year`` is filled from
   ``--publication-years`` (a CSV ``book_id,year``, given to the Gutenberg route as
   ``temporal.publication_years_csv``) when given: the catalog has no publication year (its
   ``Issued`` is Gutenberg's release date), so by default the column is empty.
3. **Both routes** to the corpus tables (``corpus/<feature>.parquet`` for every feature of
   :data:`punctstyle.marks.FEATURES`, ``exclusions.csv``, ``summary.json``), each one
   ``snakemake --cores N`` run in its own output folder: the Gutenberg route through a
   ``file://`` mirror (the shared mirror itself, laid out like www.gutenberg.org: catalog,
   downloads, extraction, features), the folder route from the folder (selection from the
   CSV, ingest, extraction, features). CPU seconds are user + system of the whole process
   tree (``getrusage(RUSAGE_CHILDREN)`` around the run), wall seconds the run's.
4. **The comparison**, for every corpus table: the sets of book ids, the feature values value
   for value (the largest absolute difference and the number of books with any differing
   value; NaN equals NaN), and the metadata columns ``author``, ``birth``, ``death``,
   ``genre``, ``n_marks``, ``n_words`` and ``title`` (books differing per column); then the
   two selections' book ids and the exclusions (book, stage, reason). ``bookshelves`` differs
   by design and is reported apart: the folder route's are the CSV's genres, the Gutenberg
   route's every bookshelf of the catalog.

The exit status is 1 when a book id, a feature value or one of the compared metadata columns
differs (or a route fails), else 0.

Usage: ``python benchmarks/folder_from_mirror.py [--authors 20] [--max-docs 250] [--seed 0]
[--min-docs-per-author N] [--genre-min-docs N] [--cores 2] [--workdir DIR] [--keep]
[--evidence docs/evidence/parts_folder_route]``. With ``--evidence OUT`` it stores ``tables.csv``
(one row per corpus table), ``routes.csv`` (each route's CPU and wall seconds) and ``run.json``
(command, commit, settings, verdict, the corpus fingerprint) under ``OUT``
(``benchmarks/evidence_run.py``).
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from punctstyle.sources.genres import genre_shelves
from punctstyle.sources.catalog import read_catalog
from punctstyle.sources.selection import select_books
from punctstyle.text.clean import has_gutenberg_markers
from punctstyle.sources.download import SITE_URL_TEMPLATES
from punctstyle.sources.folder import safe_doc_id
from punctstyle.marks import FEATURES, feature_column_names

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))  # benchmarks/evidence_run.py
from evidence_run import commit, corpus_tables_fingerprint, write_evidence  # noqa: E402

DEFAULT_MIRROR = REPO.parent / "shared" / "gutenberg-mirror"
CATALOG = Path("cache/epub/feeds/pg_catalog.csv")
METADATA_HEADER = ("file", "id", "author", "title", "year", "author_birth", "author_death", "genre")
COMPARED_METADATA = ("author", "birth", "death", "genre", "n_marks", "n_words", "title")
EXPLAINED_METADATA = {
    "bookshelves": (
        "by design: a folder corpus' bookshelves are its CSV genres (here the catalog's shelves "
        "among genres.shelves), the Gutenberg route's every bookshelf of the catalog"
    ),
}
CORPUS_FILES = ("exclusions.csv", "summary.json")


def corpus_targets(outdir: Path) -> list[str]:
    """The corpus tables of every feature, exclusions.csv and summary.json under ``outdir``."""
    return [str(outdir / "corpus" / f"{f}.parquet") for f in FEATURES] + [
        str(outdir / "corpus" / n) for n in CORPUS_FILES
    ]


# ------------------------------------------------------------------------------ the books


def workflow_defaults() -> dict:
    """The repository's config/config.yaml (the workflow's defaults)."""
    return yaml.safe_load((REPO / "config" / "config.yaml").read_text(encoding="utf-8"))


def selection_settings(**overrides) -> dict:
    """The workflow's ``selection`` block with ``overrides`` (None values left out)."""
    settings = dict(workflow_defaults()["selection"])
    settings.update({k: v for k, v in overrides.items() if v is not None})
    return settings


def gutenberg_selection(mirror: Path, settings: dict) -> pd.DataFrame:
    """What the Gutenberg route's select_books keeps of the mirror's catalog with ``settings``."""
    selection, _ = select_books(read_catalog(mirror / CATALOG), **settings)
    return selection


def genre_cell(bookshelves, candidates: list[str] | None) -> str:
    """The book's bookshelves that are candidate genres (all of them for None), ``;``-joined."""
    shelves = list(bookshelves) if bookshelves is not None else []
    return ";".join(s for s in shelves if candidates is None or s in candidates)


def zip_text(mirror: Path, book_id: int) -> bytes:
    """The bytes of the single ``.txt`` member of the mirror's ``files/<ID>/<ID>-0.zip``."""
    with zipfile.ZipFile(mirror / "files" / str(book_id) / f"{book_id}-0.zip") as archive:
        members = [m for m in archive.namelist() if m.lower().endswith(".txt")]
        if len(members) != 1:
            raise ValueError(f"{book_id}-0.zip: expected one .txt member, found {members}")
        return archive.read(members[0])


def _cell(value) -> str:
    return "" if value is None or pd.isna(value) else str(value)


def build_folder(
    mirror: Path,
    selection: pd.DataFrame,
    folder: Path,
    *,
    shelves: str | list[str] | None = "paper",
    years: dict[int, int] | None = None,
) -> Path:
    """Write the selected books' raw texts under ``folder`` and its ``metadata.csv``; returns
    the CSV's path. ``shelves`` is the Gutenberg route's ``genres.shelves`` setting."""
    candidates = genre_shelves(shelves)
    years = years or {}
    rows = []
    for book in selection.itertuples(index=False):
        book_id = int(book.book_id)
        file = f"{safe_doc_id(book.author) or 'unknown'}/{book_id}-0.txt"
        path = folder / file
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(zip_text(mirror, book_id))
        rows.append(
            {
                "file": file,
                "id": str(book_id),
                "author": book.author,
                "title": book.title,
                "year": _cell(years.get(book_id)),
                "author_birth": _cell(book.birth),
                "author_death": _cell(book.death),
                "genre": genre_cell(book.bookshelves, candidates),
            }
        )
    metadata = folder / "metadata.csv"
    with open(metadata, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(
            handle, fieldnames=list(METADATA_HEADER), quoting=csv.QUOTE_MINIMAL, lineterminator="\n"
        )
        writer.writeheader()
        writer.writerows(rows)
    return metadata


# ------------------------------------------------------------------------------ the routes


@dataclass
class RouteRun:
    label: str
    outdir: Path
    cpu_s: float
    wall_s: float


def run_route(label: str, config: dict, workdir: Path, cores: int = 2) -> RouteRun:
    """Run the workflow with ``config`` to the corpus tables; CPU of the process tree and wall."""
    outdir = Path(config["outdir"])
    config_path = workdir / f"{label}.yaml"
    config_path.write_text(yaml.safe_dump(config, sort_keys=False))
    command = [
        sys.executable, "-m", "snakemake", *corpus_targets(outdir),
        "--cores", str(cores), "--configfile", str(config_path),
    ]  # fmt: skip
    log = workdir / f"{label}.log"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with open(log, "w") as out:
        code = subprocess.run(command, cwd=REPO, stdout=out, stderr=subprocess.STDOUT).returncode
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if code != 0:
        tail = "\n".join(log.read_text(errors="replace").splitlines()[-30:])
        raise RuntimeError(f"the {label} route failed (rc {code}); see {log}:\n{tail}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return RouteRun(label, outdir, cpu, wall)


def gutenberg_config(outdir: Path, mirror: Path, settings: dict, common: dict, years_csv: Path | None) -> dict:
    config = {
        "outdir": str(outdir),
        "mirror": {
            "base_url": mirror.resolve().as_uri(),
            "catalog_base_url": None,
            "url_templates": list(SITE_URL_TEMPLATES),
        },
        "selection": settings,
        **common,
    }
    if years_csv is not None:
        config["temporal"] = {"publication_years_csv": str(years_csv)}
    return config


def folder_config(outdir: Path, folder: Path, settings: dict, common: dict) -> dict:
    return {
        "outdir": str(outdir),
        "source": "folder",
        "folder": {"path": str(folder)},
        "selection": {"min_docs_per_author": settings["min_docs_per_author"]},
        **common,
    }


# ------------------------------------------------------------------------------ the comparison


def _same(a, b) -> bool:
    """Equal values, NA equal to NA, lists and arrays compared element-wise."""
    if isinstance(a, (list, tuple, np.ndarray)) or isinstance(b, (list, tuple, np.ndarray)):
        return (
            isinstance(a, (list, tuple, np.ndarray)) and isinstance(b, (list, tuple, np.ndarray)) and list(a) == list(b)
        )
    a_na, b_na = a is None or pd.isna(a), b is None or pd.isna(b)
    if a_na or b_na:
        return a_na and b_na
    return a == b


@dataclass
class TableComparison:
    """One corpus table of the two routes (``a`` the Gutenberg route, ``b`` the folder route)."""

    feature: str
    n_a: int
    n_b: int
    only_a: list[int]
    only_b: list[int]
    n_values: int  # feature values compared (common books x columns)
    max_abs_diff: float
    books_differing: int
    metadata: dict[str, int] = field(default_factory=dict)  # column -> books differing
    explained: dict[str, int] = field(default_factory=dict)
    example: str = ""

    @property
    def ids_equal(self) -> bool:
        return not self.only_a and not self.only_b

    @property
    def values_equal(self) -> bool:
        return self.books_differing == 0

    @property
    def metadata_equal(self) -> bool:
        return not any(self.metadata.values())


def compare_table(a: pd.DataFrame, b: pd.DataFrame, feature: str) -> TableComparison:
    """Compare one feature's corpus tables of two runs on their common books."""
    ids_a, ids_b = set(a["book_id"].astype(int)), set(b["book_id"].astype(int))
    common = sorted(ids_a & ids_b)
    x = a.set_index(a["book_id"].astype(int)).loc[common]
    y = b.set_index(b["book_id"].astype(int)).loc[common]
    columns = feature_column_names(feature)
    u = x[columns].to_numpy(dtype=float)
    v = y[columns].to_numpy(dtype=float)
    both_nan = np.isnan(u) & np.isnan(v)
    differ = (u != v) & ~both_nan
    finite = np.isfinite(u) & np.isfinite(v)
    gap = np.where(finite, np.abs(u - v), np.where(differ, np.inf, 0.0))
    max_gap = float(gap.max()) if gap.size else 0.0
    rows_differ = differ.any(axis=1)
    example = ""
    if rows_differ.any():
        i, j = np.argwhere(differ)[0]
        example = f"book {common[i]} {columns[j]}: {u[i, j]!r} vs {v[i, j]!r}"
    metadata, explained = {}, {}
    for column in (*COMPARED_METADATA, *EXPLAINED_METADATA):
        if column not in x.columns or column not in y.columns:
            n = len(common) if (column in x.columns) != (column in y.columns) else 0
        else:
            n = sum(not _same(p, q) for p, q in zip(x[column], y[column]))
        (explained if column in EXPLAINED_METADATA else metadata)[column] = n
        if n and column in COMPARED_METADATA and not example and column in x.columns and column in y.columns:
            k = next(i for i, (p, q) in enumerate(zip(x[column], y[column])) if not _same(p, q))
            example = f"book {common[k]} {column}: {x[column].iloc[k]!r} vs {y[column].iloc[k]!r}"
    return TableComparison(
        feature=feature,
        n_a=len(ids_a),
        n_b=len(ids_b),
        only_a=sorted(ids_a - ids_b),
        only_b=sorted(ids_b - ids_a),
        n_values=int(u.size),
        max_abs_diff=max_gap,
        books_differing=int(rows_differ.sum()),
        metadata=metadata,
        explained=explained,
        example=example,
    )


def compare_corpus_tables(a: Path, b: Path) -> list[TableComparison]:
    """Every feature's corpus table of run folders ``a`` and ``b`` (their ``corpus/``)."""
    return [
        compare_table(pd.read_parquet(a / "corpus" / f"{f}.parquet"), pd.read_parquet(b / "corpus" / f"{f}.parquet"), f)
        for f in FEATURES
    ]


def compare_exclusions(a: Path, b: Path) -> list[str]:
    """Differences between the two runs' exclusions.csv: books and stages, then reasons."""
    x = pd.read_csv(a / "corpus/exclusions.csv", dtype={"reason": str}).fillna("")
    y = pd.read_csv(b / "corpus/exclusions.csv", dtype={"reason": str}).fillna("")
    keys_x = set(zip(x["book_id"].astype(int), x["stage"]))
    keys_y = set(zip(y["book_id"].astype(int), y["stage"]))
    problems = []
    if keys_x - keys_y:
        problems.append(f"excluded by the Gutenberg route only: {sorted(keys_x - keys_y)[:10]}")
    if keys_y - keys_x:
        problems.append(f"excluded by the folder route only: {sorted(keys_y - keys_x)[:10]}")
    reasons = x.merge(y, on=["book_id", "stage"], suffixes=("_a", "_b"))
    changed = reasons[reasons["reason_a"] != reasons["reason_b"]]
    if len(changed):
        row = changed.iloc[0]
        problems.append(
            f"{len(changed)} exclusion reasons differ, e.g. book {row['book_id']}: "
            f"{row['reason_a']!r} vs {row['reason_b']!r}"
        )
    return problems


def compare_selections(a: Path, b: Path) -> list[str]:
    """Book ids and the metadata of the two runs' selection.parquet."""
    x = pd.read_parquet(a / "corpus/selection.parquet").set_index("book_id").sort_index()
    y = pd.read_parquet(b / "corpus/selection.parquet").set_index("book_id").sort_index()
    if list(x.index) != list(y.index):
        only_x, only_y = sorted(set(x.index) - set(y.index)), sorted(set(y.index) - set(x.index))
        return [f"selected book ids differ: Gutenberg only {only_x[:10]}, folder only {only_y[:10]}"]
    problems = []
    for column in ("title", "author", "birth", "death"):
        n = sum(not _same(p, q) for p, q in zip(x[column], y[column]))
        if n:
            problems.append(f"selection {column} differs for {n} books")
    return problems


@dataclass
class Comparison:
    books: int
    authors: int
    tables: list[TableComparison]
    selection: list[str]
    exclusions: list[str]
    routes: list[RouteRun]
    folder_s: float
    folder_mb: float
    books_in_corpus: int = 0
    books_with_genre: int = 0
    genres: int = 0
    stripped: int = 0  # folder texts whose Gutenberg header and licence clean_text strips
    markers_missed: int = 0  # folder texts with marker variants clean_text does not recognise

    @property
    def ok(self) -> bool:
        tables_ok = all(t.ids_equal and t.values_equal and t.metadata_equal for t in self.tables)
        return tables_ok and not self.selection


def run_comparison(
    mirror: Path,
    workdir: Path,
    *,
    authors: int | None,
    max_docs: int | None,
    seed: int,
    min_docs_per_author: int | None = None,
    genre_min_docs: int | None = None,
    cores: int = 2,
    years_csv: Path | None = None,
) -> Comparison:
    """Select, build the folder, run both routes in ``workdir``, compare."""
    mirror = mirror.resolve()
    settings = selection_settings(
        max_authors=authors, max_docs=max_docs, seed=seed, min_docs_per_author=min_docs_per_author
    )
    defaults = workflow_defaults()
    genres = dict(defaults["genres"])
    if genre_min_docs is not None:
        genres["min_docs"] = genre_min_docs
    common = {"genres": genres}
    selection = gutenberg_selection(mirror, settings)
    years = None
    if years_csv is not None:
        table = pd.read_csv(years_csv)
        years = dict(zip(table["book_id"].astype(int), table["year"].astype(int)))
    start = time.perf_counter()
    folder = workdir / "folder-corpus"
    build_folder(mirror, selection, folder, shelves=genres["shelves"], years=years)
    folder_s = time.perf_counter() - start
    texts = sorted(folder.glob("*/*.txt"))
    folder_mb = sum(p.stat().st_size for p in texts) / 1e6
    stripped, missed = marker_counts(texts)
    routes = [
        run_route(
            "gutenberg", gutenberg_config(workdir / "gutenberg", mirror, settings, common, years_csv), workdir, cores
        ),
        run_route("folder", folder_config(workdir / "folder", folder, settings, common), workdir, cores),
    ]
    a, b = routes[0].outdir, routes[1].outdir
    f1 = pd.read_parquet(b / "corpus" / f"{FEATURES[0]}.parquet")
    return Comparison(
        books=len(selection),
        authors=int(selection["author"].nunique()),
        tables=compare_corpus_tables(a, b),
        selection=compare_selections(a, b),
        exclusions=compare_exclusions(a, b),
        routes=routes,
        folder_s=folder_s,
        folder_mb=folder_mb,
        books_in_corpus=len(f1),
        books_with_genre=int(f1["genre"].notna().sum()),
        genres=int(f1["genre"].nunique()),
        stripped=stripped,
        markers_missed=missed,
    )


_ANY_START = re.compile(r"\*\*\*\s*START OF", re.IGNORECASE)
_ANY_END = re.compile(r"\*\*\*\s*END OF", re.IGNORECASE)


def marker_counts(texts: list[Path]) -> tuple[int, int]:
    """(texts whose header and licence the cleaner strips, texts with a start and end marker
    it does not recognise, e.g. ``***START OF`` without the space) among ``texts``."""
    stripped = missed = 0
    for path in texts:
        text = path.read_bytes().decode("utf-8", errors="replace")
        if has_gutenberg_markers(text):
            stripped += 1
        elif _ANY_START.search(text) and _ANY_END.search(text):
            missed += 1
    return stripped, missed


# ------------------------------------------------------------------------------ the report


def report(result: Comparison) -> None:
    """Print the figures of one comparison."""
    print(
        f"books: {result.books} selected by {result.authors} authors; {result.books_in_corpus} in the corpus "
        f"tables, {result.books_with_genre} with a genre ({result.genres} genres)"
    )
    print(
        f"folder: {result.books} raw texts ({result.folder_mb:.1f} MB) and metadata.csv written in "
        f"{result.folder_s:.1f} s; header and licence stripped at extraction (markers '*** START OF' and "
        f"'*** END OF') in {result.stripped} texts"
    )
    if result.markers_missed:
        print(
            f"  note: {result.markers_missed} texts mark header and licence with a variant the cleaner does not "
            "recognise ('***START OF' without the space, punctstyle.text.clean.has_gutenberg_markers): their header "
            "and licence stay in the text, in both routes alike"
        )
    print(f"\n  {'route':<10} {'CPU s':>8} {'wall s':>8} {'CPU s/book':>11} {'wall s/book':>12}")
    for run in result.routes:
        print(
            f"  {run.label:<10} {run.cpu_s:8.1f} {run.wall_s:8.1f} "
            f"{run.cpu_s / result.books:11.3f} {run.wall_s / result.books:12.3f}"
        )
    print(
        f"\n  {'table':<6} {'books G/F':>10} {'only G':>7} {'only F':>7} {'values':>9} "
        f"{'max |diff|':>11} {'books diff':>11} {'metadata diff':>14}"
    )
    for t in result.tables:
        meta = sum(t.metadata.values())
        print(
            f"  {t.feature:<6} {f'{t.n_a}/{t.n_b}':>10} {len(t.only_a):7d} {len(t.only_b):7d} {t.n_values:9d} "
            f"{t.max_abs_diff:11.3g} {t.books_differing:11d} {meta:14d}"
        )
    columns = ", ".join(f"{c} {max(t.metadata.get(c, 0) for t in result.tables)}" for c in COMPARED_METADATA)
    print(f"\nmetadata columns, books differing (largest over the tables): {columns}")
    for column, why in EXPLAINED_METADATA.items():
        n = max(t.explained.get(column, 0) for t in result.tables)
        print(f"explained difference: {column} differs for {n} books ({why})")
    for t in result.tables:
        if t.example:
            print(f"first difference in {t.feature}: {t.example}")
    for line in result.selection:
        print(f"selection: {line}")
    for line in result.exclusions:
        print(f"exclusions: {line}")
    if not result.selection:
        print("selection: the same books, titles, authors and dates in both routes")
    if not result.exclusions:
        print("exclusions: the same books, stages and reasons in both routes")
    n_values = sum(t.n_values for t in result.tables)
    verdict = "IDENTICAL" if result.ok else "DIFFERENT"
    print(f"\nresult: {verdict}: {len(result.tables)} tables, {n_values} feature values compared")


def evidence_tables(result: Comparison) -> dict[str, pd.DataFrame]:
    """``tables.csv``: per corpus table the books of each route, the books in one route only, the
    values compared, the largest difference, the books differing in values and per metadata
    column; ``routes.csv``: each route's CPU and wall seconds, in all and per selected book."""
    tables = pd.DataFrame([
        {"feature": t.feature, "books_gutenberg": t.n_a, "books_folder": t.n_b, "only_gutenberg": len(t.only_a),
         "only_folder": len(t.only_b), "values": t.n_values, "max_abs_diff": t.max_abs_diff,
         "books_differing": t.books_differing, **{f"{c}_differing": n for c, n in {**t.metadata, **t.explained}.items()}}
        for t in result.tables
    ])  # fmt: skip
    routes = pd.DataFrame([
        {"route": r.label, "cpu_s": round(r.cpu_s, 1), "wall_s": round(r.wall_s, 1),
         "cpu_s_per_book": round(r.cpu_s / result.books, 3), "wall_s_per_book": round(r.wall_s / result.books, 3)}
        for r in result.routes
    ])  # fmt: skip
    return {"tables.csv": tables, "routes.csv": routes}


def store_evidence(out: Path, result: Comparison, args: argparse.Namespace, revision: str) -> None:
    """:func:`evidence_tables` and a ``run.json`` (no path of this machine in it)."""
    command = (f"python benchmarks/folder_from_mirror.py --authors {args.authors} --max-docs {args.max_docs} "
               f"--seed {args.seed} --cores {args.cores} --evidence {out}")
    run = {
        "command": command, "commit": revision, "mirror": "the shared Gutenberg mirror (../shared/gutenberg-mirror)",
        "settings": {"authors": args.authors, "max_docs": args.max_docs, "seed": args.seed, "cores": args.cores,
                     "min_docs_per_author": args.min_docs_per_author, "genre_min_docs": args.genre_min_docs},
        "books_selected": result.books, "authors_selected": result.authors, "books_in_corpus": result.books_in_corpus,
        "books_with_genre": result.books_with_genre, "genres": result.genres, "folder_mb": round(result.folder_mb, 1),
        "texts_stripped": result.stripped, "texts_markers_missed": result.markers_missed,
        "selection_differences": result.selection, "exclusion_differences": result.exclusions,
        "identical": result.ok, "values_compared": sum(t.n_values for t in result.tables),
        "corpus": corpus_tables_fingerprint(result.routes[1].outdir / "corpus"),
        "clock": "CPU: user + system of the snakemake process tree (getrusage RUSAGE_CHILDREN); wall clock",
    }  # fmt: skip
    write_evidence(out, evidence_tables(result), run)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mirror", type=Path, default=DEFAULT_MIRROR)
    parser.add_argument("--authors", type=int, default=20, help="selection.max_authors (seeded sample of authors)")
    parser.add_argument("--max-docs", type=int, default=250, help="selection.max_docs (0: no cap)")
    parser.add_argument("--seed", type=int, default=0, help="selection.seed")
    parser.add_argument("--min-docs-per-author", type=int, help="selection.min_docs_per_author (default: config's)")
    parser.add_argument("--genre-min-docs", type=int, help="genres.min_docs (default: config's)")
    parser.add_argument("--publication-years", type=Path, help="CSV book_id,year: the CSV's year column")
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--workdir", type=Path, help="run folder (default: a new one under /tmp)")
    parser.add_argument("--keep", action="store_true", help="keep the run folder (kept anyway when not identical)")
    parser.add_argument("--evidence", type=Path, help="store the comparison's tables and run.json in this folder")
    args = parser.parse_args(argv)
    revision = commit() if args.evidence else ""
    if args.workdir:
        args.workdir.mkdir(parents=True, exist_ok=True)
        if any(args.workdir.iterdir()):
            parser.error(f"--workdir {args.workdir}: not empty")
    workdir = (args.workdir or Path(tempfile.mkdtemp(prefix="punctstyle-folder-route-"))).resolve()
    print(f"run folder: {workdir}")
    result = run_comparison(
        args.mirror,
        workdir,
        authors=args.authors,
        max_docs=args.max_docs or None,
        seed=args.seed,
        min_docs_per_author=args.min_docs_per_author,
        genre_min_docs=args.genre_min_docs,
        cores=args.cores,
        years_csv=args.publication_years,
    )
    report(result)
    if args.evidence:
        store_evidence(args.evidence, result, args, revision)
    print(json.dumps({"ok": result.ok, "books": result.books}))
    if result.ok and not args.keep and not args.workdir:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0 if result.ok else 1


if __name__ == "__main__":
    sys.exit(main())
