"""Tests of punctstyle.sources.catalog: reading the catalog, parsing authors, filters, genres."""

from __future__ import annotations

import time
from pathlib import Path

import pandas as pd
import pytest

from punctstyle.sources.genres import (
    BROAD_GENRE_SHELVES,
    GENRE_SHELF_SETS,
    PAPER_GENRE_SHELVES,
    assign_genres,
    genre_shelves,
)
from punctstyle.sources.catalog import (
    CATALOG_COLUMNS,
    MAX_BOOK_ID,
    parse_catalog,
    read_catalog,
)
from punctstyle.sources.selection import (
    SELECTION_COLUMNS,
    EmptySelectionError,
    cap_docs,
    filter_authors,
    filter_language,
    filter_min_docs,
    filter_title_words,
    filter_type,
    filter_unique_ids,
    filter_unique_titles,
    largest_author,
    normalize_title,
    sample_authors,
    select_books,
)
from punctstyle.sources.persons import (
    Person,
    first_author,
    parse_person,
    parse_persons,
    parse_years,
    split_cell,
)
from punctstyle.io import InputError
from punctstyle.settings import schema_default

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
MIRROR_CATALOG = SHARED / "gutenberg-mirror" / "cache" / "epub" / "feeds" / "pg_catalog.csv"
FULL_CATALOG = SHARED / "catalogs" / "pg_catalog_2018_full.csv"

# ---------------------------------------------------------------------------------------
# helpers: hand-made catalogs
# ---------------------------------------------------------------------------------------


def raw_row(
    book_id, title, authors, *, language="en", type_="Text", shelves="", subjects="", issued="2000-01-01"
):
    return {
        "Text#": book_id,
        "Type": type_,
        "Issued": issued,
        "Title": title,
        "Language": language,
        "Authors": authors,
        "Subjects": subjects,
        "LoCC": "PR",
        "Bookshelves": shelves,
    }


def raw_catalog(rows) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=list(CATALOG_COLUMNS))


def books(*rows) -> pd.DataFrame:
    """A minimal parsed table: (book_id, title, author) rows."""
    return pd.DataFrame(rows, columns=["book_id", "title", "author"])


def author_books(counts: dict[str, int], start: int = 1) -> pd.DataFrame:
    """``counts[author]`` books per author, distinct titles, consecutive ids."""
    rows, book_id = [], start
    for author, n in counts.items():
        for k in range(n):
            rows.append((book_id, f"{author} book {k}", author))
            book_id += 1
    return books(*rows)


