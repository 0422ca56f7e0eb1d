"""Genres from the catalog's bookshelves (section 4 of the paper).

(Split from the former catalog.py.)"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

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
