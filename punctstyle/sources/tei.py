"""A corpus of TEI files (setting ``source: tei``), e.g. a cloned ELTeC collection.

One TEI file is one document. :func:`parse_tei` turns its bytes into ``(text, metadata)`` or
a refusal (one line saying why); :func:`read_eltec_metadata` reads ELTeC's metadata table
(``ELTeC-xxx_metadata.tsv``) and :func:`tei_metadata` joins both into the folder source's
metadata rows, so that the selection, the ingest and everything after them are the folder
source's (:mod:`punctstyle.sources.folder`).

The parser. lxml (libxml2) with entity substitution off, no DTD loading, no network access
and libxml2's own limits kept (``huge_tree`` off: its entity-amplification guard stays on).
A file is refused, with one line, when it

* is not well-formed XML (the parser's message, with the line);
* declares entities in its internal DTD subset (``<!ENTITY ...>``: external entities such as
  ``SYSTEM "file:///etc/passwd"`` and expansion bombs such as the "billion laughs") or refers
  to an entity the parser did not expand (``&nbsp;`` of an external DTD, never fetched);
* is not TEI (its root is not ``TEI``, in the TEI namespace or none; a ``teiCorpus`` holds
  several texts and is refused too);
* has no ``<body>`` in its ``<text>``, or a body without a letter or digit.

The text. The ``<body>`` of the ``<text>`` (config ``tei.parts``: ``body`` by default;
``front`` and ``back`` can be added, in document order), less the notes (``<note>``, and the
``<ref target="#...">`` pointers to them, e.g. ELTeC's ``[2]``) unless ``tei.notes`` keeps
them. Each block element (paragraph, head, verse line, list item, ...) is one line, its
whitespace runs (line breaks of the XML's indentation, no-break and narrow no-break spaces)
made one space; so a paragraph that opens with a dialogue dash starts a line
(:mod:`punctstyle.text.languages`).

The metadata, from the ``teiHeader``: ``title`` (the first ``titleStmt/title`` that is not a
short or sub title), ``author`` (``titleStmt/author``: ``surname, forename`` of its
``persName`` when it has a surname, else its text without dates and ids), ``author_birth`` /
``author_death`` (the author's ``date from/to``), ``year`` (the first edition's date in
``sourceDesc``, else the print source's, else the first date in ``sourceDesc``),
``language`` (``profileDesc/langUsage/language/@ident``, else the root's ``xml:lang``; the
primary subtag, ``fr-FR`` -> ``fr``), and ELTeC's ``gender`` (``authorGender/@key``) and
``time_slot`` (``timeSlot/@key``) when given. An ELTeC metadata table, when present, wins
over the header for the fields it fills (``author-name``, ``title``, ``author-birth``,
``author-death``, ``reference-year``, ``author-gender``, ``time-slot``, ``language``; ``NA``
is empty).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from punctstyle.io import InputError
from punctstyle.text.languages import language_code

if TYPE_CHECKING:
    import pandas as pd

TEI_NS = "http://www.tei-c.org/ns/1.0"
ELTEC_NS = "http://distantreading.net/eltec/ns"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
TEXT_PARTS: tuple[str, ...] = ("front", "body", "back")
"""The parts of a TEI ``<text>`` that ``tei.parts`` may name."""
BLOCK_TAGS: frozenset[str] = frozenset(
    "p head l lg div div1 div2 div3 div4 div5 item list label trailer closer opener salute signed "
    "byline dateline epigraph sp speaker stage ab table row cell castList castItem argument docTitle "
    "titlePart docAuthor docImprint titlePage".split()
)
"""TEI elements that are blocks: each starts a new line of the text."""
METADATA_FIELDS: tuple[str, ...] = (
    "title", "author", "author_birth", "author_death", "year", "language", "gender", "time_slot",
)  # fmt: skip
ELTEC_COLUMNS: dict[str, str] = {
    "author-name": "author",
    "title": "title",
    "author-birth": "author_birth",
    "author-death": "author_death",
    "reference-year": "year",
    "author-gender": "gender",
    "time-slot": "time_slot",
    "language": "language",
}
"""ELTeC's metadata columns -> the fields of :data:`METADATA_FIELDS` they fill."""
_YEAR = re.compile(r"-?\d{3,4}")
_BLOCK = "\x00"
"""Marks a block boundary while the text is gathered (NUL cannot occur in XML 1.0)."""


