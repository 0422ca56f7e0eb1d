"""The folder route against the Gutenberg route on the same real books (issue 11, item 8).

16 books of 4 authors of ../shared/gutenberg-mirror (the Gutenberg route's seeded selection)
are written as a folder corpus (raw texts, Gutenberg header and licence included, and a
metadata CSV from the catalog) by ``benchmarks/folder_from_mirror.py``; both routes run to the
corpus tables, which must agree book for book and value for value. About a minute on 2 cores.

Skipped, with the reason, when ../shared is absent (a fresh clone without the shared data).
"""

from __future__ import annotations

import gzip
import importlib.util
import json
import sys

import pandas as pd
import pytest

from punctstyle.marks import FEATURES, feature_column_names
from tests.conftest import REPO, require_mirror

pytestmark = pytest.mark.realdata

# 4 authors, 4 books each (Plato, Defoe, Lang, Swift with seed 0): some books are excluded at
# extraction (no double quotation marks), two genres reach genres.min_docs = 3, and several
# texts mark their header with '***START OF' (no space).
SAMPLE = {"authors": 4, "max_docs": 16, "seed": 0, "min_docs_per_author": 4, "genre_min_docs": 3}


def load_benchmark():
    spec = importlib.util.spec_from_file_location("folder_from_mirror", REPO / "benchmarks/folder_from_mirror.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def bench():
    return load_benchmark()


@pytest.fixture(scope="module")
def compared(bench, tmp_path_factory):
    mirror = require_mirror()
    workdir = tmp_path_factory.mktemp("folder-route")
    result = bench.run_comparison(mirror, workdir, cores=2, **SAMPLE)
    bench.report(result)  # shown by pytest -s or on failure
    return {"result": result, "workdir": workdir, "mirror": mirror}


def test_both_routes_select_and_keep_the_same_books(compared):
    result = compared["result"]
    assert (result.books, result.authors) == (16, 4)
    assert result.selection == []  # same book ids, titles, authors, birth and death years
    assert 8 <= result.books_in_corpus < result.books  # some books are excluded, in both routes
    assert [t.feature for t in result.tables] == list(FEATURES)
    for table in result.tables:
        assert table.ids_equal, (table.feature, table.only_a, table.only_b)
        assert table.n_a == table.n_b == result.books_in_corpus
    assert result.exclusions == []  # same books, stages and reasons


def test_feature_values_are_identical(compared):
    for table in compared["result"].tables:
        assert table.n_values == compared["result"].books_in_corpus * len(feature_column_names(table.feature))
        assert table.books_differing == 0, table.example
        assert table.max_abs_diff == 0.0


def test_metadata_columns_are_identical(compared):
    result = compared["result"]
    for table in result.tables:
        assert table.metadata == dict.fromkeys(table.metadata, 0), table.example
        assert set(table.metadata) == {"author", "birth", "death", "genre", "n_marks", "n_words", "title"}
    assert result.books_with_genre >= 3 and result.genres >= 1  # the genre comparison compares something
    f1 = pd.read_parquet(compared["workdir"] / "folder/corpus/f1.parquet")
    assert f1["birth"].notna().any() and f1["title"].str.len().min() > 0  # dates compared where the catalog has them


def test_the_folder_holds_the_raw_texts_and_ingest_reads_what_the_download_reads(compared, bench):
    workdir, mirror = compared["workdir"], compared["mirror"]
    metadata = pd.read_csv(workdir / "folder-corpus/metadata.csv", dtype=str, keep_default_na=False)
    assert list(metadata.columns) == list(bench.METADATA_HEADER)
    assert metadata["id"].str.isdigit().all()
    assert compared["result"].stripped + compared["result"].markers_missed == len(metadata)
    assert compared["result"].stripped > 0
    for row in metadata.itertuples():
        raw = (workdir / "folder-corpus" / row.file).read_bytes()
        assert raw == bench.zip_text(mirror, int(row.id))  # unchanged, header and licence included
        record = json.loads((workdir / f"folder/books/{row.id}.json").read_text())
        assert (record["source"], record["status"], record["encoding"]) == ("folder", "ok", "utf-8")
        ingested = gzip.decompress((workdir / f"folder/books/{row.id}.txt.gz").read_bytes())
        downloaded = gzip.decompress((workdir / f"gutenberg/books/{row.id}.txt.gz").read_bytes())
        assert ingested == downloaded


def test_the_comparison_reports_a_changed_value_title_or_book(compared, bench):
    """The comparison itself can fail: perturb the folder route's f3 table."""
    gutenberg = pd.read_parquet(compared["workdir"] / "gutenberg/corpus/f3.parquet")
    folder = pd.read_parquet(compared["workdir"] / "folder/corpus/f3.parquet")
    column = feature_column_names("f3")[11]
    changed = folder.copy()
    changed.loc[2, column] += 1e-12
    changed.loc[3, "title"] += " "
    changed.loc[4, "genre"] = "Humor"
    result = bench.compare_table(gutenberg, changed, "f3")
    assert result.books_differing == 1 and 0 < result.max_abs_diff < 1e-11
    assert result.metadata["title"] == 1 and result.metadata["genre"] == 1 and result.metadata["author"] == 0
    dropped = bench.compare_table(gutenberg, folder.drop(index=0), "f3")
    assert dropped.only_a == [int(folder.loc[0, "book_id"])] and not dropped.ids_equal
    assert bench.compare_table(gutenberg, folder, "f3").values_equal