def write_csv(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


# ---------------------------------------------------------------------------------------
# read_catalog
# ---------------------------------------------------------------------------------------

HEADER = "Text#,Type,Issued,Title,Language,Authors,Subjects,LoCC,Bookshelves\n"


class TestReadCatalog:
    def test_reads_strings_and_int_ids(self, tmp_path):
        path = write_csv(
            tmp_path / "pg_catalog.csv",
            HEADER
            + '7,Text,2001-02-03,"A Tale\nof Two Lines",en,"Smith, Ann, 1800-1870; Roe, Bo [Illustrator]",,PR,Humor; Poetry\n'
            + "8,Sound,2001-02-04,Noise,en,,,,\n",
        )
        frame = read_catalog(path)
        assert list(frame.columns) == list(CATALOG_COLUMNS)
        assert frame["Text#"].tolist() == [7, 8]
        assert frame["Text#"].dtype == "int64"
        assert frame.loc[0, "Title"] == "A Tale\nof Two Lines"
        assert frame.loc[1, "Authors"] == ""  # empty cell -> "" (not NaN)
        assert split_cell(frame.loc[0, "Bookshelves"]) == ["Humor", "Poetry"]

    def test_missing_column_is_input_error_naming_file(self, tmp_path):
        path = write_csv(tmp_path / "bad.csv", "Text#,Type,Title\n1,Text,X\n")
        with pytest.raises(InputError) as info:
            read_catalog(path)
        message = str(info.value)
        assert str(path) in message and "Authors" in message and "\n" not in message

    def test_missing_file(self, tmp_path):
        with pytest.raises(InputError, match="not found"):
            read_catalog(tmp_path / "absent.csv")

    def test_empty_file(self, tmp_path):
        with pytest.raises(InputError, match="empty"):
            read_catalog(write_csv(tmp_path / "empty.csv", ""))

    def test_unparseable_file(self, tmp_path):
        path = tmp_path / "binary.csv"
        path.write_bytes(HEADER.encode() + b'1,Text,2000,"\xff\xfe broken,en,,,,\n')
        with pytest.raises(InputError) as info:
            read_catalog(path)
        assert str(path) in str(info.value) and "\n" not in str(info.value)

    def test_non_numeric_book_id(self, tmp_path):
        path = write_csv(tmp_path / "ids.csv", HEADER + "abc,Text,2000,T,en,,,,\n")
        with pytest.raises(InputError, match="Text#"):
            read_catalog(path)

    def test_invalid_book_ids_are_dropped_and_counted(self, tmp_path):
        too_big = str(MAX_BOOK_ID + 1)  # past 64 bits: would overflow int64
        rows = [f"{book_id},Text,2000,T{k},en,\"Smith, Ann, 1800-1870\",,PR,\n"
                for k, book_id in enumerate(["0", "5", too_big, "000", "18446744073709551616" * 2, str(MAX_BOOK_ID), "07"])]
        frame = read_catalog(write_csv(tmp_path / "ids.csv", HEADER + "".join(rows)))
        assert frame["Text#"].tolist() == [5, MAX_BOOK_ID, 7]
        assert frame["Title"].tolist() == ["T1", "T5", "T6"]  # each id stays with its row
        assert frame.attrs["invalid_book_ids"] == 4
        selection, log = select_books(frame, min_docs_per_author=3)
        assert log[0] == {"filter": "valid_book_ids", "removed": 4, "remaining": 3}
        assert selection["book_id"].tolist() == [5, 7, MAX_BOOK_ID]

    def test_negative_book_ids_are_dropped_and_counted_like_zero(self, tmp_path):
        rows = [f"{book_id},Text,2000,T{k},en,\"Smith, Ann, 1800-1870\",,PR,\n"
                for k, book_id in enumerate(["-5", "5", "0", "-0", "6", "7"])]
        frame = read_catalog(write_csv(tmp_path / "neg.csv", HEADER + "".join(rows)))
        assert frame["Text#"].tolist() == [5, 6, 7] and frame.attrs["invalid_book_ids"] == 3
        selection, log = select_books(frame, min_docs_per_author=3)
        assert log[0] == {"filter": "valid_book_ids", "removed": 3, "remaining": 3}
        assert selection["book_id"].tolist() == [5, 6, 7]

    def test_header_only_catalog(self, tmp_path):
        frame = read_catalog(write_csv(tmp_path / "header.csv", HEADER))
        assert frame.empty and frame.attrs["invalid_book_ids"] == 0
        with pytest.raises(EmptySelectionError) as info:
            select_books(frame)
        message = str(info.value)
        assert "min_docs_per_author=10" in message and "the largest author has 0" in message
        assert "\n" not in message


def test_split_cell():
    assert split_cell("a; b;  c ") == ["a", "b", "c"]
    assert split_cell("") == [] and split_cell(None) == [] and split_cell(float("nan")) == []


# ---------------------------------------------------------------------------------------
# persons and years
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, name, birth, death",
    [
        ("Dickens, Charles, 1812-1870", "Dickens, Charles", 1812, 1870),
        ("Plato, 428? BCE-348? BCE", "Plato", -428, -348),
        ("Plato, 428 BCE-348 BCE", "Plato", -428, -348),
        ("Defoe, Daniel, -1731", "Defoe, Daniel", None, 1731),
        ("Smith, John, 1900-", "Smith, John", 1900, None),
        ("Smith, John, fl. 1600", "Smith, John", None, None),
        ("Murray, John", "Murray, John", None, None),
        ("Foo, Ann, 1840?-1900", "Foo, Ann", 1840, 1900),
        ("Nennius, active 796", "Nennius", None, None),
        ("Gan, Bao, active 317-322", "Gan, Bao", None, None),
        ("Krasinski, Valerian, Count, approximately 1780-1855", "Krasinski, Valerian, Count", 1780, 1855),
        ("Sunzi, active 6th century B.C.", "Sunzi", None, None),
        ("Li, Yuxiu, active 17th century-18th century", "Li, Yuxiu", None, None),
        ("Roe, Bo, 17th cent.", "Roe, Bo", None, None),
        ("Euripides, -406 BCE", "Euripides", None, -406),
        ("Ovid, 43 BCE-17", "Ovid", -43, 17),
        ("Caesar, Julius, 100-44 BC", "Caesar, Julius", -100, -44),
        ("Caesar, Julius, 100 B.C.-44 B.C.", "Caesar, Julius", -100, -44),
        ("Wu, Chuhou, jin shi 1053", "Wu, Chuhou", None, None),
        ("Henry Hazlitt (1894-1993)", "Henry Hazlitt", 1894, 1993),
        ("Waters, W. G., Mrs.", "Waters, W. G., Mrs.", None, None),
        ("United States", "United States", None, None),
        ("Great Britain. Army. Battalion, 5th", "Great Britain. Army. Battalion, 5th", None, None),
        ("Hay, Gilbert,\u200f \u200eSir,\u200f active 1456", "Hay, Gilbert, Sir", None, None),
    ],
)
def test_parse_person_years(text, name, birth, death):
    person = parse_person(text)
    assert (person.name, person.birth, person.death, person.role) == (name, birth, death, None)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("1812-1870", (1812, 1870)),
        ("428? BCE-348? BCE", (-428, -348)),
        ("-1731", (None, 1731)),
        ("1900-", (1900, None)),
        ("fl. 1600", (None, None)),
        ("active 1600", (None, None)),
        ("17th cent.", (None, None)),
        ("approximately 5th century", (None, None)),
        ("", (None, None)),
        ("nonsense", (None, None)),
        ("-", (None, None)),
    ],
)
def test_parse_years(text, expected):
    assert parse_years(text) == expected


