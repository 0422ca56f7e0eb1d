"""Corpus-level rules: exclusions, the author minimum re-applied, genres, feature tables."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from punctstyle.book.inclusion import InclusionRule
from punctstyle.book.feature_rows import feature_row
from punctstyle.corpus.tables import (
    build_corpus,
    feature_matrix,
    feature_table,
)
from punctstyle.corpus.summary import (
    corpus_summary,
    read_corpus_summary,
    write_corpus_summary,
)
from punctstyle.corpus.exclusions import (
    exclusion_reason_groups,
    read_exclusions,
    write_exclusions,
)
from punctstyle.io import InputError
from punctstyle.text.extract import PunctuationSequence
from punctstyle.marks import MARK_CODE


def sequence(marks: str) -> PunctuationSequence:
    codes = np.array([MARK_CODE[m] for m in marks.split()], dtype=np.uint8)
    return PunctuationSequence(codes, np.full(codes.size, 3, dtype=np.uint32), n_words=3 * codes.size)


@pytest.fixture
def books():
    rule = InclusionRule(min_marks=3, require_quotation_marks="any")
    selection = pd.DataFrame(
        {
            "book_id": [1, 2, 3, 4, 5],
            "title": list("abcde"),
            "author": ["A", "A", "A", "B", "B"],
            "birth": pd.array([1800, 1800, 1800, None, None], dtype="Int64"),
            "death": pd.array([1870, 1870, 1870, 1950, 1950], dtype="Int64"),
            "bookshelves": [["Humor"], ["Humor", "Best Books Ever Listings"], ["Humor"], ["Horror"], []],
        }
    )
    sequences = {
        1: sequence('" , . " .'),
        2: sequence('" ; . "'),
        3: sequence(", . ,"),  # no quotation mark: excluded (the paper's rule)
        4: sequence('" ! "'),
        5: sequence('"'),  # too few marks: excluded, so author B drops below the minimum
    }
    meta = {"status": "ok"}
    rows = pd.DataFrame([feature_row(i, s, meta, rule) for i, s in sequences.items()])
    return selection, rows


def test_exclusions_and_author_minimum_after_exclusions(books):
    selection, rows = books
    corpus, exclusions = build_corpus(
        selection, rows, min_docs_per_author=2, genre_shelves="paper", genre_min_docs=2,
        genre_multi_shelf_rule="most_specific",
    )
    assert corpus["book_id"].tolist() == [1, 2]
    reasons = dict(zip(exclusions["book_id"], exclusions["stage"]))
    assert reasons == {3: "features", 4: "corpus", 5: "features"}
    assert "quotation" in exclusions.set_index("book_id").loc[3, "reason"]
    # the paper's shelves: "Best Books Ever Listings" holds one corpus book (< genre_min_docs 2), Humor two
    assert corpus["genre"].tolist() == ["Humor", "Humor"]
    summary = corpus_summary(selection, corpus, exclusions)
    assert summary["books_in_corpus"] == 2 and summary["excluded_by_stage"] == {"features": 2, "corpus": 1}
    assert not any("N" in reason.replace("No", "") for reason in summary["excluded_by_reason"])


def test_exclusion_reasons_are_grouped_by_code_with_verbatim_examples():
    rejected = "download rejected: http://127.0.0.1:43471/cache/epub/203/pg203.txt: HTML page instead of a text"
    exclusions = pd.DataFrame({
        "book_id": range(14),
        "stage": ["features"] * 3 + ["download"] * 4 + ["corpus"] * 2 + ["metadata"] * 4 + ["selection"],
        "reason": [
            "too few punctuation marks: 3 < min_marks 100",
            "too few punctuation marks: 97 < min_marks 100",
            "no quotation mark (the paper's rule)",
            rejected,
            "download rejected: http://127.0.0.1:43471/cache/epub/7/pg7.txt: HTML page instead of a text",
            "download failed: http 503 (after 2 attempts)",
            "download failed: http 404 (after 4 attempts)",
            "author has 1 included books < min_docs_per_author 3",
            "author has 2 included books < min_docs_per_author 3",
            "m.csv: row 5 (james/1093-1190.txt): duplicate id 'james-1093-1190' (book_id 5207370000000000), "
            "first used at row 2",
            "m.csv: row 9 (james/1191-1200.txt): duplicate id 'james-1191-1200' (book_id 8312820000000000), "
            "first used at row 3",
            "m.csv: row 11 (x.txt): file not found: /data/x.txt",
            "m.csv: row 12 (../etc/passwd): resolves outside the corpus folder",
            "m.csv: row 13 (z.txt): author has 1 documents < min_docs_per_author 2",
        ],
    })
    groups = exclusion_reason_groups(exclusions)
    assert dict(zip(groups["reason"], groups["books"])) == {
        "too few punctuation marks (< 100)": 2,
        "download rejected: HTML page instead of a text": 2,
        "author has fewer than 3 included books (min_docs_per_author)": 2,
        "duplicate id": 2,
        "download failed: http 404": 1,
        "download failed: http 503": 1,
        "no quotation mark (the paper's rule)": 1,
        "file not found": 1,
        "resolves outside the corpus folder": 1,
        "author has fewer than 2 documents (min_docs_per_author)": 1,
    }
    assert groups["books"].is_monotonic_decreasing
    # no code is made of several reasons' numbers: every example is one reason, verbatim
    assert set(groups["example"]) <= set(exclusions["reason"])
    assert not any("1093-1190" in code or "e+15" in code for code in groups["reason"])
    summary = corpus_summary(pd.DataFrame({"author": ["a"]}), pd.DataFrame({"author": ["a"]}), exclusions)
    assert summary["excluded_by_reason"]["too few punctuation marks (< 100)"] == 2
    assert summary["excluded_by_reason"]["duplicate id"] == 2
    assert summary["excluded_reason_examples"]["download rejected: HTML page instead of a text"] == rejected
    assert exclusion_reason_groups(exclusions.iloc[:0]).empty


def test_summary_and_exclusions_files_round_trip(tmp_path):
    exclusions = pd.DataFrame({"book_id": [3, 4], "stage": ["features", "download"], "reason": ["no marks", ""]})
    write_exclusions(tmp_path / "exclusions.csv", exclusions)
    pd.testing.assert_frame_equal(read_exclusions(tmp_path / "exclusions.csv"), exclusions)
    write_corpus_summary(tmp_path / "summary.json", {"books_in_corpus": 2})
    assert read_corpus_summary(tmp_path / "summary.json") == {"books_in_corpus": 2}
    (tmp_path / "bad.csv").write_text("a,b\n1,2\n", encoding="utf-8")
    with pytest.raises(InputError, match="no column 'book_id'"):
        read_exclusions(tmp_path / "bad.csv")
    with pytest.raises(InputError, match="not a readable JSON file"):
        read_corpus_summary(tmp_path / "missing.json")


def test_feature_tables_are_distributions(books):
    selection, rows = books
    corpus, _ = build_corpus(
        selection, rows, min_docs_per_author=1, genre_shelves=["Horror"], genre_min_docs=1,
        genre_multi_shelf_rule="drop",
    )
    table = feature_table(corpus, "f3")
    assert table.columns[0] == "book_id" and 'f3[" ,]' in table.columns
    np.testing.assert_allclose(feature_matrix(table, "f3").sum(axis=1), 1.0)
    assert corpus.set_index("book_id")["genre"].to_dict() == {1: None, 2: None, 4: "Horror"}


def test_missing_feature_row_is_an_error(books):
    selection, rows = books
    with pytest.raises(ValueError, match="no feature row"):
        build_corpus(selection, rows[rows["book_id"] != 2], min_docs_per_author=1, genre_shelves="paper",
                     genre_min_docs=2, genre_multi_shelf_rule="drop")


def test_feature_files_are_packed_and_read_back_as_the_wide_rows(books, tmp_path):
    """features/{id}.parquet: a list column per feature (a few kB, not one Parquet column per
    entry); read_feature_rows gives the same frame as the rows themselves, also for files
    written wide by earlier versions, and for a mix of both."""
    import pyarrow.parquet as pq

    from punctstyle.book.feature_rows import write_feature_row
    from punctstyle.corpus.tables import read_feature_rows
    from punctstyle.io import arrow_row
    from punctstyle.marks import FEATURE_SIZES, FEATURES

    _, rows = books
    records = rows.to_dict("records")
    packed, wide = [], []
    for record in records:
        packed.append(str(tmp_path / f"p{record['book_id']}.parquet"))
        write_feature_row(packed[-1], record)
        wide.append(str(tmp_path / f"w{record['book_id']}.parquet"))
        pq.write_table(arrow_row(record), wide[-1])
    schema = pq.read_schema(packed[0])
    assert schema.names == ["book_id", "status", "stage", "reason", "n_marks", "n_words", *FEATURES]
    assert [schema.field(name).type.list_size for name in FEATURES] == [FEATURE_SIZES[name] for name in FEATURES]
    expected = pd.DataFrame(records)
    for paths in (packed, wide, packed[:2] + wide[2:]):
        pd.testing.assert_frame_equal(read_feature_rows(paths, batch=2), expected, check_dtype=False)
    assert read_feature_rows(packed)["f3[\" ,]"].tolist() == expected["f3[\" ,]"].tolist()


# ------------------------------------------------------------------ documents from long texts


@pytest.fixture
def excerpt_books():
    """Five texts of authors A (texts 1, 2), B (3, 4, 5): excerpts of 3 marks."""
    from punctstyle.book.feature_rows import excerpt_feature_rows

    rule = InclusionRule(min_marks=3, require_quotation_marks="any")
    selection = pd.DataFrame(
        {
            "book_id": [11, 12, 5, 30, 31],
            "title": list("abcde"),
            "author": ["A", "A", "B", "B", "B"],
            "birth": pd.array([None] * 5, dtype="Int64"),
            "death": pd.array([None] * 5, dtype="Int64"),
            "bookshelves": [["Humor"], ["Humor"], ["Horror"], ["Horror"], ["Humor"]],
        }
    )
    sequences = {
        11: sequence('" , . " . , ,'),  # 7 marks: 2 excerpts, 1 mark dropped
        12: sequence('" ; . " ! ! ?'),  # 2 excerpts
        5: sequence('" ! " ! ! ! " ,'),  # 2 excerpts
        30: sequence('" , ;'),  # 1 excerpt
        31: sequence(", . ,"),  # no quotation mark: excluded
    }
    rows = pd.DataFrame([r for i, s in sequences.items() for r in excerpt_feature_rows(i, s, {"status": "ok"}, rule, 3)])
    return selection, rows


def _excerpt_corpus(excerpt_books, **options):
    selection, rows = excerpt_books
    settings = dict(min_docs_per_author=2, genre_shelves=["Humor", "Horror"], genre_min_docs=2,
                    genre_multi_shelf_rule="drop", excerpt_marks=3)
    return build_corpus(selection, rows, **{**settings, **options})


def test_excerpts_are_numbered_documents_of_their_texts(excerpt_books):
    from punctstyle.corpus.tables import EXCERPT_COLUMNS, EXCERPT_ID_BASE
    from punctstyle.sources.folder import HASHED_ID_BASE, book_number

    corpus, exclusions = _excerpt_corpus(excerpt_books)
    table = feature_table(corpus, "f1")
    assert list(table.columns[8:13]) == [*EXCERPT_COLUMNS, "n_words"]
    assert table["source_id"].tolist() == [5, 5, 11, 11, 12, 12, 30]  # in (text id, excerpt) order
    assert table["excerpt"].tolist() == [0, 1, 0, 1, 0, 1, 0]
    assert table["first_mark"].tolist() == [0, 3, 0, 3, 0, 3, 0]
    assert (table["stop_mark"] - table["first_mark"] == 3).all() and (table["n_marks"] == 3).all()
    ids = table["book_id"].tolist()
    assert ids == [EXCERPT_ID_BASE + k for k in range(7)]  # unique, in order
    # above every text id (Gutenberg numbers, a folder's digits and hashed ids), below 2**53
    assert EXCERPT_ID_BASE > HASHED_ID_BASE + 8 * HASHED_ID_BASE - 1 >= max(book_number(f"t{i}") for i in range(500))
    assert max(ids) < 2**53
    assert table["title"].tolist() == ["c", "c", "a", "a", "b", "b", "d"]
    assert exclusions["book_id"].tolist() == [31] and exclusions["stage"].tolist() == ["features"]
    # the same texts give the same ids
    again, _ = _excerpt_corpus(excerpt_books)
    assert again["book_id"].tolist() == ids


def test_min_docs_per_author_and_genres_count_texts(excerpt_books):
    # B has 3 excerpts but 2 included texts (5, 30): kept at 2, dropped at 3, one exclusion per text
    corpus, _ = _excerpt_corpus(excerpt_books)
    assert sorted(set(corpus["author"])) == ["A", "B"]
    corpus, exclusions = _excerpt_corpus(excerpt_books, min_docs_per_author=3)
    assert corpus.empty
    dropped = exclusions[exclusions["stage"] == "corpus"]
    assert dropped["book_id"].tolist() == [5, 11, 12, 30]
    assert set(dropped["reason"]) == {
        "author has 2 included books < min_docs_per_author 3",
    }
    # Humor: texts 11, 12 (4 excerpts); Horror: texts 5, 30 (3 excerpts); with genre_min_docs 3
    # counting texts neither genre is kept, though Humor has 4 excerpts
    corpus, _ = _excerpt_corpus(excerpt_books)
    assert dict(zip(corpus["source_id"], corpus["genre"])) == {5: "Horror", 11: "Humor", 12: "Humor", 30: "Horror"}
    corpus, _ = _excerpt_corpus(excerpt_books, genre_min_docs=3)
    assert corpus["genre"].isna().all()


def test_the_summary_counts_excerpts_per_text(excerpt_books):
    selection, _ = excerpt_books
    corpus, exclusions = _excerpt_corpus(excerpt_books)
    summary = corpus_summary(selection, corpus, exclusions)
    assert (summary["books_in_corpus"], summary["texts_in_corpus"], summary["excerpt_marks"]) == (7, 4, 3)
    assert [(t["book_id"], t["title"], t["excerpts"]) for t in summary["excerpts_per_text"]] == [
        (5, "c", 2), (11, "a", 2), (12, "b", 2), (30, "d", 1),
    ]
    assert "excerpts_per_text" not in corpus_summary(selection, corpus.drop(columns="excerpt"), exclusions)
    groups = exclusion_reason_groups(pd.DataFrame({
        "book_id": [1, 2], "stage": "features",
        "reason": ["too few punctuation marks for one excerpt: 40 < excerpt_marks 500",
                   "too few punctuation marks for one excerpt: 12 < excerpt_marks 500"]}))
    assert groups.to_dict("records") == [
        {"stage": "features", "reason": "too few punctuation marks for one excerpt (< 500)", "books": 2,
         "example": "too few punctuation marks for one excerpt: 40 < excerpt_marks 500"}
    ]


def test_feature_rows_of_another_excerpt_setting_are_refused(excerpt_books, books):
    with pytest.raises(ValueError, match="excerpt_marks=4 marks; rerun the extract_book"):
        _excerpt_corpus(excerpt_books, excerpt_marks=4)
    with pytest.raises(ValueError, match="they are excerpts, but extraction.excerpt_marks is null"):
        _excerpt_corpus(excerpt_books, excerpt_marks=None)
    selection, rows = books
    with pytest.raises(ValueError, match="they are whole texts, but extraction.excerpt_marks is 3"):
        build_corpus(selection, rows, min_docs_per_author=1, genre_shelves="paper", genre_min_docs=2,
                     genre_multi_shelf_rule="drop", excerpt_marks=3)


def test_text_groups_and_tables_keyed_by_text(excerpt_books, books):
    from punctstyle.corpus.tables import first_excerpt_ids, first_excerpts, per_document, text_groups

    corpus, _ = _excerpt_corpus(excerpt_books)
    assert text_groups(corpus).tolist() == [5, 5, 11, 11, 12, 12, 30]
    ids = corpus["book_id"].to_numpy()
    assert text_groups(corpus, ids[[6, 0, 3]]).tolist() == [30, 5, 11]
    assert first_excerpts(corpus)["book_id"].tolist() == ids[[0, 2, 4, 6]].tolist()
    assert first_excerpt_ids(corpus, [30, 11, 99]) == [ids[6], ids[2], 99]  # 99: no text, kept
    years = pd.DataFrame({"book_id": [11, 30, 77], "year": [1850, 1900, 1950]})
    expanded = per_document(years, corpus)
    assert expanded.to_dict("list") == {"book_id": ids[[2, 3, 6]].tolist(), "year": [1850, 1850, 1900]}
    # whole texts: nothing changes
    selection, rows = books
    whole, _ = build_corpus(selection, rows, min_docs_per_author=1, genre_shelves="paper", genre_min_docs=2,
                            genre_multi_shelf_rule="drop")
    assert text_groups(whole) is None and first_excerpt_ids(whole, [4, 1]) == [4, 1]
    assert per_document(years, whole) is years and first_excerpts(whole) is whole


def test_time_slot_and_gender_columns_are_labels_of_the_tables_and_counted(books):
    selection, rows = books
    plain, _ = build_corpus(selection, rows, min_docs_per_author=1, genre_shelves="paper", genre_min_docs=2,
                            genre_multi_shelf_rule="most_specific")
    # a selection without them (Gutenberg): tables and summary as before
    assert "time_slot" not in feature_table(plain, "f1") and "gender" not in feature_table(plain, "f1")
    assert not {"time_slots_in_corpus", "genders_in_corpus"} & set(corpus_summary(selection, plain, pd.DataFrame(
        {"book_id": [], "stage": [], "reason": []})))
    tei = selection.assign(time_slot=["T1", " T2 ", "T1", "", "T3"], gender=["F", "", None, "M", "M"])
    corpus, exclusions = build_corpus(tei, rows, min_docs_per_author=1, genre_shelves="paper", genre_min_docs=2,
                                      genre_multi_shelf_rule="most_specific")
    table = feature_table(corpus, "f1")
    assert list(table.columns[:9]) == ["book_id", "title", "author", "birth", "death", "bookshelves", "genre",
                                       "time_slot", "gender"]
    # books 1, 2, 4 are in the corpus; a blank label is null (left out of the task)
    assert table["time_slot"].tolist() == ["T1", "T2", None] and table["gender"].tolist() == ["F", None, "M"]
    summary = corpus_summary(tei, corpus, exclusions)
    assert summary["time_slots_in_corpus"] == 2 and summary["genders_in_corpus"] == 2
