"""Project Gutenberg's catalog: reading ``pg_catalog.csv``, parsing authors, selecting books.

Section 2.1 of the paper: keep English documents; remove the author labels "Various",
"Anonymous" and "Unknown"; let each title appear only once; remove every document with the
word "complete" in its title; keep only authors with at least 10 documents. (The paper also
drops documents without double quotation marks; that needs the texts, so it happens after
download, not here.) Bookshelves serve as genres (section 4); see :func:`assign_genres`.

The catalog is Gutenberg's ``pg_catalog.csv`` feed, columns
``Text#,Type,Issued,Title,Language,Authors,Subjects,LoCC,Bookshelves``; several values in
one cell are joined with ``"; "``. A person in the Authors cell looks like
``Dickens, Charles, 1812-1870`` or ``Leech, John, 1817-1864 [Illustrator]`` (a role tag in
brackets). Years are parsed by :func:`parse_years`; people by :func:`parse_person`.

Pipeline (:func:`select_books`)::

    catalog --parse_catalog--> one row per catalog row (author = first person without a role)
        --filter_unique_ids--> --filter_language--> --filter_type--> --filter_authors-->
        --filter_unique_titles--> --filter_title_words--> --filter_min_docs-->
        --sample_authors--> --cap_docs-->
        selection (sorted by book_id) + filter log

Each filter is a small pure function ``frame -> frame`` on the parsed table; the log has one
``{"filter", "removed", "remaining"}`` entry per filter, in that order.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from punctstyle.io import InputError

CATALOG_COLUMNS: tuple[str, ...] = (
    "Text#",
    "Type",
    "Issued",
    "Title",
    "Language",
    "Authors",
    "Subjects",
    "LoCC",
    "Bookshelves",
)
"""Columns of Gutenberg's ``pg_catalog.csv`` feed, in order."""

REQUIRED_COLUMNS: tuple[str, ...] = tuple(c for c in CATALOG_COLUMNS if c != "LoCC")
"""Columns :func:`read_catalog` insists on (``LoCC`` is not used)."""

MAX_BOOK_ID = 2**63 - 1
"""Largest book number kept (the int64 limit of the tables); 0 and larger ones are dropped."""

CELL_SEPARATOR = "; "
"""Several values in one catalog cell are joined with this."""

DEFAULT_DROP_AUTHORS: tuple[str, ...] = ("Various", "Anonymous", "Unknown")
"""The paper's removed author labels (section 2.1)."""

SELECTION_COLUMNS: tuple[str, ...] = (
    "book_id",
    "title",
    "author",
    "birth",
    "death",
    "bookshelves",
    "language",
    "issued",
    "subjects",
)
"""Columns of the selection returned by :func:`select_books`."""

PAPER_GENRE_SHELVES: tuple[str, ...] = (
    "Science Fiction",
    "Children's Book Series",
    "Historical Fiction",
    "Children's Fiction",
    "Children's Literature",
    "US Civil War",
    "Humor",
    "Best Books Ever Listings",
    "Western",
    "Fantasy",
    "World War I",
    "Philosophy",
    "Adventure",
    "Christmas",
    "Children's Picture Books",
    "Harvard Classics",
    "Movie Books",
    "School Stories",
    "One Act Plays",
    "Crime Fiction",
    "Children's History",
    "Poetry",
    "Crime Nonfiction",
    "Animal",
    "Travel",
    "Biology",
    "Precursors of Science Fiction",
    "Art",
    "Classical Antiquity",
    "Children's Instructional Books",
    "World War II",
    "Horror",
)
"""The paper's 32 genres (section 4): the bookshelves of the authors' published configuration,
in its order, once two typos in it are accounted for (the shelf "Bestsellers, American,
1895-1923" split in two strings, and a missing comma that glued "Christianity" to "Detective
Fiction", so neither was used). Setting ``genres.shelves: paper`` (the default)."""