@pytest.mark.parametrize(
    "text, name, role",
    [
        ("Leech, John, 1817-1864 [Illustrator]", "Leech, John", "Illustrator"),
        ("Jowett, Benjamin, 1817-1893 [Translator]", "Jowett, Benjamin", "Translator"),
        ("Raymond, Eric S., 1957- [Editor]", "Raymond, Eric S.", "Editor"),
        ("Gaffin, Adam [Author of introduction, etc.]", "Gaffin, Adam", "Author of introduction, etc."),
        ("Anonymous [Translator]", "Anonymous", "Translator"),
    ],
)
def test_role_tags(text, name, role):
    person = parse_person(text)
    assert person.name == name and person.role == role


def test_role_does_not_hide_years():
    assert parse_person("Leech, John, 1817-1864 [Illustrator]") == Person(
        name="Leech, John", birth=1817, death=1864, role="Illustrator", key="Leech, John, 1817-1864"
    )


def test_parse_persons_and_first_author():
    cell = "Leech, John, 1817-1864 [Illustrator]; Dickens, Charles, 1812-1870; Forster, John, 1812-1876"
    persons = parse_persons(cell)
    assert [p.name for p in persons] == ["Leech, John", "Dickens, Charles", "Forster, John"]
    assert first_author(cell).name == "Dickens, Charles"
    assert first_author("Lang, Andrew, 1844-1912 [Editor]") is None
    assert first_author("") is None and parse_persons("") == []


# ---------------------------------------------------------------------------------------
# parse_catalog
# ---------------------------------------------------------------------------------------


def test_parse_catalog_columns_and_types():
    raw = raw_catalog(
        [
            raw_row(
                3,
                "Dialogues",
                "Jowett, Benjamin, 1817-1893 [Translator]; Plato, 428? BCE-348? BCE",
                shelves="Philosophy",
                subjects="Ethics; Logic",
            ),
            raw_row(1, "Anthology", "Lang, Andrew, 1844-1912 [Editor]"),
        ]
    )
    parsed = parse_catalog(raw)
    assert parsed["book_id"].tolist() == [3, 1]
    assert parsed.loc[0, "author"] == "Plato"
    assert parsed.loc[0, "author_key"] == "Plato, 428? BCE-348? BCE"
    assert parsed["birth"].dtype == "Int64" and parsed.loc[0, "birth"] == -428
    assert parsed.loc[0, "bookshelves"] == ["Philosophy"] and parsed.loc[1, "bookshelves"] == []
    assert parsed.loc[0, "subjects"] == ["Ethics", "Logic"]
    assert pd.isna(parsed.loc[1, "author"]) and pd.isna(parsed.loc[1, "death"])


# ---------------------------------------------------------------------------------------
# filters
# ---------------------------------------------------------------------------------------