@dataclass(frozen=True)
class TeiDocument:
    """A parsed TEI file: its text (one line per block) and its header's metadata (field ->
    string, ``""`` when absent; :data:`METADATA_FIELDS`)."""

    text: str
    metadata: dict[str, str] = field(default_factory=dict)


class TeiRefusal(ValueError):
    """A TEI file refused (not well-formed, entities, not TEI, no body): the one-line reason."""


def _parser() -> Any:
    from lxml import etree  # lazy: only the TEI source needs lxml

    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_comments=True,
        remove_pis=True,
        collect_ids=False,
    )


def _local(tag: Any) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _clean(value: str | None) -> str:
    return " ".join((value or "").split())


def parse_tree(data: bytes) -> Any:
    """The root element of a TEI file's bytes; :class:`TeiRefusal` (module docstring) when
    the bytes are not well-formed, play entity tricks or are not one TEI text."""
    from lxml import etree  # lazy: only the TEI source needs lxml

    try:
        root = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as exc:
        message = re.sub(r" \(<string>, line \d+\)$", "", _clean(str(exc)))
        raise TeiRefusal(f"not well-formed XML ({message})") from None
    if root is None:
        raise TeiRefusal("not well-formed XML (no root element)")
    dtd = root.getroottree().docinfo.internalDTD
    declared = [entity.name for entity in dtd.iterentities()] if dtd is not None else []
    if declared:
        raise TeiRefusal(
            f"declares entities ({', '.join(declared[:3])}): refused, entities are never expanded "
            "(external entities, expansion bombs)"
        )
    for entity in root.iter(etree.Entity):
        raise TeiRefusal(f"uses the entity {entity.text} that is not expanded (DTDs are never loaded)")
    name = _local(root.tag)
    namespace = root.tag[1:].split("}")[0] if root.tag.startswith("{") else ""
    if name != "TEI" or namespace not in ("", TEI_NS):
        what = "a teiCorpus (several texts), not one TEI text" if name == "teiCorpus" else f"root <{name}>"
        raise TeiRefusal(f"not a TEI file ({what}; expected <TEI> in {TEI_NS})")
    return root


def _children(element: Any, name: str) -> list[Any]:
    return [child for child in element if _local(child.tag) == name]


def _first(element: Any | None, *path: str) -> Any | None:
    """The first descendant along ``path`` (local names, child by child), or None."""
    for name in path:
        if element is None:
            return None
        found = _children(element, name)
        element = found[0] if found else None
    return element


def _drop_notes(part: Any) -> None:
    """Remove the notes and the ``#`` pointers to them (their tails are kept)."""
    doomed = [
        el
        for el in part.iter()
        if _local(el.tag) == "note" or (_local(el.tag) == "ref" and (el.get("target") or "").startswith("#"))
    ]
    for element in doomed:
        parent = element.getparent()
        if parent is None:
            continue
        tail = element.tail or ""
        previous = element.getprevious()
        if tail:
            if previous is not None:
                previous.tail = (previous.tail or "") + tail
            else:
                parent.text = (parent.text or "") + tail
        parent.remove(element)


def _walk(element: Any, out: list[str]) -> None:
    """Text of ``element`` in document order, a line break around each block."""
    block = _local(element.tag) in BLOCK_TAGS
    if block:
        out.append(_BLOCK)
    if element.text:
        out.append(element.text)
    for child in element:
        if isinstance(child.tag, str):
            _walk(child, out)
        if child.tail:
            out.append(child.tail)
    if block:
        out.append(_BLOCK)


def part_text(part: Any) -> str:
    """A TEI element's text: one line per block, whitespace runs made one space, no empty line."""
    pieces: list[str] = []
    _walk(part, pieces)
    lines = (" ".join(line.split()) for line in "".join(pieces).split(_BLOCK))
    return "\n".join(line for line in lines if line)