BROAD_GENRE_SHELVES: tuple[str, ...] = (
    "Adventure",
    "Animal",
    "Biographies",
    "Children's Book Series",
    "Children's Fiction",
    "Children's History",
    "Children's Literature",
    "Children's Myths, Fairy Tales, etc.",
    "Children's Picture Books",
    "Children's Verse",
    "Christmas",
    "Crime Fiction",
    "Crime Nonfiction",
    "Detective Fiction",
    "Fantasy",
    "Folklore",
    "Gothic Fiction",
    "Historical Fiction",
    "Horror",
    "Humor",
    "Mystery Fiction",
    "Mythology",
    "One Act Plays",
    "Philosophy",
    "Pirates, Buccaneers, Corsairs, etc.",
    "Poetry",
    "Precursors of Science Fiction",
    "School Stories",
    "Science Fiction",
    "Short Stories",
    "Travel",
    "Western",
)
"""32 broad, genre-like Gutenberg bookshelves (setting ``genres.shelves: broad``), the
project's choice before the paper's list was known.

Every one holds at least 10 English texts in the 2018 catalog (``pg_catalog_2018_full.csv``:
Science Fiction 1297 ... Mystery Fiction 13). Left out on purpose: reading lists and
collections ("Best Books Ever Listings", "Movie Books", "Banned Books from Anne Haight's
list", "Harvard Classics", "Bestsellers, American, 1895-1923", "Science Fiction by Women"),
periodicals ("Punch", "Notes and Queries", "The Atlantic Monthly", ...), countries and places
("United Kingdom", "Canada", "Australia", ...), wars ("World War I", "US Civil War", ...),
religions and narrow subject areas ("Christianity", "Mathematics", "Cookery", ...), and
"Children's Instructional Books" (manuals rather than a literary genre).
"""

GENRE_SHELF_SETS: dict[str, tuple[str, ...]] = {"paper": PAPER_GENRE_SHELVES, "broad": BROAD_GENRE_SHELVES}
"""The named genre sets of the setting ``genres.shelves``."""

def genre_shelves(setting: str | Sequence[str] | None) -> list[str] | None:
    """The shelf list of the setting ``genres.shelves``: a set's name (``"paper"``,
    ``"broad"``, see :data:`GENRE_SHELF_SETS`) or an explicit list of shelf names; None
    stays None (every shelf is a candidate). Raises ValueError for an unknown name or an
    empty or non-string entry."""
    if setting is None:
        return None
    if isinstance(setting, str):
        if setting not in GENRE_SHELF_SETS:
            raise ValueError(
                f"genres.shelves: unknown genre set {setting!r}; expected one of "
                f"{', '.join(GENRE_SHELF_SETS)} or a list of bookshelves"
            )
        return list(GENRE_SHELF_SETS[setting])
    shelves = list(setting)
    if not shelves or not all(isinstance(shelf, str) and shelf.strip() for shelf in shelves):
        raise ValueError(f"genres.shelves: expected a non-empty list of shelf names, got {shelves!r}")
    return shelves


# --------------------------------------------------------------------------------------
# Reading the catalog
# --------------------------------------------------------------------------------------


def _one_line(text: object) -> str:
    return " ".join(str(text).split())