def test_filter_unique_ids_keeps_first_row():
    frame = books((5, "First", "A"), (5, "Second", "A"), (6, "Other", "B"))
    assert filter_unique_ids(frame)["title"].tolist() == ["First", "Other"]


def test_filter_language_only_that_language():
    frame = pd.DataFrame({"book_id": [1, 2, 3, 4], "language": ["en", "fr", "en; de", "de; en"]})
    assert filter_language(frame, "en")["book_id"].tolist() == [1]
    assert filter_language(frame, "fr")["book_id"].tolist() == [2]
    assert len(filter_language(frame, None)) == 4


def test_filter_type():
    frame = pd.DataFrame({"book_id": [1, 2, 3], "type": ["Text", "Sound", "Image"]})
    assert filter_type(frame, "Text")["book_id"].tolist() == [1]
    assert len(filter_type(frame, None)) == 3


def test_filter_authors_drops_labels_and_authorless():
    frame = books(
        (1, "a", "Various"),
        (2, "b", "Anonymous"),
        (3, "c", "Unknown"),
        (4, "d", None),
        (5, "e", "Dickens, Charles"),
        (6, "f", "various"),
    )
    kept = filter_authors(frame, ("Various", "Anonymous", "Unknown"))
    assert kept["book_id"].tolist() == [5]
    assert filter_authors(frame, ())["book_id"].tolist() == [1, 2, 3, 5, 6]


def test_normalize_title():
    assert normalize_title("Henry VI, Part 3") == normalize_title("henry vi -- part 3.")
    assert normalize_title("Through the Looking-Glass") == normalize_title("THROUGH THE LOOKING GLASS")
    assert normalize_title("Dawn") != normalize_title("Dusk")


def test_filter_unique_titles_case_and_punctuation_keeps_lowest_id():
    frame = books(
        (30, "The Raven!", "Poe, Edgar Allan"),
        (10, "the raven", "Someone, Else"),
        (20, "THE RAVEN.", "Poe, Edgar Allan"),
        (40, "The Raven; and Other Poems", "Poe, Edgar Allan"),
        (50, "Emma", "Austen, Jane"),
    )
    kept = filter_unique_titles(frame)
    assert sorted(kept["book_id"].tolist()) == [10, 40, 50]
    assert kept["book_id"].tolist() == [10, 40, 50]  # row order preserved
    assert len(filter_unique_titles(frame, unique=False)) == 5


def test_filter_unique_titles_never_merges_empty_titles():
    frame = books((1, "", "A"), (2, "...", "B"), (3, "", "C"))
    assert len(filter_unique_titles(frame)) == 3


def test_filter_title_words_complete():
    frame = books(
        (1, "The Works of Poe -- Complete", "A"),
        (2, "COMPLETE Poems", "A"),
        (3, "The Completed Task", "A"),
        (4, "Incomplete Stories", "A"),
        (5, "Plain Title", "A"),
        (6, "Part One\nComplete Works, Volume 2", "A"),
    )
    assert filter_title_words(frame, ("complete",))["book_id"].tolist() == [3, 4, 5]
    assert len(filter_title_words(frame, ())) == 6


def test_filter_min_docs():
    frame = author_books({"A": 10, "B": 9, "C": 12})
    kept = filter_min_docs(frame, 10)
    assert kept["author"].value_counts().to_dict() == {"C": 12, "A": 10}
    assert len(filter_min_docs(frame, None)) == 31 and len(filter_min_docs(frame, 1)) == 31


def test_filter_min_docs_uses_author_key_for_namesakes():
    frame = author_books({"Dumas, Alexandre, 1802-1870": 3, "Dumas, Alexandre, 1824-1895": 2})
    frame["author_key"] = frame["author"]
    frame["author"] = "Dumas, Alexandre"
    assert len(filter_min_docs(frame, 3)) == 3
    assert len(filter_min_docs(frame.drop(columns="author_key"), 3)) == 5


def test_sample_authors_deterministic_for_seed():
    frame = author_books({f"Author {k:02d}": 2 for k in range(20)})
    first = sample_authors(frame, 5, seed=7)
    again = sample_authors(frame.sample(frac=1.0, random_state=1), 5, seed=7)
    assert first["author"].nunique() == 5
    assert set(first["author"]) == set(again["author"])
    assert len(first) == 10
    other_seeds = {frozenset(sample_authors(frame, 5, seed=s)["author"]) for s in range(6)}
    assert len(other_seeds) > 1
    assert len(sample_authors(frame, None)) == 40 and len(sample_authors(frame, 99)) == 40