def header_metadata(root: Any) -> dict[str, str]:
    """The fields of :data:`METADATA_FIELDS` from the ``teiHeader`` (module docstring)."""
    meta = dict.fromkeys(METADATA_FIELDS, "")
    header = _first(root, "teiHeader")
    title_stmt = _first(header, "fileDesc", "titleStmt")
    if title_stmt is not None:
        for title in _children(title_stmt, "title"):
            if title.get("ana") != "short" and title.get("type") not in ("sub", "short"):
                meta["title"] = _clean("".join(title.itertext()))
                break
        author = _first(title_stmt, "author")
        if author is not None:
            meta["author"] = _author_name(author)
            date = _first(author, "date")
            if date is not None:
                meta["author_birth"] = _year_of(date.get("from") or "")
                meta["author_death"] = _year_of(date.get("to") or "")
    source = _first(header, "fileDesc", "sourceDesc")
    if source is not None:
        meta["year"] = _source_year(source)
    profile = _first(header, "profileDesc")
    language = _first(profile, "langUsage", "language")
    ident = (language.get("ident") if language is not None else None) or root.get(XML_LANG) or ""
    meta["language"] = language_code(ident)
    text_desc = _first(profile, "textDesc")
    if text_desc is not None:
        for child in text_desc:
            if _local(child.tag) == "authorGender":
                meta["gender"] = (child.get("key") or "").strip()
            elif _local(child.tag) == "timeSlot":
                meta["time_slot"] = (child.get("key") or "").strip()
    return meta


def _author_name(author: Any) -> str:
    pers = _first(author, "persName")
    if pers is not None:
        surname, forename = _first(pers, "surname"), _first(pers, "forename")
        if surname is not None:
            names = [
                _clean("".join(surname.itertext())),
                _clean("".join(forename.itertext())) if forename is not None else "",
            ]
            return ", ".join(n for n in names if n)
        return _clean("".join(pers.itertext()))
    parts = [author.text or ""]
    for child in author:
        if _local(child.tag) not in ("date", "idno", "note"):
            parts.append("".join(child.itertext()))
        parts.append(child.tail or "")
    return _clean("".join(parts)).strip(" ,")


def _year_of(value: str) -> str:
    match = _YEAR.search(value or "")
    return str(int(match.group())) if match else ""


def _date_year(date: Any) -> str:
    return _year_of(date.get("when") or date.get("from") or date.get("notBefore") or "") or _year_of(
        "".join(date.itertext())
    )


def _source_year(source: Any) -> str:
    dates: dict[str, str] = {}
    for bibl in source.iter():
        if _local(bibl.tag) != "bibl":
            continue
        date = _first(bibl, "date")
        year = _date_year(date) if date is not None else ""
        if year:
            dates.setdefault(bibl.get("type") or "", year)
    for kind in ("firstEdition", "printSource"):
        if kind in dates:
            return dates[kind]
    for date in source.iter():
        if _local(date.tag) == "date" and _date_year(date):
            return _date_year(date)
    return ""


def digital_source(root: Any) -> str:
    """Where the digital text came from: the ``target`` of the first ``<ref>`` of the
    ``<bibl type="digitalSource">`` in ``sourceDesc`` (ELTeC's convention), else that bibl's
    text; ``""`` without one."""
    source = _first(root, "teiHeader", "fileDesc", "sourceDesc")
    if source is None:
        return ""
    for bibl in source.iter():
        if _local(bibl.tag) == "bibl" and bibl.get("type") == "digitalSource":
            for ref in bibl.iter():
                if _local(ref.tag) == "ref" and (ref.get("target") or "").strip():
                    return ref.get("target").strip()
            return _clean("".join(bibl.itertext()))
    return ""


def parse_tei(data: bytes, *, parts: tuple[str, ...] = ("body",), notes: bool = False) -> TeiDocument:
    """A TEI file's bytes -> :class:`TeiDocument` (the text of ``parts`` of its ``<text>``, in
    document order, notes dropped unless ``notes``; the header's metadata). Raises
    :class:`TeiRefusal` with the one-line reason (module docstring)."""
    unknown = [p for p in parts if p not in TEXT_PARTS]
    if unknown:
        raise ValueError(f"unknown TEI text part {unknown[0]!r} (known: {', '.join(TEXT_PARTS)})")
    root = parse_tree(data)
    text_element = _first(root, "text")
    body = _first(text_element, "body")
    if body is None:
        raise TeiRefusal("no <body> in <text> (a TEI text without a body)")
    chosen = [child for child in text_element if _local(child.tag) in parts]
    if not notes:
        for part in chosen:
            _drop_notes(part)
    text = "\n".join(t for t in (part_text(part) for part in chosen) if t)
    body_text = text if parts == ("body",) else part_text(body)
    if not any(ch.isalnum() for ch in body_text):
        raise TeiRefusal("the <body> holds no word (an empty body)")
    return TeiDocument(text=text, metadata=header_metadata(root))