def read_catalog(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Read ``pg_catalog.csv`` into a DataFrame of strings (``Text#`` as int64).

    Empty cells are empty strings (never NaN). Raises :class:`punctstyle.io.InputError`
    (one line naming the file) when the file is missing or unreadable, is not CSV, lacks one
    of :data:`REQUIRED_COLUMNS`, or has a ``Text#`` that is not a whole number. A whole number
    that is no book number (0, a negative one, or one past :data:`MAX_BOOK_ID`, the int64
    limit) is dropped
    with its row; their count is ``frame.attrs["invalid_book_ids"]``, which
    :func:`select_books` reports as its first filter. Other rows are kept as they are: the
    real 2018 feed repeats two book numbers (52276, 55485), which :func:`filter_unique_ids`
    resolves.
    """
    try:
        frame = pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8")
    except FileNotFoundError as exc:
        raise InputError(f"{path}: catalog file not found") from exc
    except pd.errors.EmptyDataError as exc:
        raise InputError(f"{path}: catalog file is empty") from exc
    except (pd.errors.ParserError, UnicodeDecodeError, OSError, ValueError) as exc:
        raise InputError(f"{path}: cannot parse as a CSV catalog ({_one_line(exc)})") from exc
    missing = [c for c in REQUIRED_COLUMNS if c not in frame.columns]
    if missing:
        raise InputError(
            f"{path}: missing required column(s) {', '.join(missing)} "
            f"(expected {','.join(CATALOG_COLUMNS)})"
        )
    ids = frame["Text#"].astype(str).str.strip()
    bad = ~ids.str.fullmatch(r"-?\d+")
    if bad.any():
        row = int(np.flatnonzero(bad.to_numpy())[0])
        raise InputError(f"{path}: Text# {ids.iloc[row]!r} on data row {row + 1} is not a book number")
    valid = ids.map(_is_book_number).astype(bool).to_numpy()
    frame = frame[valid].reset_index(drop=True)
    frame["Text#"] = ids[valid].astype("int64").to_numpy()
    frame.attrs["invalid_book_ids"] = int((~valid).sum())
    return frame


def _is_book_number(digits: str) -> bool:
    """A whole number (``-?\\d+``) that is a book number: 1 <= n <= MAX_BOOK_ID."""
    if digits.startswith("-"):
        return False
    stripped = digits.lstrip("0")
    return bool(stripped) and (len(stripped) < 19 or int(stripped) <= MAX_BOOK_ID)


def split_cell(value: object) -> list[str]:
    """The values of one catalog cell (joined with ``"; "``), stripped; ``[]`` when empty."""
    if not isinstance(value, str):
        return []
    return [part.strip() for part in value.split(";") if part.strip()]


# --------------------------------------------------------------------------------------
# Persons and years
# --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Person:
    """One person of an Authors cell.

    ``name`` is the person string without years and role (``"Dickens, Charles"``); ``birth``
    and ``death`` are years (negative = BCE) or None when unknown; ``role`` is the bracketed
    tag (``"Illustrator"``, ``"Translator"``, ``"Author of introduction, etc."``, ...) or None
    for an author. ``key`` is the person string without the role: Gutenberg writes one person
    the same way everywhere, so it tells apart namesakes (``Dumas, Alexandre, 1802-1870`` and
    ``Dumas, Alexandre, 1824-1895``).
    """

    name: str
    birth: int | None
    death: int | None
    role: str | None
    key: str


_INVISIBLE = re.compile("[\u200b-\u200f\u202a-\u202e\u2060\ufeff]")
_ROLE = re.compile(r"\s*\[([^\[\]]*)\]\s*$")
_ERA = r"BCE|B\.?\s?C\.?|CE|A\.?\s?D\.?"
_APPROX = r"(?:approximately|approx\.?|ca\.?|circa|c\.|about)\s+"


def _year(group: str) -> str:
    return rf"(?P<{group}>\d{{1,4}})\s*\??\s*(?P<{group}_era>{_ERA})?"


_LIFESPAN = re.compile(
    rf"^(?:{_APPROX})?(?:{_year('birth')})?\s*[-\u2013]\s*(?:{_year('death')})?$", re.IGNORECASE
)
_FLORUIT = re.compile(r"^(?:active|fl\.?|flourished|floruit|jin\s+shi|ju\s+ren)\s+.*\d", re.IGNORECASE)
_CENTURY = re.compile(r"\d{1,2}\s*(?:st|nd|rd|th)?\s+(?:century|cent\b\.?)", re.IGNORECASE)
_PARENTHESISED = re.compile(r"^(?P<name>.*\S)\s*\((?P<dates>[^()]*\d[^()]*)\)$")


def _signed(match: re.Match[str], group: str, bce: bool) -> int | None:
    digits = match.group(group)
    if digits is None:
        return None
    return -int(digits) if bce else int(digits)


def _is_bce(era: str | None) -> bool:
    return era is not None and era.upper().replace(".", "").replace(" ", "").startswith("B")


def _match_years(text: str) -> tuple[int | None, int | None] | None:
    """(birth, death) if ``text`` is a date expression (years may be None), else None."""
    text = text.strip()
    lifespan = _LIFESPAN.match(text)
    if lifespan and (lifespan.group("birth") or lifespan.group("death")):
        death_bce = _is_bce(lifespan.group("death_era"))
        # "100-44 BC": an era written only once, after the death year, covers both years.
        birth_bce = _is_bce(lifespan.group("birth_era")) or (
            death_bce and lifespan.group("birth_era") is None
        )
        return _signed(lifespan, "birth", birth_bce), _signed(lifespan, "death", death_bce)
    if _FLORUIT.match(text) or _CENTURY.search(text):
        return None, None
    return None


def parse_years(text: str) -> tuple[int | None, int | None]:
    """Birth and death years from the date part of a person string; None when unknown.

    - ``1812-1870`` -> (1812, 1870); ``1840?-1900`` -> (1840, 1900) (``?`` is ignored, as
      is a leading ``approximately``/``ca.``/``circa``);
    - ``428? BCE-348? BCE`` -> (-428, -348): ``BCE``/``BC``/``B.C.`` make a year negative,
      ``CE``/``AD`` keep it positive; ``100-44 BC`` -> (-100, -44);
    - ``-1731`` -> (None, 1731); ``1900-`` -> (1900, None);
    - floruit and office years (``fl. 1600``, ``active 1600``, ``active 317-322``,
      ``jin shi 1053``) say when someone worked, not birth or death: (None, None);
    - centuries (``17th cent.``, ``active 4th century B.C.``) -> (None, None);
    - anything else (no years at all) -> (None, None). Never raises.
    """
    years = _match_years(_INVISIBLE.sub("", text))
    return years if years is not None else (None, None)


def parse_person(text: str) -> Person:
    """One person string -> :class:`Person` (name, birth, death, role, key).

    The role is a trailing ``[...]`` tag. The date part is the last ``", "``-separated
    component when :func:`parse_years` recognises it as a date expression
    (``Dickens, Charles, 1812-1870``, ``Gan, Bao, active 317-322``, ``Plato, 428 BCE-348 BCE``)
    or a trailing parenthesised one (``Henry Hazlitt (1894-1993)``); it is removed from the
    name. Without one, the whole string is the name and both years are None.
    """
    text = " ".join(_INVISIBLE.sub("", text).split())
    role = None
    tag = _ROLE.search(text)
    if tag:
        role = " ".join(tag.group(1).split()) or None
        text = text[: tag.start()].rstrip()
    key = text
    name, birth, death = text, None, None
    head, sep, last = text.rpartition(",")
    years = _match_years(last) if sep else None
    if years is not None:
        name = head.rstrip(" ,")
        birth, death = years
    else:
        paren = _PARENTHESISED.match(text)
        years = _match_years(paren.group("dates")) if paren else None
        if paren and years is not None:
            name = paren.group("name")
            birth, death = years
    return Person(name=name, birth=birth, death=death, role=role, key=key)


def parse_persons(cell: object) -> list[Person]:
    """Every person of an Authors cell, in catalog order (``[]`` for an empty cell)."""
    return [parse_person(part) for part in split_cell(cell)]


def first_author(cell: object) -> Person | None:
    """The document's author: the first listed person without a role tag (None if none)."""
    for person in parse_persons(cell):
        if person.role is None:
            return person
    return None


# --------------------------------------------------------------------------------------
# One row per book
# --------------------------------------------------------------------------------------


def parse_catalog(catalog: pd.DataFrame) -> pd.DataFrame:
    """The raw catalog -> one parsed row per book, in catalog order.

    Columns: ``book_id`` (int64), ``type``, ``title``, ``language`` (the raw cell),
    ``languages`` (list), ``author`` (the first person without a role tag, name only; None
    when there is none), ``author_key`` (that person's string without role, see
    :class:`Person`), ``birth``, ``death`` (Int64), ``bookshelves``, ``subjects`` (lists of
    str), ``issued``. The filters below work on this table.
    """
    missing = [c for c in REQUIRED_COLUMNS if c not in catalog.columns]
    if missing:
        raise KeyError(f"catalog lacks column(s) {', '.join(missing)}")
    cells = catalog["Authors"].fillna("").astype(str)
    parsed = {cell: first_author(cell) for cell in pd.unique(cells)}
    authors = [parsed[cell] for cell in cells]

    def text(column: str) -> pd.Series:  # str dtype even when empty (a header-only catalog)
        return pd.Series(catalog[column].fillna("").astype(str).tolist(), dtype=str)

    return pd.DataFrame(
        {
            "book_id": catalog["Text#"].astype("int64").to_numpy(),
            "type": text("Type"),
            "title": text("Title"),
            "language": text("Language"),
            "languages": [split_cell(v) for v in text("Language").tolist()],
            "author": pd.Series([p.name if p else None for p in authors], dtype=object),
            "author_key": pd.Series([p.key if p else None for p in authors], dtype=object),
            "birth": pd.array([p.birth if p else None for p in authors], dtype="Int64"),
            "death": pd.array([p.death if p else None for p in authors], dtype="Int64"),
            "bookshelves": [split_cell(v) for v in text("Bookshelves").tolist()],
            "subjects": [split_cell(v) for v in text("Subjects").tolist()],
            "issued": text("Issued"),
        }
    )


# --------------------------------------------------------------------------------------
# Filters: small pure functions, frame -> frame (rows kept in their order)
# --------------------------------------------------------------------------------------


def _author_keys(frame: pd.DataFrame) -> pd.Series:
    """Author identity: ``author_key`` when the table has it, else ``author``."""
    return frame["author_key"] if "author_key" in frame.columns else frame["author"]


def filter_unique_ids(frame: pd.DataFrame) -> pd.DataFrame:
    """Keep the first row of each book_id (the catalog feed has a few repeated rows)."""
    return frame[~frame["book_id"].duplicated(keep="first").to_numpy()]


def filter_language(frame: pd.DataFrame, language: str | None) -> pd.DataFrame:
    """Keep books whose only language is ``language`` (``en``); None keeps every book.

    Bilingual books (Language ``en; fr``) are dropped: their punctuation mixes conventions.
    """
    if language is None:
        return frame
    languages = frame["languages"] if "languages" in frame.columns else frame["language"].map(split_cell)
    keep = languages.map(lambda values: list(values) == [language]).astype(bool)
    return frame[keep]


def filter_type(frame: pd.DataFrame, type: str | None) -> pd.DataFrame:  # noqa: A002 - config name
    """Keep books of Gutenberg type ``type`` (``Text``; not ``Sound``, ``Image``, ...)."""
    if type is None:
        return frame
    return frame[frame["type"] == type]


def filter_authors(frame: pd.DataFrame, drop_authors: Iterable[str]) -> pd.DataFrame:
    """Drop books without an author (no person without a role tag) and books whose author's
    name is one of ``drop_authors`` (compared case-insensitively: "Various", "Anonymous",
    "Unknown")."""
    dropped = {name.strip().casefold() for name in drop_authors}
    names = frame["author"]
    has_author = names.notna() & (names.fillna("").str.strip() != "")
    listed = names.fillna("").str.strip().str.casefold().isin(dropped)
    return frame[has_author & ~listed]


def normalize_title(title: str) -> str:
    """Title for comparison: Unicode NFKC, case-folded, every non-alphanumeric removed.

    ``"Henry VI, Part 3"``, ``"henry vi part 3"`` and ``"Henry VI -- Part 3."`` compare equal
    (punctuation, spacing and case do not count).
    """
    folded = unicodedata.normalize("NFKC", title).casefold()
    return "".join(ch for ch in folded if ch.isalnum())


def filter_unique_titles(frame: pd.DataFrame, unique: bool = True) -> pd.DataFrame:
    """One book per title (compared by :func:`normalize_title`): keep the lowest book_id.

    Titles are compared across the whole table, whatever the author, as in the paper ("any
    given title appears only once"). Titles with no letter or digit are never merged.
    """
    if not unique or frame.empty:
        return frame
    normalized = frame["title"].map(normalize_title)
    order = np.argsort(frame["book_id"].to_numpy(), kind="stable")
    first = ~normalized.iloc[order].duplicated(keep="first")
    keep = pd.Series(False, index=frame.index)
    keep.iloc[order] = first.to_numpy()
    keep |= normalized == ""
    return frame[keep.to_numpy()]


def filter_title_words(frame: pd.DataFrame, words: Iterable[str]) -> pd.DataFrame:
    """Drop books whose title contains one of ``words`` as a whole word, ignoring case
    (``"complete"`` matches "Works -- Complete" but not "Completed" or "Incomplete")."""
    words = [w for w in words if w]
    if not words:
        return frame
    pattern = r"\b(?:" + "|".join(re.escape(w) for w in words) + r")\b"
    hit = frame["title"].str.contains(pattern, case=False, regex=True, na=False)
    return frame[~hit.to_numpy()]


def filter_min_docs(frame: pd.DataFrame, min_docs: int | None) -> pd.DataFrame:
    """Keep authors with at least ``min_docs`` books in ``frame`` (the paper: 10)."""
    if not min_docs or min_docs <= 1:
        return frame
    keys = _author_keys(frame)
    sizes = keys.map(keys.value_counts())
    return frame[(sizes >= min_docs).to_numpy()]


def sample_authors(frame: pd.DataFrame, max_authors: int | None, seed: int = 0) -> pd.DataFrame:
    """Keep the books of ``max_authors`` authors drawn at random (numpy ``default_rng(seed)``
    over the sorted author keys, without replacement); None, or at least as many as there
    are, keeps every author. The same table and seed give the same authors."""
    if max_authors is None:
        return frame
    if max_authors < 0:
        raise ValueError(f"max_authors must be >= 0, got {max_authors}")
    keys = _author_keys(frame)
    authors = np.sort(keys.dropna().unique().astype(str))
    if max_authors >= len(authors):
        return frame
    chosen = np.random.default_rng(seed).choice(authors, size=max_authors, replace=False)
    return frame[keys.isin(set(chosen.tolist())).to_numpy()]


def cap_docs(frame: pd.DataFrame, max_docs: int | None, min_docs: int | None = None) -> pd.DataFrame:
    """Keep at most ``max_docs`` books, deterministically, keeping ``min_docs`` per author
    where possible.

    1. If ``k = max_docs // min_docs`` is smaller than the number of authors, keep only the
       ``k`` authors with the most books (ties: author key); with ``k = 0`` (fewer books
       allowed than the minimum) keep the single largest author, whose minimum then cannot
       hold.
    2. Share ``max_docs`` among the kept authors as evenly as their book counts allow
       (smallest authors first, each gets ``min(n_books, remaining // authors_left)``), so
       every kept author gets at least ``min_docs`` books.
    3. Each author keeps its books with the lowest book ids.
    """
    if max_docs is None or len(frame) <= max_docs:
        return frame
    if max_docs < 0:
        raise ValueError(f"max_docs must be >= 0, got {max_docs}")
    minimum = max(int(min_docs or 1), 1)
    keys = _author_keys(frame).fillna("")
    counts = keys.value_counts()
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    keep_authors = max(max_docs // minimum, 1) if max_docs > 0 else 0
    ranked = ranked[:keep_authors]
    quotas: dict[str, int] = {}
    remaining = max_docs
    ascending = sorted(ranked, key=lambda item: (item[1], item[0]))
    for position, (author, n_books) in enumerate(ascending):
        take = min(n_books, remaining // (len(ascending) - position))
        quotas[author] = take
        remaining -= take
    rank_in_author = frame["book_id"].groupby(keys.to_numpy()).rank(method="first")
    quota = keys.map(quotas).fillna(0)
    return frame[(rank_in_author <= quota).to_numpy()]


# --------------------------------------------------------------------------------------
# The selection
# --------------------------------------------------------------------------------------


def _finalise(frame: pd.DataFrame) -> pd.DataFrame:
    """Selection columns, sorted by book_id; namesakes get their full catalog string."""
    out = frame.sort_values("book_id", kind="stable").reset_index(drop=True)
    if "author_key" in out.columns and not out.empty:
        persons_per_name = out.groupby("author")["author_key"].transform("nunique")
        out["author"] = out["author"].where(persons_per_name <= 1, out["author_key"])
    out = out.loc[:, list(SELECTION_COLUMNS)].copy()
    out["book_id"] = out["book_id"].astype("int64")
    out["birth"] = out["birth"].astype("Int64")
    out["death"] = out["death"].astype("Int64")
    return out


def select_books(
    catalog: pd.DataFrame,
    *,
    language: str | None = "en",
    type: str | None = "Text",  # noqa: A002 - the workflow config's name
    drop_authors: Sequence[str] = DEFAULT_DROP_AUTHORS,
    unique_titles: bool = True,
    drop_title_words: Sequence[str] = ("complete",),
    min_docs_per_author: int | None = 10,
    max_authors: int | None = None,
    max_docs: int | None = None,
    seed: int = 0,
) -> tuple[pd.DataFrame, list[dict]]:
    """Select the corpus from a catalog (:func:`read_catalog`) with the paper's filters.

    Filters, in order (each one of the functions above, on :func:`parse_catalog`'s table):
    ``unique_book_ids`` (first row of a repeated Text#), ``language`` (only language ``en``),
    ``type`` (``Text``), ``drop_authors`` (no author, or "Various", "Anonymous", "Unknown"),
    ``unique_titles`` (one book per title, lowest id),
    ``drop_title_words`` (no "complete" in the title), ``min_docs_per_author`` (>= 10 books;
    after all the filters above), ``max_authors`` (seeded sample of the authors left) and
    ``max_docs`` (deterministic cap, see :func:`cap_docs`). None or an empty value turns a
    filter off; the last two are off by default.

    The document's author is the first person without a role tag; authors are told apart by
    their full catalog string (name and years), and where two selected authors share a name
    their ``author`` label is that full string (``Dumas, Alexandre, 1802-1870``).

    Returns the selection (columns :data:`SELECTION_COLUMNS`: ``book_id`` int, ``title``,
    ``author``, ``birth``/``death`` Int64 (BCE negative), ``bookshelves`` and ``subjects``
    lists of str, ``language``, ``issued``), sorted by book_id with a fresh index, and the
    filter log: ``[{"filter": name, "removed": n, "remaining": m}, ...]`` in filter order,
    led by ``valid_book_ids`` (rows :func:`read_catalog` dropped for an invalid Text#).

    Raises :class:`EmptySelectionError` (one line naming ``min_docs_per_author`` and the
    largest author's book count before that filter) when no book is selected.
    """
    n_invalid = int(catalog.attrs.get("invalid_book_ids", 0))
    log: list[dict] = [{"filter": "valid_book_ids", "removed": n_invalid, "remaining": len(catalog)}]
    frame = parse_catalog(catalog)
    largest: tuple[str | None, int] = (None, 0)
    steps = [
        ("unique_book_ids", filter_unique_ids),
        ("language", lambda f: filter_language(f, language)),
        ("type", lambda f: filter_type(f, type)),
        ("drop_authors", lambda f: filter_authors(f, drop_authors)),
        ("unique_titles", lambda f: filter_unique_titles(f, unique_titles)),
        ("drop_title_words", lambda f: filter_title_words(f, drop_title_words)),
        ("min_docs_per_author", lambda f: filter_min_docs(f, min_docs_per_author)),
        ("max_authors", lambda f: sample_authors(f, max_authors, seed)),
        ("max_docs", lambda f: cap_docs(f, max_docs, min_docs_per_author)),
    ]
    for name, step in steps:
        before = len(frame)
        if name == "min_docs_per_author":
            largest = largest_author(frame)
        frame = step(frame)
        log.append({"filter": name, "removed": before - len(frame), "remaining": len(frame)})
    if frame.empty:
        raise EmptySelectionError(_empty_selection_message(min_docs_per_author, *largest))
    return _finalise(frame), log


class EmptySelectionError(InputError):
    """The catalog filters left no book (one line: the threshold and the largest author)."""


def largest_author(frame: pd.DataFrame) -> tuple[str | None, int]:
    """The author with the most books in ``frame`` and that count (ties: the smallest author
    key); ``(None, 0)`` for a table without an authored book."""
    keys = _author_keys(frame).dropna()
    if keys.empty:
        return None, 0
    counts = keys.value_counts()
    top = int(counts.max())
    return str(min(counts.index[counts == top])), top


def _empty_selection_message(min_docs: int | None, author: str | None, n_books: int) -> str:
    who = f"the largest author, {author}, has {n_books}" if author else "the largest author has 0: no authored book is left"
    return (
        f"no book selected: no author has min_docs_per_author={min_docs} books after the "
        f"catalog filters ({who}); lower selection.min_docs_per_author or use a larger catalog"
    )


# --------------------------------------------------------------------------------------
# Genres
# --------------------------------------------------------------------------------------

MULTI_SHELF_RULES: tuple[str, ...] = ("most_specific", "drop")


def assign_genres(
    selection: pd.DataFrame,
    *,
    shelves: str | Sequence[str] | None = None,
    min_docs: int = 10,
    multi_shelf_rule: str = "most_specific",
) -> pd.Series:
    """One genre (bookshelf) per selected book, or None; the paper allows at most one.

    Rule:

    1. Candidate shelves: the shelves in ``shelves`` (a list, a set's name such as ``"paper"``
       resolved by :func:`genre_shelves`, or None: every shelf) that hold at least
       ``min_docs`` books of ``selection``.
    2. A book on exactly one candidate shelf gets that shelf. A book on several candidate
       shelves gets, with ``multi_shelf_rule="most_specific"``, the most specific one: the
       candidate shelf with the fewest selected books (ties: alphabetical order); with
       ``multi_shelf_rule="drop"`` it gets no genre. A book on no candidate shelf gets None.
    3. Genres with fewer than ``min_docs`` assigned books are then dropped (None); this
       step is not repeated.

    Returns a Series named ``genre`` (object dtype: str or None) aligned with
    ``selection.index``.
    """
    if multi_shelf_rule not in MULTI_SHELF_RULES:
        raise ValueError(f"multi_shelf_rule must be one of {MULTI_SHELF_RULES}, got {multi_shelf_rule!r}")
    shelves = genre_shelves(shelves)
    n_books = len(selection)
    genre = np.full(n_books, None, dtype=object)
    lists = selection["bookshelves"].map(
        lambda v: list(v) if isinstance(v, (list, tuple, np.ndarray)) else []
    )
    pairs = pd.DataFrame(
        {
            "position": np.repeat(np.arange(n_books), lists.map(len).to_numpy().astype(int)),
            "shelf": [shelf for shelf_list in lists for shelf in shelf_list],
        }
    ).drop_duplicates()
    if shelves is not None:
        pairs = pairs[pairs["shelf"].isin(set(shelves))]
    size = pairs["shelf"].map(pairs["shelf"].value_counts())
    pairs = pairs.assign(size=size)[size >= min_docs]
    if not pairs.empty:
        if multi_shelf_rule == "drop":
            n_candidates = pairs.groupby("position")["shelf"].transform("size")
            chosen = pairs[n_candidates == 1]
        else:
            chosen = pairs.sort_values(["position", "size", "shelf"]).drop_duplicates("position")
        genre[chosen["position"].to_numpy()] = chosen["shelf"].to_numpy()
    assigned = pd.Series(genre, dtype=object)
    n_assigned = assigned.map(assigned.value_counts()).fillna(0).to_numpy()
    genre[n_assigned < min_docs] = None
    return pd.Series(genre, index=selection.index, name="genre", dtype=object)