def test_cap_docs_shares_and_keeps_minimum():
    frame = author_books({"A": 10, "B": 15, "C": 30})
    kept = cap_docs(frame, 36, min_docs=10)
    counts = kept["author"].value_counts().to_dict()
    assert sum(counts.values()) == 36
    assert counts == {"A": 10, "B": 13, "C": 13}
    # each author keeps its lowest book ids
    ids = kept.groupby("author")["book_id"].apply(list).to_dict()
    assert ids["A"] == list(range(1, 11)) and ids["B"] == list(range(11, 24))


def test_cap_docs_drops_smallest_authors_when_minimum_cannot_hold():
    frame = author_books({"A": 10, "B": 15, "C": 30})
    kept = cap_docs(frame, 25, min_docs=10)
    # k = 25 // 10 = 2 authors can keep the minimum: the two largest, C and B.
    assert kept["author"].value_counts().to_dict() == {"C": 13, "B": 12}
    assert set(cap_docs(frame, 5, min_docs=10)["author"]) == {"C"}
    assert len(cap_docs(frame, 100, min_docs=10)) == 55 and len(cap_docs(frame, None)) == 55


def test_cap_docs_is_deterministic():
    frame = author_books({"A": 12, "B": 17, "C": 11, "D": 25})
    one = cap_docs(frame, 44, min_docs=10)["book_id"].tolist()
    two = cap_docs(frame.iloc[::-1], 44, min_docs=10)["book_id"].sort_values().tolist()
    assert sorted(one) == two and len(one) == 44


# ---------------------------------------------------------------------------------------
# select_books
# ---------------------------------------------------------------------------------------


def small_catalog() -> pd.DataFrame:
    rows = []
    for k in range(10):
        rows.append(
            raw_row(
                100 + k,
                f"Dickens Novel {k}",
                "Dickens, Charles, 1812-1870; Leech, John, 1817-1864 [Illustrator]",
                shelves="Humor" if k < 4 else "",
            )
        )
    rows.append(raw_row(99, "Dickens Novel 0!", "Dickens, Charles, 1812-1870"))  # duplicate title, lower id
    rows.append(raw_row(110, "Dickens Works -- Complete", "Dickens, Charles, 1812-1870"))
    rows.append(raw_row(111, "Dickens en francais", "Dickens, Charles, 1812-1870", language="fr"))
    rows.append(raw_row(112, "Dickens read aloud", "Dickens, Charles, 1812-1870", type_="Sound"))
    for k in range(9):
        rows.append(
            raw_row(200 + k, f"Plato Dialogue {k}", "Jowett, Benjamin [Translator]; Plato, 428? BCE-348? BCE")
        )
    rows.append(raw_row(300, "Magazine 1", "Various"))
    rows.append(raw_row(301, "Tales", "Lang, Andrew [Editor]"))
    return raw_catalog(rows)


def test_select_books_log_and_columns():
    selection, log = select_books(small_catalog())
    assert [entry["filter"] for entry in log] == [
        "valid_book_ids",
        "unique_book_ids",
        "language",
        "type",
        "drop_authors",
        "unique_titles",
        "drop_title_words",
        "min_docs_per_author",
        "max_authors",
        "max_docs",
    ]
    assert [(e["removed"], e["remaining"]) for e in log] == [
        (0, 25),
        (0, 25),
        (1, 24),
        (1, 23),
        (2, 21),
        (1, 20),
        (1, 19),
        (9, 10),
        (0, 10),
        (0, 10),
    ]
    assert list(selection.columns) == list(SELECTION_COLUMNS)
    assert selection["book_id"].tolist() == [99] + list(range(101, 110))
    assert selection["book_id"].dtype == "int64"
    assert (selection["author"] == "Dickens, Charles").all()
    assert selection["birth"].dtype == "Int64" and selection["death"].dtype == "Int64"
    assert selection.loc[0, "birth"] == 1812 and selection.loc[0, "death"] == 1870
    assert selection.loc[0, "bookshelves"] == [] and selection.loc[1, "bookshelves"] == ["Humor"]
    assert selection.index.tolist() == list(range(10))


