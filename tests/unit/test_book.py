"""Per-book steps: the quotation-mark rule (paper's "double" by default), memory budget."""

from __future__ import annotations

import gzip
import json

import numpy as np
import pyarrow.parquet as pq
import pytest

from punctstyle.book import (
    EXTRACTION_BASE_MB,
    EXTRACTION_TEXT_FACTOR,
    InclusionRule,
    book_features,
    count_double_quotes,
    extract_book,
    extraction_mem_mb,
    read_sequence,
)
from punctstyle.clean import clean_text
from punctstyle.io import InputError
from punctstyle.marks import MARK_CODE

BODY = "Word, word. " * 60


def extracted(tmp_path, text, name="1"):
    """Write ``text`` as a downloaded book, extract it; the sequence file's path."""
    (tmp_path / f"{name}.txt.gz").write_bytes(gzip.compress(text.encode("utf-8")))
    (tmp_path / f"{name}.json").write_text(json.dumps({"status": "ok", "encoding": "utf-8"}))
    path = tmp_path / f"{name}.parquet"
    extract_book(tmp_path / f"{name}.txt.gz", tmp_path / f"{name}.json", path, int(name))
    return path


@pytest.mark.parametrize(
    ("quotes", "expected"),
    [('"Hi"', 2), ("“Hi”", 2), ("„Hi“", 2), ("«Hi»", 2), ("``Hi''", 2), ("'Hi'", 0), ("‘Hi’", 0), ("", 0)],
)
def test_double_quotation_marks_are_counted_in_every_form(quotes, expected):
    assert count_double_quotes(clean_text(f"{BODY} {quotes} {BODY}")) == expected


@pytest.mark.parametrize(
    ("quotes", "double", "any_kind"),
    [
        ('"Hi," she said.', None, None),
        ("“Hi,” she said.", None, None),
        ("'Hi,' she said.", "no double quotation mark (the paper's rule)", None),
        ("Hi, she said.", "no double quotation mark (the paper's rule)", "no quotation mark of any kind"),
    ],
)
def test_quotation_rules_on_extracted_books(tmp_path, quotes, double, any_kind):
    sequence_path = extracted(tmp_path, f"{BODY} {quotes} {BODY}")
    rows = {}
    for name in ("double", "any", "none"):
        rule = InclusionRule(min_marks=100, require_quotation_marks=name)
        rows[name] = book_features(sequence_path, tmp_path / f"f-{name}.parquet", 1, rule)
    for name, reason in (("double", double), ("any", any_kind), ("none", None)):
        row = rows[name]
        if reason is None:
            assert (row["status"], row["reason"]) == ("included", ""), name
        else:
            assert row["status"] == "excluded" and row["stage"] == "features"
            assert row["reason"].startswith(reason), name


def test_too_few_marks_comes_first():
    rule = InclusionRule(min_marks=5, require_quotation_marks="double")
    marks = np.full(3, MARK_CODE[","], np.uint8)
    assert rule.reason_to_exclude(marks, 0) == "too few punctuation marks: 3 < min_marks 5"


def test_an_unknown_quotation_rule_is_refused():
    with pytest.raises(ValueError, match="double, any, none"):
        InclusionRule(min_marks=1, require_quotation_marks="yes")


def test_a_sequence_file_without_the_double_quote_count_is_one_line(tmp_path):
    path = extracted(tmp_path, f'{BODY} "Hi" {BODY}')
    table = pq.read_table(path)
    metadata = {k: v for k, v in table.schema.metadata.items() if k != b"n_double_quotes"}
    pq.write_table(table.replace_schema_metadata(metadata), path)
    with pytest.raises(InputError, match=r"1.parquet: no n_double_quotes metadata") as info:
        book_features(path, tmp_path / "f.parquet", 1, InclusionRule(100, "double"))
    assert "\n" not in str(info.value)
    row = book_features(path, tmp_path / "f.parquet", 1, InclusionRule(100, "any"))
    assert row["status"] == "included"


def test_the_count_is_stored_in_the_sequence_metadata(tmp_path):
    _, metadata = read_sequence(extracted(tmp_path, f"“A” {BODY} \"B\" 'c'"))
    assert metadata["n_double_quotes"] == "4"


def test_extraction_memory_budget_follows_the_text(tmp_path):
    text = "word " * 2**20  # 5 MiB
    path = tmp_path / "big.txt.gz"
    path.write_bytes(gzip.compress(text.encode("utf-8")))
    assert extraction_mem_mb(path, 64) == int(EXTRACTION_BASE_MB + EXTRACTION_TEXT_FACTOR * 5) + 1
    # before the download (planning), the largest text allowed stands in for it
    assert extraction_mem_mb(tmp_path / "missing.txt.gz", 64) == int(EXTRACTION_BASE_MB + EXTRACTION_TEXT_FACTOR * 64) + 1
