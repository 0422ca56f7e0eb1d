"""Editions: how far apart two editions of one novel punctuate, against two novels of one
author and two novels of two authors (issue 34 item 5; the paper's future work: "comparing
documents that one extracts from Project Gutenberg with the same documents from other data
sources", "the effects of an editor's ... style").

A novel that is both in a TEI collection (e.g. ELTeC-eng) and in a Gutenberg catalog is found
by its first author's surname and its title's key (:func:`title_key`). Each pair of texts gets
the paper's KL divergence per feature (common support), averaged over its two directions so that
a pair has one value (:func:`punctstyle.distances.symmetrised_kl`)::

    D(a, b) = (d(f_a, f_b) + d(f_b, f_a)) / 2

The relations compared (:data:`RELATIONS`):

* ``edition``: the TEI text of a novel against the Gutenberg text of the same novel;
* ``same author``: the Gutenberg text of a matched novel against another Gutenberg book of its
  author (one source on both sides, so the edition's share is left out);
* ``different authors``: the Gutenberg texts of two matched novels of two authors.

:func:`edition_share` puts the edition pair of a novel against the same-author pairs of that
novel: ``share = D(edition) / median D(same author)``, the part of "an author's punctuation
distance" that the edition alone reaches.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping

import numpy as np
import pandas as pd

from punctstyle.distances import symmetrised_kl

RELATIONS: tuple[str, ...] = ("edition", "same author", "different authors")
_ARTICLES = frozenset({"the", "a", "an"})
_TITLE_END = re.compile(r"[:;\n]|,\s*or\b|\bor,")
_NOT_ALNUM = re.compile(r"[^a-z0-9]+")


def fold(text: str) -> str:
    """Lower case without accents: ``"Brontë"`` -> ``"bronte"`` (NFKD, non-ASCII dropped)."""
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()


def surname_key(author: object) -> str:
    """The folded part of an author string before its first comma, pseudonym tags left out:
    ``"Eliot, George [pseud.]"`` -> ``"eliot"``; ``"Trollope, Anthony, 1815-1882"`` ->
    ``"trollope"``; anything but a non-blank string -> ``""``."""
    if not isinstance(author, str) or not author.strip():
        return ""
    name = re.sub(r"\[[^\]]*\]", "", author).split(",")[0]
    return " ".join(_NOT_ALNUM.sub(" ", fold(name)).split())


def title_key(title: object) -> str:
    """The folded main title, without its subtitle and leading article, words joined by one
    space: ``"The Mayor of Casterbridge: The Life and Death of a Man of Character"`` ->
    ``"mayor of casterbridge"``; ``"Sybil, Or the Two Nations"`` -> ``"sybil"``; the subtitle
    starts at ``:``, ``;``, a line break, ``", or"`` or ``"or,"``."""
    if not isinstance(title, str):
        return ""
    main = _TITLE_END.split(fold(title), maxsplit=1)[0]
    words = _NOT_ALNUM.sub(" ", main).split()
    if words and words[0] in _ARTICLES:
        words = words[1:]
    return " ".join(words)


def match_editions(collection: pd.DataFrame, catalog: pd.DataFrame) -> pd.DataFrame:
    """Novels of a TEI collection that are also in a Gutenberg catalog.

    ``collection``: columns ``doc_id``, ``author``, ``title``; ``catalog``: columns ``book_id``,
    ``authors`` (the whole Authors cell: every person is tried, so a co-written book matches
    each of its authors), ``title``. A novel matches a book when the surname keys and the title
    keys are equal and not empty. Returns ``doc_id, book_id, author, title, surname`` (one row
    per match, in the collection's order, then by book id).
    """
    persons = catalog["authors"].fillna("").astype(str).str.split("; ")
    rows = [
        (int(book_id), surname_key(person), title_key(title))
        for book_id, people, title in zip(catalog["book_id"], persons, catalog["title"], strict=True)
        for person in people
    ]
    index = pd.DataFrame(rows, columns=["book_id", "surname", "key"]).drop_duplicates()
    novels = pd.DataFrame(
        {
            "doc_id": collection["doc_id"].astype(str).to_numpy(),
            "author": collection["author"].to_numpy(),
            "title": collection["title"].to_numpy(),
            "surname": [surname_key(a) for a in collection["author"]],
            "key": [title_key(t) for t in collection["title"]],
            "order": np.arange(len(collection)),
        }
    )
    novels = novels[(novels["surname"] != "") & (novels["key"] != "")]
    matched = novels.merge(index, on=["surname", "key"], how="inner")
    matched = matched.sort_values(["order", "book_id"], kind="stable")
    return matched[["doc_id", "book_id", "author", "title", "surname"]].reset_index(drop=True)


def source_name(url: str) -> str:
    """Where a TEI text's digital source came from, from its URL or label: ``"Project
    Gutenberg"`` when it names gutenberg, ``"other"`` when it names something else, ``"unknown"``
    when empty."""
    if not url or not url.strip():
        return "unknown"
    return "Project Gutenberg" if "gutenberg" in url.lower() else "other"


def edition_pairs(matches: pd.DataFrame, others: Mapping[int, list[int]]) -> pd.DataFrame:
    """The pairs of texts compared, one row a pair: ``relation``, ``a``, ``b`` (text keys:
    ``("tei", doc_id)`` or ``("gutenberg", book_id)``), ``novel`` (the matched novel's doc_id;
    for two authors, the first one's).

    ``matches``: :func:`match_editions` rows (one per novel: the first book of each doc_id is
    used); ``others``: book_id of a matched novel -> the other Gutenberg books of its author.
    Pairs of two different authors are the unordered pairs of matched novels whose surnames
    differ."""
    first = matches.drop_duplicates("doc_id")
    rows = []
    for novel in first.itertuples(index=False):
        gutenberg = ("gutenberg", int(novel.book_id))
        rows.append(("edition", ("tei", novel.doc_id), gutenberg, novel.doc_id))
        for other in others.get(int(novel.book_id), []):
            rows.append(("same author", gutenberg, ("gutenberg", int(other)), novel.doc_id))
    novels = list(first.itertuples(index=False))
    for i, one in enumerate(novels):
        for two in novels[i + 1 :]:
            if one.surname != two.surname:
                rows.append(
                    ("different authors", ("gutenberg", int(one.book_id)), ("gutenberg", int(two.book_id)), one.doc_id)
                )
    return pd.DataFrame(rows, columns=["relation", "a", "b", "novel"])


def pair_divergences(
    pairs: pd.DataFrame, features: Mapping[tuple[str, object], Mapping[str, np.ndarray]], names: list[str]
) -> pd.DataFrame:
    """``pairs`` with one column per feature name: ``D(a, b)`` of the two texts' feature vectors
    (``features[text][name]``), :func:`punctstyle.distances.symmetrised_kl` of the matched rows."""
    table = pairs.copy()
    for name in names:
        if table.empty:
            table[name] = []
            continue
        A = np.vstack([np.asarray(features[a][name], dtype=np.float64) for a in pairs["a"]])
        B = np.vstack([np.asarray(features[b][name], dtype=np.float64) for b in pairs["b"]])
        table[name] = symmetrised_kl(A, B, matched=True)
    return table


def relation_summary(table: pd.DataFrame, names: list[str]) -> pd.DataFrame:
    """Per feature and relation: ``pairs``, ``median``, ``q1``, ``q3`` (quartiles), ``mean`` of
    :func:`pair_divergences`' values (NaN pairs, with no common support, left out)."""
    rows = []
    for name in names:
        for relation in RELATIONS:
            values = table.loc[table["relation"] == relation, name].dropna().to_numpy(dtype=float)
            if values.size == 0:
                continue
            q1, median, q3 = np.quantile(values, [0.25, 0.5, 0.75])
            rows.append((name, relation, values.size, median, q1, q3, values.mean()))
    return pd.DataFrame(rows, columns=["feature", "relation", "pairs", "median", "q1", "q3", "mean"])


def edition_share(table: pd.DataFrame, names: list[str]) -> pd.DataFrame:
    """Per novel and feature: the edition pair's ``D``, the median and least ``D`` of the novel's
    same-author pairs, ``share = D(edition) / median D(same author)`` and ``below_all`` (the
    edition pair closer than every same-author pair). Novels without a same-author pair get NaN
    share and ``below_all`` False."""
    rows = []
    for novel, group in table.groupby("novel", sort=False):
        for name in names:
            edition = group.loc[group["relation"] == "edition", name].to_numpy(dtype=float)
            same = group.loc[group["relation"] == "same author", name].dropna().to_numpy(dtype=float)
            if edition.size != 1:
                continue
            median = float(np.median(same)) if same.size else float("nan")
            least = float(same.min()) if same.size else float("nan")
            share = edition[0] / median if same.size and median > 0 else float("nan")
            rows.append((novel, name, edition[0], same.size, median, least, share, bool(same.size and edition[0] < least)))
    return pd.DataFrame(
        rows, columns=["novel", "feature", "edition_kl", "same_author_pairs", "same_author_median", "same_author_min",
                       "share", "below_all"]
    )