def test_select_books_min_docs_lower_keeps_plato_with_bce_years():
    selection, log = select_books(small_catalog(), min_docs_per_author=9)
    plato = selection[selection["author"] == "Plato"]
    assert len(plato) == 9 and plato["birth"].iloc[0] == -428 and plato["death"].iloc[0] == -348
    assert log[-3] == {"filter": "min_docs_per_author", "removed": 0, "remaining": 19}


def test_select_books_max_authors_and_max_docs():
    selection, log = select_books(small_catalog(), min_docs_per_author=9, max_authors=1, seed=3)
    again, _ = select_books(small_catalog(), min_docs_per_author=9, max_authors=1, seed=3)
    assert selection["author"].nunique() == 1
    assert selection.equals(again)
    capped, log = select_books(small_catalog(), min_docs_per_author=9, max_docs=18)
    assert len(capped) == 18 and capped["author"].value_counts().to_dict() == {
        "Dickens, Charles": 9,
        "Plato": 9,
    }
    assert log[-1] == {"filter": "max_docs", "removed": 1, "remaining": 18}


def test_select_books_without_an_author_at_the_threshold_stops_with_one_line():
    rows = [raw_row(k, f"Elder {k}", "Dumas, Alexandre, 1802-1870") for k in range(1, 4)]
    rows += [raw_row(k, f"Tale {k}", "Lang, Andrew, 1844-1912") for k in range(4, 6)]
    with pytest.raises(EmptySelectionError) as info:
        select_books(raw_catalog(rows), min_docs_per_author=4)
    message = str(info.value)
    assert "min_docs_per_author=4" in message
    assert "the largest author, Dumas, Alexandre, 1802-1870, has 3" in message
    assert "\n" not in message and isinstance(info.value, InputError)
    selection, _ = select_books(raw_catalog(rows), min_docs_per_author=3)  # 3 is enough
    assert len(selection) == 3


def test_largest_author():
    assert largest_author(author_books({"B": 2, "A": 2, "C": 1})) == ("A", 2)  # ties: smallest key
    assert largest_author(books((1, "t", None))) == (None, 0)
    assert largest_author(books()) == (None, 0)


def test_select_books_namesakes_get_full_label():
    rows = [raw_row(k, f"Elder {k}", "Dumas, Alexandre, 1802-1870") for k in range(1, 4)]
    rows += [raw_row(k, f"Younger {k}", "Dumas, Alexandre, 1824-1895") for k in range(4, 7)]
    selection, _ = select_books(raw_catalog(rows), min_docs_per_author=3)
    assert set(selection["author"]) == {"Dumas, Alexandre, 1802-1870", "Dumas, Alexandre, 1824-1895"}
    selection, _ = select_books(raw_catalog(rows[:3]), min_docs_per_author=3)
    assert set(selection["author"]) == {"Dumas, Alexandre"}


# ---------------------------------------------------------------------------------------
# genres
# ---------------------------------------------------------------------------------------


def shelf_frame(shelf_lists) -> pd.DataFrame:
    return pd.DataFrame(
        {"book_id": range(len(shelf_lists)), "bookshelves": list(shelf_lists)},
        index=[f"b{k}" for k in range(len(shelf_lists))],
    )


def genre_fixture() -> pd.DataFrame:
    # Big: 6 books, Small: 3 books (2 also on Big), Tiny: 1 book, Other: 2 books (1 also on Small).
    return shelf_frame(
        [
            ["Big"],
            ["Big"],
            ["Big"],
            ["Big"],
            ["Big", "Small"],
            ["Small", "Big"],
            ["Small", "Other"],
            ["Tiny"],
            ["Other"],
            [],
        ]
    )


def test_assign_genres_most_specific():
    genres = assign_genres(genre_fixture(), min_docs=2)
    assert genres.index.tolist() == genre_fixture().index.tolist()
    assert genres.tolist() == ["Big"] * 4 + ["Small", "Small", "Other", None, "Other", None]
    assert genres.name == "genre"


def test_assign_genres_ties_alphabetical():
    frame = shelf_frame([["Zeta", "Alpha"], ["Zeta"], ["Alpha"]])
    assert assign_genres(frame, min_docs=1).tolist() == ["Alpha", "Zeta", "Alpha"]


