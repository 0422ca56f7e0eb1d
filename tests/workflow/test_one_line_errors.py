"""A catalog that is 404, one with only its header, one whose authors have too few books, and
one with a negative book number reach the user as one line, not a traceback of our code
(issue 22 item 6). Cheap: each run stops at or just after the catalog."""

from __future__ import annotations

import pytest
import yaml

from tests.conftest import snakemake
from tests.fixtures.mini_mirror import CATALOG_HEADER, serve

pytestmark = pytest.mark.workflow


def run_catalog(tmp_path, catalog: str | None) -> tuple[object, str]:
    """Serve a folder holding ``catalog`` (none: a 404) and ask for the selection."""
    mirror = tmp_path / "mirror"
    feed = mirror / "cache/epub/feeds/pg_catalog.csv"
    feed.parent.mkdir(parents=True)
    if catalog is not None:
        feed.write_text(catalog, encoding="utf-8")
    out = tmp_path / "out"
    with serve(mirror) as base_url:
        config = tmp_path / "run.yaml"
        config.write_text(yaml.safe_dump({"outdir": str(out), "mirror": {"base_url": base_url, "retries": 0}}))
        proc = snakemake(
            str(out / "corpus/selection.parquet"), "--cores", "1", "--configfile", "config/test.yaml", str(config),
            check=False,
        )
    return proc, base_url


def our_lines(proc) -> list[str]:
    return [line for line in (proc.stdout + proc.stderr).splitlines() if line.startswith("punctstyle: ")]


def test_a_catalog_that_is_404_is_one_line(tmp_path):
    proc, base_url = run_catalog(tmp_path, None)
    assert proc.returncode != 0
    assert our_lines(proc) == [
        f"punctstyle: {base_url}/cache/epub/feeds/pg_catalog.csv: catalog download failed: http 404 (1 attempt)"
    ]
    assert "Traceback" not in proc.stderr and not (tmp_path / "out/catalog/pg_catalog.csv").exists()


@pytest.mark.parametrize(
    ("rows", "phrase"),
    [
        ("", "no book selected: no author has min_docs_per_author=3 books after the catalog filters (the largest "
             "author has 0"),
        ('1,Text,2020,A,en,"Quill, Ada",,PZ,\n2,Text,2020,B,en,"Quill, Ada",,PZ,\n',
         "no book selected: no author has min_docs_per_author=3 books after the catalog filters (the largest "
         "author, "),
    ],
)
def test_an_empty_selection_is_one_line(tmp_path, rows, phrase):
    proc, _ = run_catalog(tmp_path, CATALOG_HEADER + rows)
    assert proc.returncode != 0
    lines = our_lines(proc)
    assert len(lines) == 1 and phrase in lines[0] and "pg_catalog.csv" in lines[0], lines
    assert "Traceback" not in proc.stderr and not (tmp_path / "out/corpus/selection.parquet").exists()


def test_a_negative_book_number_is_dropped_and_counted(tmp_path):
    rows = "".join(f'{i},Text,2020,T{i},en,"Quill, Ada",,PZ,\n' for i in (-7, 1, 2, 3))
    proc, _ = run_catalog(tmp_path, CATALOG_HEADER + rows)
    assert proc.returncode == 0, proc.stderr[-3000:]
    filters = (tmp_path / "out/corpus/selection_filters.csv").read_text().splitlines()
    assert filters[1] == "valid_book_ids,1,3"
