"""Editions of one novel against novels of one author and of two (punctstyle.analyses.editions,
issue 34 item 5): exact worked examples on our own tables and vectors."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from punctstyle.analyses.editions import (
    edition_pairs,
    edition_share,
    match_editions,
    pair_divergences,
    relation_summary,
    source_name,
    surname_key,
    title_key,
)
from punctstyle.sources.tei import digital_source, parse_tree

TEI = """<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader><fileDesc><titleStmt><title>T</title></titleStmt>
<sourceDesc>{bibl}<bibl type="firstEdition"><date>1850</date></bibl></sourceDesc></fileDesc></teiHeader>
<text><body><p>Words, and more words.</p></body></text></TEI>"""


@pytest.mark.parametrize(
    ("author", "key"),
    [("Eliot, George [pseud.]", "eliot"), ("Trollope, Anthony, 1815-1882", "trollope"), ("Brontë, Emily", "bronte"),
     ("Du Maurier, George", "du maurier"), ("   ", ""), (None, "")],
)
def test_surname_key(author, key):
    assert surname_key(author) == key


@pytest.mark.parametrize(
    ("title", "key"),
    [("The Mayor of Casterbridge: The Life and Death of a Man of Character", "mayor of casterbridge"),
     ("Sybil, Or the Two Nations", "sybil"), ("Tono-bungay", "tono bungay"), ("Tono-Bungay", "tono bungay"),
     ("A Tale; with notes", "tale"), ("Auriol, or The elixir of life", "auriol"), ("The Man Who Was Thursday: A Nightmare",
                                                                                    "man who was thursday"),
     (float("nan"), "")],
)
def test_title_key(title, key):
    assert title_key(title) == key


def test_match_editions_by_surname_and_title_every_person_of_a_cell():
    collection = pd.DataFrame({"doc_id": ["E1", "E2", "E3", "E4"],
                               "author": ["Hardy, Thomas", "Wells, Herbert George", "Wells, Herbert George", ""],
                               "title": ["The Mayor of Casterbridge: A Story", "The Time Machine", "Kipps", "Anon"]})
    catalog = pd.DataFrame({"book_id": [143, 35, 36, 5, 9],
                            "authors": ["Hardy, Thomas, 1840-1928", "Wells, H. G. (Herbert George), 1866-1946",
                                        "Smith, Ann; Wells, Herbert George, 1866-1946", "Hardy, Thomas", "Nobody"],
                            "title": ["The Mayor of Casterbridge", "The Time Machine", "Kipps: the story", "Tess",
                                      "Anon"]})
    matched = match_editions(collection, catalog)
    assert matched[["doc_id", "book_id"]].values.tolist() == [["E1", 143], ["E2", 35], ["E3", 36]]
    assert matched["surname"].tolist() == ["hardy", "wells", "wells"]


def test_source_name():
    assert source_name("http://www.gutenberg.org/files/11/11-h/11-h.htm") == "Project Gutenberg"
    assert source_name("Chadwyck-Healey Ltd") == "other"
    assert source_name("  ") == "unknown"


def test_digital_source_is_the_ref_target_or_the_bibl_text():
    with_ref = TEI.format(bibl='<bibl type="digitalSource"><title>T</title><ref target="http://www.gutenberg.org/x">G</ref></bibl>')
    assert digital_source(parse_tree(with_ref.encode())) == "http://www.gutenberg.org/x"
    text_only = TEI.format(bibl='<bibl type="digitalSource"><title>T</title> <publisher>Chadwyck-Healey</publisher></bibl>')
    assert digital_source(parse_tree(text_only.encode())) == "T Chadwyck-Healey"
    assert digital_source(parse_tree(TEI.format(bibl="").encode())) == ""


def _matches() -> pd.DataFrame:
    return pd.DataFrame({"doc_id": ["E1", "E2", "E3"], "book_id": [1, 2, 3], "author": ["A, a", "B, b", "A, a"],
                         "title": ["x", "y", "z"], "surname": ["a", "b", "a"]})


def test_edition_pairs():
    pairs = edition_pairs(_matches(), {1: [10, 11], 2: [], 3: [12]})
    assert pairs.values.tolist() == [
        ["edition", ("tei", "E1"), ("gutenberg", 1), "E1"],
        ["same author", ("gutenberg", 1), ("gutenberg", 10), "E1"],
        ["same author", ("gutenberg", 1), ("gutenberg", 11), "E1"],
        ["edition", ("tei", "E2"), ("gutenberg", 2), "E2"],
        ["edition", ("tei", "E3"), ("gutenberg", 3), "E3"],
        ["same author", ("gutenberg", 3), ("gutenberg", 12), "E3"],
        # E1 and E3 share a surname: not a pair of two authors
        ["different authors", ("gutenberg", 1), ("gutenberg", 2), "E1"],
        ["different authors", ("gutenberg", 2), ("gutenberg", 3), "E2"],
    ]


def test_divergences_summary_and_share():
    vectors = {("tei", "E1"): [0.5, 0.5], ("gutenberg", 1): [0.5, 0.5], ("gutenberg", 10): [0.25, 0.75],
               ("gutenberg", 11): [0.75, 0.25], ("tei", "E2"): [0.2, 0.8], ("gutenberg", 2): [0.8, 0.2]}
    features = {key: {"f1": np.array(v)} for key, v in vectors.items()}
    pairs = edition_pairs(_matches().iloc[:2], {1: [10, 11], 2: []})
    table = pair_divergences(pairs, features, ["f1"])
    d_half_quarter = 0.5 * (0.5 * math.log(2) + 0.5 * math.log(2 / 3) + 0.25 * math.log(0.5) + 0.75 * math.log(1.5))
    d_e2 = 0.2 * math.log(0.25) + 0.8 * math.log(4)  # symmetric: both directions equal here
    # gutenberg 1 (0.5, 0.5) against gutenberg 2 (0.8, 0.2): the two directions differ
    d_diff = 0.5 * ((0.5 * math.log(0.5 / 0.8) + 0.5 * math.log(0.5 / 0.2)) + (0.8 * math.log(1.6) + 0.2 * math.log(0.4)))
    assert table["f1"].tolist() == pytest.approx([0.0, d_half_quarter, d_half_quarter, d_e2, d_diff], rel=1e-12)
    summary = relation_summary(table, ["f1"])
    assert summary[["relation", "pairs"]].values.tolist() == [["edition", 2], ["same author", 2],
                                                              ["different authors", 1]]
    assert summary.loc[summary["relation"] == "edition", "median"].item() == pytest.approx(d_e2 / 2)
    shares = edition_share(table, ["f1"])
    assert shares["novel"].tolist() == ["E1", "E2"]
    first = shares.iloc[0]
    assert first["edition_kl"] == 0.0 and first["same_author_pairs"] == 2 and first["share"] == 0.0 and first["below_all"]
    second = shares.iloc[1]  # no same-author pair: no share
    assert second["same_author_pairs"] == 0 and math.isnan(second["share"]) and not second["below_all"]
