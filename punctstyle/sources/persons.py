"""Authors' names and years in the catalog: persons, life spans, floruits, centuries.

(Split from the former catalog.py.)"""

from __future__ import annotations

import re
from dataclasses import dataclass

CELL_SEPARATOR = "; "
"""Several values in one catalog cell are joined with this."""


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