def test_assign_genres_drop_rule():
    genres = assign_genres(genre_fixture(), min_docs=2, multi_shelf_rule="drop")
    assert genres.tolist() == ["Big"] * 4 + [
        None,
        None,
        None,
        None,
        None,
        None,
    ]  # Other keeps 1 < 2 -> dropped


def test_assign_genres_shelf_list_and_post_assignment_minimum():
    genres = assign_genres(genre_fixture(), shelves=["Big", "Small"], min_docs=3)
    # Small has 3 books -> candidate; it takes 3 of them, Big keeps 4.
    assert genres.tolist() == ["Big"] * 4 + ["Small", "Small", "Small", None, None, None]
    genres = assign_genres(genre_fixture(), min_docs=4)
    # Only Big is a candidate (6 books); books on Small keep Big.
    assert genres.tolist() == ["Big"] * 6 + [None] * 4
    genres = assign_genres(genre_fixture(), min_docs=3)
    # Candidates Big (6) and Small (3): Small takes 3, Big keeps 4; both >= 3.
    assert genres.value_counts().to_dict() == {"Big": 4, "Small": 3}
    genres = assign_genres(genre_fixture(), min_docs=5)
    # Big is the only candidate and keeps all 6.
    assert genres.value_counts().to_dict() == {"Big": 6}


def test_assign_genres_drops_genres_that_end_up_small():
    # A and B both hold 3 books: the tie goes to A (alphabetical), so B keeps 1 book < 3.
    frame = shelf_frame([["A", "B"], ["A", "B"], ["A"], ["B"]])
    assert assign_genres(frame, min_docs=3).tolist() == ["A", "A", "A", None]


def test_assign_genres_bad_rule():
    with pytest.raises(ValueError, match="multi_shelf_rule"):
        assign_genres(genre_fixture(), multi_shelf_rule="random")


PAPER_SHELVES = (
    "Science Fiction; Children's Book Series; Historical Fiction; Children's Fiction; Children's Literature; "
    "US Civil War; Humor; Best Books Ever Listings; Western; Fantasy; World War I; Philosophy; Adventure; "
    "Christmas; Children's Picture Books; Harvard Classics; Movie Books; School Stories; One Act Plays; "
    "Crime Fiction; Children's History; Poetry; Crime Nonfiction; Animal; Travel; Biology; "
    "Precursors of Science Fiction; Art; Classical Antiquity; Children's Instructional Books; World War II; Horror"
).split("; ")


def test_paper_genre_shelves_are_the_papers_32():
    assert list(PAPER_GENRE_SHELVES) == PAPER_SHELVES
    assert len(PAPER_GENRE_SHELVES) == len(set(PAPER_GENRE_SHELVES)) == 32
    # the two typos of the authors' configuration: neither shelf was used
    for unused in ("Bestsellers, American, 1895-1923", "Christianity", "Detective Fiction"):
        assert unused not in PAPER_GENRE_SHELVES


def test_broad_genre_shelves():
    assert len(BROAD_GENRE_SHELVES) == len(set(BROAD_GENRE_SHELVES)) == 32
    for excluded in ("Best Books Ever Listings", "Movie Books", "Harvard Classics", "World War I", "Canada"):
        assert excluded not in BROAD_GENRE_SHELVES


def test_genre_shelves_setting_resolves():
    assert genre_shelves("paper") == PAPER_SHELVES
    assert genre_shelves("broad") == list(BROAD_GENRE_SHELVES)
    assert genre_shelves(["Humor", "Horror"]) == ["Humor", "Horror"]
    assert genre_shelves(None) is None
    assert set(GENRE_SHELF_SETS) == {"paper", "broad"}
    assert schema_default("genres", "shelves") == "paper"
    for bad in ("papers", [], ["Humor", ""], [3]):
        with pytest.raises(ValueError, match="genres.shelves"):
            genre_shelves(bad)


def test_assign_genres_takes_a_set_name():
    frame = shelf_frame([["Humor", "Travel"], ["Humor"], ["Travel"], ["Gothic Fiction"]] * 2)
    by_name = assign_genres(frame, shelves="paper", min_docs=2)
    assert by_name.tolist() == assign_genres(frame, shelves=PAPER_SHELVES, min_docs=2).tolist()
    assert "Gothic Fiction" not in set(by_name) and "Travel" in set(by_name)
    assert set(assign_genres(frame, shelves="broad", min_docs=2).dropna()) == {"Humor", "Travel", "Gothic Fiction"}


