"""Parts of a book versus the whole (punctstyle.descriptive.parts), on sequences small enough to do by hand."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from punctstyle.divergence import kl_divergence
from punctstyle.features import compute_features
from punctstyle.marks import COMMA, PERIOD, SEMICOLON
from punctstyle.descriptive.parts import (
    PART_COLUMNS,
    References,
    book_part_divergences,
    part_and_rest_features,
    part_bounds,
    parts_analysis,
    parts_summary,
)
from punctstyle.descriptive.parts import SKIPPED_COLUMNS, authors_without_other_text

C, P, S = COMMA, PERIOD, SEMICOLON


def test_part_bounds_are_exact():
    assert part_bounds(10, 3).tolist() == [[0, 3], [3, 6], [6, 9]]  # mark 9 is in no part
    assert part_bounds(8, 4).tolist() == [[0, 2], [2, 4], [4, 6], [6, 8]]
    assert part_bounds(5, 1).tolist() == [[0, 5]]
    with pytest.raises(ValueError):
        part_bounds(5, 0)


def test_parts_have_the_features_of_their_marks():
    rng = np.random.default_rng(0)
    marks, gaps = rng.integers(0, 10, 103), rng.integers(0, 50, 103)
    parts, _ = part_and_rest_features(marks, gaps, 4)
    for q, (start, stop) in enumerate(part_bounds(103, 4)):
        expected = compute_features(marks[start:stop], gaps[start:stop])
        for feature in ("f1", "f3", "f5"):
            np.testing.assert_allclose(parts[feature][q], expected[feature], atol=1e-15)


def test_the_rest_is_two_segments_with_no_transition_across_the_part():
    # parts of 2 marks: [, ,] [. .] [. ,]; the rest of the middle part is [, ,] + [. ,]
    marks, gaps = np.array([C, C, P, P, P, C]), np.array([1, 2, 3, 4, 5, 6])
    _, rest = part_and_rest_features(marks, gaps, 3)
    # by hand: 3 commas, 1 period; transitions , -> , and . -> , (not the , -> . across the gap)
    expected_f1 = np.zeros(10)
    expected_f1[[C, P]] = [0.75, 0.25]
    np.testing.assert_allclose(rest["f1"][1], expected_f1)
    f3 = np.zeros((10, 10))
    f3[C, C], f3[P, C] = 0.75 * 1.0, 0.25 * 1.0
    np.testing.assert_allclose(rest["f3"][1], f3.ravel())
    f5 = np.zeros(40)
    f5[[1, 2, 5, 6]] = 0.25  # the gaps of marks 0, 1, 4, 5
    np.testing.assert_allclose(rest["f5"][1], f5)
    # the first part's rest is one segment [. . . ,]: transitions . -> . twice, . -> , once
    f3 = np.zeros((10, 10))
    f3[P, P], f3[P, C] = 0.75 * 2 / 3, 0.75 * 1 / 3
    np.testing.assert_allclose(rest["f3"][0], f3.ravel())


def references_of(books: dict[int, tuple[str, np.ndarray, np.ndarray]]) -> References:
    features = {f: np.array([compute_features(m, g)[f] for _, m, g in books.values()]) for f in ("f1", "f3", "f5")}
    authors = np.array([a for a, _, _ in books.values()], dtype=object)
    return References(features, authors, np.array(list(books)))


def test_kl_of_a_part_to_the_rest_by_hand():
    # , . , | , . .  -> part 0 has f1 (2/3, 1/3), its rest (1/3, 2/3)
    marks, gaps = np.array([C, P, C, C, P, P]), np.array([2, 2, 2, 2, 2, 2])
    other = (np.array([S, C, S, P]), np.array([1, 1, 1, 1]))
    refs = references_of({1: ("A", marks, gaps), 2: ("A", *other), 3: ("B", *other), 4: ("C", marks, gaps)})
    rows = book_part_divergences(marks, gaps, book_id=1, author="A", n_parts=2, references=refs,
                                 sample=np.array([2, 3]))
    assert list(rows.columns) == PART_COLUMNS and len(rows) == 6
    f1 = rows[rows["feature"] == "f1"].set_index("part")
    # d(rest, part) = 1/3 ln((1/3)/(2/3)) + 2/3 ln((2/3)/(1/3)) = ln(2)/3 (and the same for part 1)
    assert f1.loc[0, "kl_rest"] == pytest.approx(math.log(2) / 3)
    assert f1.loc[1, "kl_rest"] == pytest.approx(math.log(2) / 3)
    # f5: every gap is 2 in part and rest: identical distributions
    assert rows.loc[rows["feature"] == "f5", "kl_rest"].tolist() == [0.0, 0.0]
    # (b) the author's other book (book 2) only, never the book itself
    part0 = compute_features(marks[:3], gaps[:3])["f1"]
    own = compute_features(*other)["f1"]
    assert f1.loc[0, "kl_own_author"] == pytest.approx(kl_divergence(own, part0))
    # (c) the mean over the sampled books 3 (author B) and 4 (author C, same text as book 1)
    whole = compute_features(marks, gaps)["f1"]
    assert f1.loc[0, "kl_other_books"] == pytest.approx((kl_divergence(own, part0) + kl_divergence(whole, part0)) / 2)
    # nearest other author: C's mean (the whole book) beats B's
    assert f1.loc[0, "kl_nearest_other_author"] == pytest.approx(kl_divergence(whole, part0))
    assert f1.loc[0, "closer_to_own_book"] == (math.log(2) / 3 < kl_divergence(whole, part0))


def test_an_author_with_one_book_has_no_own_author_divergence():
    marks, gaps = np.array([C, P, C, C, P, P]), np.ones(6, dtype=int)
    refs = references_of({1: ("A", marks, gaps), 2: ("B", marks[::-1], gaps)})
    rows = book_part_divergences(marks, gaps, book_id=1, author="A", n_parts=2, references=refs,
                                 sample=np.array([1]))
    assert rows["kl_own_author"].isna().all()
    assert not rows["closer_to_own_author"].any()


def test_short_books_are_skipped_and_counted():
    rng = np.random.default_rng(1)
    books = {i: ("A" if i < 3 else "B", rng.integers(0, 10, n), rng.integers(0, 9, n))
             for i, n in enumerate([40, 40, 24, 40, 40])}
    refs = references_of(books)
    sequences = [(m, g) for _, m, g in books.values()]
    rows, skipped = parts_analysis(sequences, refs, part_counts=[2, 4], min_part_marks=10, n_other_books=2, seed=0)
    assert skipped.to_dict("records") == [{"n_parts": 2, "n_books": 5, "n_skipped": 0, "n_no_other_text": 0},
                                          {"n_parts": 4, "n_books": 4, "n_skipped": 1, "n_no_other_text": 0}]
    assert len(rows) == 3 * (5 * 2 + 4 * 4)
    again, _ = parts_analysis(sequences, refs, part_counts=[2, 4], min_part_marks=10, n_other_books=2, seed=0)
    pd.testing.assert_frame_equal(rows, again)  # seeded sample of other authors' books
    summary = parts_summary(rows, skipped)
    assert set(zip(summary["feature"], summary["n_parts"])) == {(f, p) for f in ("f1", "f3", "f5") for p in (2, 4)}
    line = summary[(summary["feature"] == "f1") & (summary["n_parts"] == 4)].iloc[0]
    assert (line["n_parts_total"], line["n_skipped"], line["median_part_marks"]) == (16, 1, 10)
    assert 0.0 <= line["share_closer_to_own_book"] <= 1.0


# ------------------------------------------------ excerpts: the own text is left out of the author


EXCERPTS = {  # 2 authors x 2 texts x 2 excerpts, then author C: 1 text x 2 excerpts
    101: ("A", 10, [C, P, C, C, P, P]), 102: ("A", 10, [C, C, C, P, C, P]),
    103: ("A", 11, [S, C, S, P, C, P]), 104: ("A", 11, [S, S, C, P, P, P]),
    105: ("B", 20, [P, P, S, C, P, P]), 106: ("B", 20, [S, P, S, P, C, C]),
    107: ("B", 21, [C, S, C, S, P, P]), 108: ("B", 21, [P, C, P, C, S, S]),
    109: ("C", 30, [S, S, S, C, P, C]), 110: ("C", 30, [C, S, S, P, S, P]),
}


def excerpt_references(texts: bool = True) -> tuple[References, list]:
    sequences = [(np.array(m), np.arange(1, 7)) for _, _, m in EXCERPTS.values()]
    features = {f: np.array([compute_features(m, g)[f] for m, g in sequences]) for f in ("f1", "f3", "f5")}
    authors = np.array([a for a, _, _ in EXCERPTS.values()], dtype=object)
    text_ids = np.array([t for _, t, _ in EXCERPTS.values()]) if texts else None
    return References(features, authors, np.array(list(EXCERPTS)), text_ids), sequences


def test_the_own_author_reference_leaves_out_the_excerpts_own_text():
    refs, sequences = excerpt_references()
    marks, gaps = sequences[0]  # excerpt 101 of text 10 (author A)
    rows = book_part_divergences(marks, gaps, book_id=101, author="A", n_parts=2, references=refs,
                                 sample=np.array([4, 6]), text=10)
    f1 = rows[rows["feature"] == "f1"].set_index("part")
    part0 = compute_features(marks[:3], gaps[:3])["f1"]
    # R = the excerpts of text 11 only (rows 2, 3): never 101 itself nor 102, its own text's other excerpt
    reference = refs.features["f1"][[2, 3]].mean(axis=0)
    assert f1.loc[0, "kl_own_author"] == pytest.approx(kl_divergence(reference, part0), abs=1e-12)
    np.testing.assert_array_equal(refs.signature_without("f1", "A", 10), reference)
    # whole texts (no source ids): the book itself only is left out, so 102 is in the reference
    whole, _ = excerpt_references(texts=False)
    np.testing.assert_allclose(whole.signature_without("f1", "A", 101), refs.features["f1"][[1, 2, 3]].mean(axis=0))
    assert not np.allclose(whole.signature_without("f1", "A", 101), reference)
    # without text=, a document is its own text: the whole-text rule
    again = book_part_divergences(marks, gaps, book_id=101, author="A", n_parts=2, references=whole,
                                  sample=np.array([4, 6]))
    part_kl = kl_divergence(whole.signature_without("f1", "A", 101), part0)
    assert again.loc[(again["feature"] == "f1") & (again["part"] == 0), "kl_own_author"].item() == pytest.approx(part_kl)


def test_authors_with_one_text_are_counted_and_have_no_own_author_reference():
    refs, sequences = excerpt_references()
    assert authors_without_other_text(refs.authors, refs.text_ids).tolist() == ["C"]
    assert authors_without_other_text(refs.authors, refs.book_ids).tolist() == []  # as whole texts
    assert np.isnan(refs.signature_without("f3", "C", 30)).all()
    rows, skipped = parts_analysis(sequences, refs, part_counts=[2, 3], min_part_marks=3, n_other_books=3, seed=0)
    assert list(skipped.columns) == SKIPPED_COLUMNS
    assert skipped.to_dict("records") == [{"n_parts": 2, "n_books": 10, "n_skipped": 0, "n_no_other_text": 2},
                                          {"n_parts": 3, "n_books": 0, "n_skipped": 10, "n_no_other_text": 0}]
    by_author = rows.groupby("author")["kl_own_author"]
    assert by_author.apply(lambda v: v.isna().all()).to_dict() == {"A": False, "B": False, "C": True}
    f1_rows = rows[rows["feature"] == "f1"]  # (f3 of 3 marks can share no support with a reference: NaN)
    assert f1_rows.loc[f1_rows["author"] != "C", "kl_own_author"].notna().all()
    # each excerpt's reference is its author's other text: 103's is the mean of 101 and 102
    f1 = rows[(rows["book_id"] == 103) & (rows["feature"] == "f1") & (rows["part"] == 1)]
    marks, gaps = sequences[2]
    expected = kl_divergence(refs.features["f1"][[0, 1]].mean(axis=0), compute_features(marks[3:], gaps[3:])["f1"])
    assert f1["kl_own_author"].item() == pytest.approx(expected, abs=1e-12)
    # C's parts are left out of the own-author share (undefined), not counted as "not closer"
    summary = parts_summary(rows, skipped).set_index(["feature", "n_parts"])
    defined = rows[(rows["feature"] == "f1") & rows["kl_own_author"].notna() & rows["kl_nearest_other_author"].notna()]
    assert summary.loc[("f1", 2), "share_closer_to_own_author"] == pytest.approx(defined["closer_to_own_author"].mean())


def test_references_from_excerpt_tables_know_the_texts():
    from punctstyle.marks import feature_column_names

    refs, _ = excerpt_references()
    tables = {}
    for feature in ("f1", "f3", "f5"):
        table = pd.DataFrame(refs.features[feature], columns=feature_column_names(feature))
        table.insert(0, "book_id", refs.book_ids)
        table.insert(1, "author", refs.authors)
        tables[feature] = table
    whole = References.from_tables(tables)
    assert whole.texts is None and whole.text_ids.tolist() == list(EXCERPTS)
    for table in tables.values():
        table.insert(2, "source_id", refs.texts)
    excerpts = References.from_tables(tables)
    assert excerpts.text_ids.tolist() == [t for _, t, _ in EXCERPTS.values()]
    np.testing.assert_array_equal(excerpts.signature_without("f1", "A", 10), refs.signature_without("f1", "A", 10))
