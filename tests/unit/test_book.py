"""Per-book steps: the quotation-mark rule (paper's "double" by default), memory budget."""

from __future__ import annotations

import gzip
import json

import numpy as np
import pyarrow.parquet as pq
import pytest

from punctstyle.book.memory import (
    EXTRACTION_BASE_MB,
    EXTRACTION_TEXT_FACTOR,
    extraction_mem_mb,
)
from punctstyle.book.inclusion import (
    InclusionRule,
    count_double_quotes,
)
from punctstyle.book.steps import (
    book_features,
    extract_book,
)
from punctstyle.book.sequence_file import read_sequence
from punctstyle.text.clean import clean_text
from punctstyle.io import InputError
from punctstyle.marks import FEATURES, MARK_CODE, feature_column_names

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


# ------------------------------------------------------------------ documents from long texts


def test_excerpt_bounds_cut_consecutive_excerpts_and_drop_the_remainder():
    from punctstyle.book.feature_rows import excerpt_bounds

    assert excerpt_bounds(10, 3).tolist() == [[0, 3], [3, 6], [6, 9]]  # mark 9 is dropped
    assert excerpt_bounds(9, 3).tolist() == [[0, 3], [3, 6], [6, 9]]
    assert excerpt_bounds(2, 3).shape == (0, 2)
    with pytest.raises(ValueError):
        excerpt_bounds(10, 0)


def test_excerpt_rows_are_the_features_of_each_slice(tmp_path):
    from punctstyle.book.feature_rows import EXCERPT_ROW_COLUMNS, excerpt_feature_rows
    from punctstyle.corpus.tables import read_feature_rows
    from punctstyle.text.extract import PunctuationSequence
    from punctstyle.features import compute_features

    marks = np.array([MARK_CODE[m] for m in '" , . " ; ! , . ?'.split()], dtype=np.uint8)
    gaps = np.array([0, 4, 2, 1, 5, 3, 2, 7, 1], dtype=np.uint32)
    sequence = PunctuationSequence(marks, gaps, n_words=30)
    rule = InclusionRule(min_marks=5, require_quotation_marks="any")
    rows = excerpt_feature_rows(7, sequence, {"status": "ok"}, rule, 4)
    assert [(r["book_id"], r["excerpt"], r["first_mark"], r["stop_mark"]) for r in rows] == [(7, 0, 0, 4), (7, 1, 4, 8)]
    assert [r["n_marks"] for r in rows] == [4, 4] and [r["n_words"] for r in rows] == [7, 17]
    assert {r["status"] for r in rows} == {"included"}
    second = compute_features(marks[4:8], gaps[4:8])
    assert rows[1]["f1[;]"] == second["f1"][MARK_CODE[";"]] == 0.25
    for name in FEATURES:  # every feature is the slice's (gaps included: f4, f5)
        assert [rows[1][c] for c in feature_column_names(name)] == second[name].tolist()
    assert list(rows[0])[6:9] == list(EXCERPT_ROW_COLUMNS)  # after n_words, before the features
    # the file holds one packed row per excerpt, read back as wide rows
    from punctstyle.book.feature_rows import write_feature_rows

    write_feature_rows(tmp_path / "7.parquet", rows)
    back = read_feature_rows([str(tmp_path / "7.parquet")])
    assert back["excerpt"].tolist() == [0, 1] and back["f1[;]"].tolist() == [r["f1[;]"] for r in rows]


@pytest.mark.parametrize(
    ("marks", "reason"),
    [
        (", , . . ,", "no quotation mark of any kind"),  # the text's rule comes first
        ('" , .', "too few punctuation marks: 3 < min_marks 4"),
        ('" , . " ;', "too few punctuation marks for one excerpt: 5 < excerpt_marks 6"),
    ],
)
def test_a_text_excluded_whole_has_one_row(marks, reason):
    from punctstyle.book.feature_rows import excerpt_feature_rows
    from punctstyle.text.extract import PunctuationSequence

    codes = np.array([MARK_CODE[m] for m in marks.split()], dtype=np.uint8)
    sequence = PunctuationSequence(codes, np.ones(codes.size, np.uint32), n_words=codes.size)
    rows = excerpt_feature_rows(3, sequence, {"status": "ok"}, InclusionRule(4, "any"), 6)
    assert len(rows) == 1
    row = rows[0]
    assert (row["status"], row["stage"], row["excerpt"], row["first_mark"], row["stop_mark"]) == (
        "excluded", "features", -1, 0, codes.size,
    )
    assert row["reason"].startswith(reason)


def test_book_features_with_excerpts_writes_a_row_per_excerpt(tmp_path):
    from punctstyle.corpus.tables import read_feature_rows

    path = extracted(tmp_path, f'"Hi," she said. {BODY}')  # 123 marks
    n = len(read_sequence(path)[0])
    record = book_features(path, tmp_path / "f.parquet", 1, InclusionRule(100, "double"), excerpt_marks=50)
    assert (record["status"], record["n_marks"], record["n_excerpts"]) == ("included", n, n // 50)
    rows = read_feature_rows([str(tmp_path / "f.parquet")])
    assert rows["first_mark"].tolist() == [50 * k for k in range(n // 50)]
    assert (rows["n_marks"] == 50).all() and (rows["book_id"] == 1).all()