def read_tei_file(
    path: str | os.PathLike[str],
    *,
    parts: tuple[str, ...] = ("body",),
    notes: bool = False,
    max_bytes: int | None = None,
) -> TeiDocument:
    """:func:`parse_tei` of a file; :class:`TeiRefusal` also for a file that cannot be read or
    exceeds ``max_bytes``."""
    path = Path(path)
    try:
        if max_bytes is not None and path.stat().st_size > max_bytes:
            raise TeiRefusal(f"file of {path.stat().st_size} bytes exceeds the cap of {max_bytes} bytes")
        data = path.read_bytes()
    except OSError as exc:
        raise TeiRefusal(f"cannot read the file ({exc.strerror or exc})") from None
    return parse_tei(data, parts=parts, notes=notes)


# ------------------------------------------------------------------------------ metadata table


def read_eltec_metadata(path: str | os.PathLike[str]) -> pd.DataFrame:
    """ELTeC's metadata table (tab-separated; ``filename`` and any of :data:`ELTEC_COLUMNS`)
    as text cells, ``NA`` and empty cells ``""``, indexed by ``filename`` (the file name
    without ``.xml``). Raises :class:`InputError` naming the file when it cannot be read or
    has no ``filename`` column."""
    import pandas as pd

    try:
        frame = pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False, encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise InputError(f"{path}: cannot read the metadata table ({' '.join(str(exc).split())})") from exc
    frame.columns = [str(c).strip() for c in frame.columns]
    if "filename" not in frame.columns:
        raise InputError(f"{path}: the metadata table has no 'filename' column (found: {', '.join(frame.columns)})")
    frame = frame.map(lambda cell: "" if cell.strip() in ("NA", "") else cell.strip())
    frame["filename"] = [name[:-4] if name.endswith(".xml") else name for name in frame["filename"]]
    return frame.set_index("filename", drop=False)


def default_pattern(folder: str | os.PathLike[str]) -> str:
    """``level1/*.xml`` when the folder has a ``level1`` folder (ELTeC's layout), else ``**/*.xml``."""
    return "level1/*.xml" if (Path(folder) / "level1").is_dir() else "**/*.xml"


def find_metadata_table(folder: str | os.PathLike[str]) -> Path | None:
    """The folder's one ``*_metadata.tsv`` (ELTeC's layout), or None (none, or several)."""
    found = sorted(Path(folder).glob("*_metadata.tsv"))
    return found[0] if len(found) == 1 else None


@dataclass(frozen=True)
class TeiSettings:
    """The ``tei`` config block: ``path``, ``pattern``, ``metadata`` (the table or None),
    ``parts``, ``notes``, ``genre_from``, plus the corpus ``language`` (``""``: from the headers)."""

    path: str
    pattern: str
    metadata: str | None
    parts: tuple[str, ...] = ("body",)
    notes: bool = False
    language: str = ""
    max_bytes: int | None = None
    genre_from: str | None = None
    """``time_slot`` or ``gender``: the metadata field each text's ``genre`` is taken from."""

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> TeiSettings:
        """The settings of a validated config; :class:`InputError` naming the key when the
        folder or the metadata table is missing."""
        block = config["tei"]
        folder = block["path"]
        if not folder:
            raise InputError("config tei.path: needed with source: tei (the folder of TEI files)")
        if not os.path.isdir(folder):
            raise InputError(f"config tei.path: {folder} is not a folder")
        metadata = block.get("metadata")
        if metadata and not os.path.isfile(metadata):
            raise InputError(f"config tei.metadata: {metadata} is not a file (ELTeC's tab-separated metadata table)")
        if not metadata:
            found = find_metadata_table(folder)
            metadata = str(found) if found else None
        max_mb = config.get("mirror", {}).get("max_text_mb")
        return cls(
            path=str(folder),
            pattern=block.get("pattern") or default_pattern(folder),
            metadata=metadata,
            parts=tuple(block.get("parts") or ("body",)),
            notes=bool(block.get("notes", False)),
            language=str(config.get("language") or ""),
            max_bytes=int(max_mb * 1024 * 1024) if max_mb else None,
            genre_from=block.get("genre_from") or None,
        )