# ---------------------------------------------------------------------------------------
# real catalogs (../shared)
# ---------------------------------------------------------------------------------------


@pytest.mark.realdata
@pytest.mark.skipif(not MIRROR_CATALOG.exists(), reason=f"no Gutenberg mirror catalog at {MIRROR_CATALOG}")
class TestMirrorCatalog:
    @pytest.fixture
    def catalog(self):
        return read_catalog(MIRROR_CATALOG)

    def test_paper_filters(self, catalog):
        selection, log = select_books(catalog)
        assert len(catalog) == 1027
        assert [(e["filter"], e["removed"]) for e in log] == [
            ("valid_book_ids", 0),
            ("unique_book_ids", 0),
            ("language", 0),
            ("type", 0),
            ("drop_authors", 27),  # anthologies: only [Contributor]/[Editor] persons
            ("unique_titles", 0),
            ("drop_title_words", 13),
            ("min_docs_per_author", 148),
            ("max_authors", 0),
            ("max_docs", 0),
        ]
        assert len(selection) == 839 and selection["author"].nunique() == 57
        assert selection["book_id"].is_monotonic_increasing
        counts = selection["author"].value_counts()
        assert counts["Henty, G. A. (George Alfred)"] == 40 and counts.min() >= 10
        plato = selection[selection["author"] == "Plato"].iloc[0]
        assert (plato["birth"], plato["death"]) == (-428, -348)

    def test_readme_counts_before_title_and_author_filters(self, catalog):
        # The mirror README: 58 authors with >= 10 books, 860 books.
        selection, _ = select_books(catalog, drop_authors=(), unique_titles=False, drop_title_words=())
        assert len(selection) == 860 and selection["author"].nunique() == 58

    @pytest.mark.parametrize(
        ("shelves", "n_genres", "n_books", "n_genres_drop", "n_books_drop"),
        [("paper", 16, 422, 10, 301), ("broad", 14, 402, 11, 334)],
    )
    def test_genres(self, catalog, shelves, n_genres, n_books, n_genres_drop, n_books_drop):
        selection, _ = select_books(catalog)
        genres = assign_genres(selection, shelves=shelves)
        assert genres.nunique() == n_genres and genres.notna().sum() == n_books
        assert genres.value_counts().min() >= 10
        dropped = assign_genres(selection, shelves=shelves, multi_shelf_rule="drop")
        assert dropped.nunique() == n_genres_drop and dropped.notna().sum() == n_books_drop


@pytest.mark.realdata
@pytest.mark.skipif(not FULL_CATALOG.exists(), reason=f"no full 2018 catalog at {FULL_CATALOG}")
class TestFull2018Catalog:
    def test_paper_filters_at_full_scale(self):
        start = time.perf_counter()
        catalog = read_catalog(FULL_CATALOG)
        selection, log = select_books(catalog)
        elapsed = time.perf_counter() - start
        assert len(catalog) == 57571
        assert [e["removed"] for e in log] == [0, 2, 10726, 1182, 5508, 695, 483, 23697, 0, 0]
        assert len(selection) == 15278 and selection["author"].nunique() == 659
        # The paper: 14,947 documents, 651 authors after also dropping texts without quotes.
        assert 14947 <= len(selection) <= 14947 * 1.05
        assert 651 <= selection["author"].nunique() <= 651 * 1.05
        assert elapsed < 20, f"selection took {elapsed:.1f} s"
        genres = assign_genres(selection, shelves="paper")
        assert genres.nunique() == 32 and genres.notna().sum() == 2614  # paper: 32 genres, 2413 docs
        broad = assign_genres(selection, shelves="broad")
        assert broad.nunique() == 26 and broad.notna().sum() == 2377

    def test_every_author_string_parses(self):
        catalog = read_catalog(FULL_CATALOG)
        persons = [p for cell in catalog["Authors"] for p in parse_persons(cell)]
        assert len(persons) == 77293
        assert sum(p.birth is not None or p.death is not None for p in persons) > 60000
        assert all(p.birth is None or -3000 < p.birth < 2100 for p in persons)
        assert all(p.name for p in persons)


def test_select_books_does_not_modify_its_input():
    raw = small_catalog()
    before = raw.copy()
    select_books(raw)
    pd.testing.assert_frame_equal(raw, before)