def header_language(path: str | os.PathLike[str]) -> str:
    """The language of a TEI file's header (:func:`header_metadata`'s rule), read up to the end
    of the ``teiHeader`` only (the planning reads it for every file); ``""`` when absent or
    unreadable."""
    from lxml import etree  # lazy: only the TEI source needs lxml

    root_lang = ""
    try:
        for event, element in etree.iterparse(
            str(path), events=("start", "end"), resolve_entities=False, no_network=True, load_dtd=False
        ):
            name = _local(element.tag)
            if event == "start" and name == "TEI":
                root_lang = element.get(XML_LANG) or ""
            elif event == "end" and name == "language" and element.get("ident"):
                return language_code(element.get("ident"))
            elif event == "end" and name == "teiHeader":
                break
    except (etree.XMLSyntaxError, OSError):
        return ""
    return language_code(root_lang)


def corpus_language(settings: TeiSettings) -> str:
    """The corpus language: the configured one, else the most common language of the metadata
    table's ``language`` column, else of the files' headers (:func:`header_language`), else
    English; as spaCy's code (:func:`punctstyle.text.languages.language_code`)."""
    from collections import Counter

    if settings.language:
        return language_code(settings.language)
    codes: list[str] = []
    if settings.metadata:
        table = read_eltec_metadata(settings.metadata)
        if "language" in table.columns:
            codes = [language_code(c) for c in table["language"] if c]
    if not codes:
        root = Path(settings.path)
        codes = [header_language(p) for p in sorted(root.glob(settings.pattern)) if p.is_file()]
    counts = Counter(c for c in codes if c)
    return min(counts, key=lambda c: (-counts[c], c)) if counts else "en"


def tei_metadata(settings: TeiSettings, *, with_text: bool = False) -> tuple[pd.DataFrame, list[tuple[str, str]]]:
    """The folder source's metadata rows (:func:`punctstyle.sources.folder.read_metadata`'s
    columns, ``line`` the row number, plus ``language``, ``gender``, ``time_slot``) of the TEI
    files matching ``settings.pattern``, each parsed once (:func:`read_tei_file`), and the
    left-out ``(file, reason)`` pairs: refused files, metadata-table rows without a file, and
    (without a configured language) files whose language is not the corpus'
    (:func:`corpus_language`). ``with_text``: a last column ``text``, each kept file's text as
    that parse read it (``settings.parts``, ``settings.notes``), for callers that read every
    text next (no second parse)."""
    import pandas as pd

    from punctstyle.sources.folder import OPTIONAL_COLUMNS, REQUIRED_COLUMNS

    root = Path(settings.path)
    files = sorted(p for p in root.glob(settings.pattern) if p.is_file())
    table = read_eltec_metadata(settings.metadata) if settings.metadata else None
    rows, left_out = [], []
    for path in files:
        relative = path.relative_to(root).as_posix()
        try:
            document = read_tei_file(path, parts=settings.parts, notes=settings.notes, max_bytes=settings.max_bytes)
        except TeiRefusal as exc:
            left_out.append((relative, str(exc)))
            continue
        meta = dict(document.metadata)
        if table is not None and path.stem in table.index:
            listed = table.loc[path.stem]
            listed = listed.iloc[0] if isinstance(listed, pd.DataFrame) else listed
            for column, key in ELTEC_COLUMNS.items():
                if column in listed.index and listed[column]:
                    meta[key] = listed[column]
        meta["language"] = language_code(meta["language"])
        rows.append({"file": relative, "id": path.stem, **meta, **({"text": document.text} if with_text else {})})
    if table is not None:
        present = {p.stem for p in files}
        for name in table.index:
            if name not in present:
                left_out.append((f"{name}.xml", f"listed in {settings.metadata} but no such file under {root}"))
    language = corpus_language(settings)
    kept = []
    for row in rows:
        if not settings.language and row["language"] and row["language"] != language:
            left_out.append((row["file"], f"language {row['language']!r} is not the corpus language {language!r}"))
            continue
        row["language"] = language
        kept.append(row)
    if settings.genre_from:
        for row in kept:
            row["genre"] = row.get(settings.genre_from, "")
    columns = [*REQUIRED_COLUMNS, *OPTIONAL_COLUMNS, "language", "gender", "time_slot"]
    frame = pd.DataFrame([{c: str(r.get(c, "") or "") for c in columns} for r in kept], columns=columns)
    for column in ("author_birth", "author_death", "year"):
        frame[column] = [_year_of(cell) for cell in frame[column]]
    frame["line"] = range(1, len(frame) + 1)
    if with_text:
        frame["text"] = [r["text"] for r in kept]
    return frame, left_out
