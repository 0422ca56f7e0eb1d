"""A corpus of one's own: a folder of text files and a metadata CSV (setting ``source: folder``).

The metadata CSV has one row per document: ``file`` (the path relative to the folder) and
``author`` are required; ``id``, ``title``, ``year`` (publication), ``author_birth``,
``author_death`` and ``genre`` (several genres separated by ``;``) are optional. Another
column is reported and ignored.

Ids. A document's ``doc_id`` is its ``id`` cell, else its file path without the extension,
made safe as a file name by :func:`safe_doc_id` (``Austen/Emma.txt`` -> ``austen-emma``,
``Война.txt`` -> ``война``: letters of every script are kept).
The corpus tables key on an integer ``book_id``, from the doc_id by :func:`book_number`: a
doc_id of digits below 10**15 is that number (a Gutenberg number stays itself), any other
is ``10**15 + int(sha256(doc_id)[:8 bytes]) mod (8 * 10**15)``; both are stable across
runs, and the two ranges never meet. Per-document files are ``books/{book_id}.txt.gz``.

Selection (:func:`folder_selection`): the Gutenberg-only filters (language, type, author
labels, duplicate titles) are not applied. A bad row (no author, no file, a file that is not
there, a file that resolves outside the folder (``../x``, an absolute path, a symlink pointing
out; symlinks resolved, :func:`resolve_document`), an id that repeats an earlier row's, a year that is not a whole number) is left out
with one line naming the row and the file, recorded as an exclusion of stage ``metadata``;
then ``min_docs_per_author`` (stage ``selection``). The selection has the columns of
:data:`punctstyle.sources.selection.SELECTION_COLUMNS` (genres as ``bookshelves``, the year as
``issued``) plus ``doc_id``, ``file``, ``year`` and ``path`` (the file, resolved: what
the ingest reads).

Ingest (:func:`read_document`, :func:`write_document`) takes the place of the download:
bytes -> text by :func:`decode_document` (UTF-16 or UTF-8 by their byte-order mark, else
UTF-8, else Latin-1), the same ``books/{id}.txt.gz`` and provenance JSON (keys of
:data:`punctstyle.sources.provenance.PROVENANCE_KEYS` plus ``source``, ``doc_id``, ``file``) as
:func:`punctstyle.sources.provenance.write_book`. Gutenberg header and footer are stripped at
extraction, only where their markers are present (:func:`punctstyle.text.clean.clean_text`).

Ingest runs once per document, so this module imports pandas (and :mod:`punctstyle.sources.catalog`)
only in the selection functions that need them: an ingest job then costs about 0.2 CPU s
instead of 0.45, as much as a download (16 mirror books, ``benchmarks/folder_from_mirror.py``).
"""

from __future__ import annotations

import codecs
import hashlib
import os
import re
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from punctstyle import __version__
from punctstyle.io import InputError, write_gzip_text_atomic, write_json_atomic

if TYPE_CHECKING:
    import pandas as pd
# punctstyle.sources.selection (SELECTION_COLUMNS, EmptySelectionError, largest_author) is imported
# where used: it imports pandas and numpy, which the per-book ingest (read_document,
# write_document) does not need (0.5 CPU s a book: docs/performance.md, "A book's CPU")

REQUIRED_COLUMNS: tuple[str, ...] = ("file", "author")
OPTIONAL_COLUMNS: tuple[str, ...] = ("id", "title", "year", "author_birth", "author_death", "genre")
YEAR_COLUMNS: tuple[str, ...] = ("year", "author_birth", "author_death")
FOLDER_EXTRA_COLUMNS: tuple[str, ...] = ("doc_id", "file", "year", "path")
"""The columns a folder selection has beyond :data:`punctstyle.sources.selection.SELECTION_COLUMNS`;
``FOLDER_SELECTION_COLUMNS`` is both (an attribute made on first use, see :func:`__getattr__`)."""
EXCLUSION_COLUMNS: tuple[str, ...] = ("book_id", "stage", "reason")
HASHED_ID_BASE = 10**15
"""doc_ids of digits below this are their own book_id; every other doc_id is hashed above it."""
GENRE_SEPARATOR = ";"
_UNSAFE = re.compile(r"[\W_]+")
OUTSIDE_FOLDER = "resolves outside the corpus folder"
"""The rule a metadata row breaks when its file (symlinks resolved) is not inside the folder."""
_WHOLE_NUMBER = re.compile(r"^-?\d+$")


def __getattr__(name: str) -> Any:
    """``FOLDER_SELECTION_COLUMNS``: :data:`punctstyle.sources.selection.SELECTION_COLUMNS` plus
    :data:`FOLDER_EXTRA_COLUMNS` (made on first use: importing the catalog imports pandas)."""
    if name == "FOLDER_SELECTION_COLUMNS":
        from punctstyle.sources.selection import SELECTION_COLUMNS

        return (*SELECTION_COLUMNS, *FOLDER_EXTRA_COLUMNS)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def safe_doc_id(value: str) -> str:
    """Lower-case letters and digits (of any script) joined by ``-``: the accents of Latin
    letters folded (``ë`` -> ``e``), other letters kept (``Война`` -> ``война``), every run of
    other characters -> one ``-``, none at either end (``"Brontë, Jane #2"`` -> ``bronte-jane-2``);
    ``""`` when nothing is left."""
    decomposed = unicodedata.normalize("NFKD", value)
    kept = [
        char
        for i, char in enumerate(decomposed)
        if not (unicodedata.combining(char) and i > 0 and decomposed[i - 1].isascii())
    ]
    composed = unicodedata.normalize("NFC", "".join(kept))
    return _UNSAFE.sub("-", composed.lower()).strip("-")


def doc_id_from_file(file: str) -> str:
    """The doc_id of a file path: the path without its last extension, :func:`safe_doc_id`."""
    path = PurePosixPath(file.replace("\\", "/"))
    return safe_doc_id(str(path.with_suffix("")) if path.suffix else str(path))


def book_number(doc_id: str) -> int:
    """The integer book_id of a doc_id: ``int(doc_id)`` for digits with ``0 < n < 10**15``,
    else ``10**15 + int.from_bytes(sha256(doc_id)[:8], "big") mod (8 * 10**15)`` (below 2**53)."""
    if doc_id.isdigit() and 0 < int(doc_id) < HASHED_ID_BASE:
        return int(doc_id)
    digest = hashlib.sha256(doc_id.encode("utf-8")).digest()
    return HASHED_ID_BASE + int.from_bytes(digest[:8], "big") % (8 * HASHED_ID_BASE)


def read_metadata(path: str | os.PathLike[str]) -> tuple[pd.DataFrame, list[str]]:
    """The metadata CSV as text cells (empty cells ``""``) with its ``line`` numbers, and one
    warning per unknown column (ignored). Raises :class:`InputError` naming the file when it
    cannot be read or lacks ``file`` or ``author``."""
    import pandas as pd

    try:
        frame = pd.read_csv(path, dtype=str, keep_default_na=False, skipinitialspace=True, encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise InputError(f"{path}: cannot read the metadata CSV ({' '.join(str(exc).split())})") from exc
    frame.columns = [str(c).strip() for c in frame.columns]
    missing = [c for c in REQUIRED_COLUMNS if c not in frame.columns]
    if missing:
        raise InputError(
            f"{path}: the metadata CSV lacks column {missing[0]!r} (required: file, author; "
            f"optional: {', '.join(OPTIONAL_COLUMNS)}; found: {', '.join(frame.columns)})"
        )
    known = REQUIRED_COLUMNS + OPTIONAL_COLUMNS
    warnings = [
        f"{path}: unknown column {c!r} ignored (known: {', '.join(known)})" for c in frame.columns if c not in known
    ]
    frame = frame.loc[:, [c for c in known if c in frame.columns]]
    for column in known:
        if column not in frame.columns:
            frame[column] = ""
        frame[column] = frame[column].astype(str).str.strip()
    frame["line"] = range(2, len(frame) + 2)  # the header is line 1
    return frame.reset_index(drop=True), warnings


def metadata_columns(path: str | os.PathLike[str]) -> list[str]:
    """The column names of a metadata CSV with at least one non-empty cell (read at DAG time:
    the analyses that need genres or dates follow them); ``[]`` for a missing file."""
    if not os.path.isfile(path):
        return []
    frame, _ = read_metadata(path)
    return [c for c in REQUIRED_COLUMNS + OPTIONAL_COLUMNS if (frame[c] != "").any()]


def split_genres(cell: str) -> list[str]:
    """``"Humor; Travel"`` -> ``["Humor", "Travel"]`` (empty parts dropped, order kept, once each)."""
    return list(dict.fromkeys(p.strip() for p in cell.split(GENRE_SEPARATOR) if p.strip()))


def resolve_document(folder: str | os.PathLike[str], file: str) -> Path | None:
    """The absolute path of a metadata ``file`` cell, symlinks resolved, when it lies inside
    the folder (itself resolved); None when it resolves outside (``../x``, ``/etc/passwd``, a
    symlink pointing out of the folder). A symlink to another file of the folder is fine."""
    root = Path(folder).resolve()
    resolved = (root / file).resolve()
    return resolved if resolved.is_relative_to(root) else None


def file_sha256(path: str | os.PathLike[str], block: int = 1 << 20) -> str:
    """The SHA-256 of a file's bytes (hex; read in 1 MiB blocks): the ingest rule's rerun
    trigger, so that a document edited with its modification time kept (``cp -p``,
    ``rsync -a``) is read again; the provenance records the same digest (``sha256``)."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(block):
            digest.update(chunk)
    return digest.hexdigest()


def _row_problem(row: pd.Series, folder: Path) -> str | None:
    """What makes a metadata row unusable (one phrase), or None."""
    if not row["file"]:
        return "no file"
    if not row["author"]:
        return "no author"
    if not row["doc_id"]:
        return f"id {row['id']!r} has no letter or digit" if row["id"] else "file name has no letter or digit"
    for column in YEAR_COLUMNS:
        if row[column] and not _WHOLE_NUMBER.match(row[column]):
            return f"{column} {row[column]!r} is not a whole number"
    path = resolve_document(folder, row["file"])
    if path is None:
        return OUTSIDE_FOLDER
    if not path.is_file():
        return f"file not found: {folder / row['file']}"
    return None


def _resolved_files(frame: pd.DataFrame, folder: Path) -> pd.Series:
    return frame["file"].map(lambda f: resolve_document(folder, f))


def _same_files(frame: pd.DataFrame, folder: Path) -> pd.Series:
    """True for a row whose file (symlinks resolved) an earlier row already names: the same
    document under two ids, or through a link, enters the corpus once."""
    return _resolved_files(frame, folder).duplicated(keep="first")


def same_file_reason(row: pd.Series, frame: pd.DataFrame, folder: Path) -> str:
    files = _resolved_files(frame, folder)
    first = frame.loc[files == resolve_document(folder, row["file"]), "line"].min()
    return f"same file as row {first} ({files[row.name].name}), read once"


def _where(path: str | os.PathLike[str], row: pd.Series) -> str:
    return f"{path}: row {row['line']}" + (f" ({row['file']})" if row["file"] else "")


def _without_duplicates(
    frame: pd.DataFrame, folder: Path, metadata_path: str
) -> tuple[pd.DataFrame, list[tuple[Any, Any, str, str]], dict[str, Any]]:
    """The rows left after dropping each repeated id (the first row kept) and each file an
    earlier row names (symlinks resolved: :func:`_same_files`), their exclusions
    ``(line, book_id, "metadata", reason)`` and the filter log's ``duplicate_ids`` step."""
    excluded = []
    repeated = frame["book_id"].duplicated(keep="first")
    first_line = frame.drop_duplicates("book_id").set_index("book_id")["line"]
    for _, row in frame[repeated].iterrows():
        reason = (
            f"duplicate id {row['doc_id']!r} (book_id {row['book_id']}), first used at row {first_line[row['book_id']]}"
        )
        excluded.append((row["line"], row["book_id"], "metadata", f"{_where(metadata_path, row)}: {reason}"))
    frame = frame[~repeated]
    same_file = _same_files(frame, folder)
    for _, row in frame[same_file].iterrows():
        reason = same_file_reason(row, frame, folder)
        excluded.append((row["line"], row["book_id"], "metadata", f"{_where(metadata_path, row)}: {reason}"))
    removed = int(repeated.sum()) + int(same_file.sum())
    step = {"filter": "duplicate_ids", "removed": removed, "remaining": int((~same_file).sum())}
    return frame[~same_file], excluded, step


def folder_selection(
    metadata: pd.DataFrame,
    folder: str | os.PathLike[str],
    *,
    metadata_path: str = "metadata.csv",
    min_docs_per_author: int | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame, list[dict]]:
    """Metadata rows (:func:`read_metadata`) -> ``(selection, exclusions, filter_log)``.

    ``exclusions`` (``book_id`` Int64, null when no id can be derived; ``stage``;
    ``reason``, one line naming the CSV row and file) lists the bad rows (stage ``metadata``)
    and the documents of authors with fewer than ``min_docs_per_author`` of them (stage
    ``selection``). The filter log has ``metadata_rows``, ``duplicate_ids`` (a repeated id, or
    a file an earlier row names, symlinks resolved) and ``min_docs_per_author`` steps. Raises :class:`EmptySelectionError` when nothing is left.
    """
    import pandas as pd

    from punctstyle.sources.selection import EmptySelectionError, largest_author

    folder = Path(folder)
    if metadata.empty:
        raise EmptySelectionError(f"{metadata_path}: no document row, only a header (one row per document: "
                                  "file, author, ...)")
    frame = metadata.copy()
    frame["doc_id"] = [safe_doc_id(i) if i else doc_id_from_file(f) for i, f in zip(frame["id"], frame["file"])]
    frame["book_id"] = pd.array([book_number(d) if d else None for d in frame["doc_id"]], dtype="Int64")
    problems = [_row_problem(row, folder) for _, row in frame.iterrows()]
    bad = pd.Series([p is not None for p in problems], index=frame.index)
    excluded = [
        (frame.loc[i, "line"], frame.loc[i, "book_id"], "metadata", f"{_where(metadata_path, frame.loc[i])}: {p}")
        for i, p in enumerate(problems)
        if p is not None
    ]
    log = [{"filter": "metadata_rows", "removed": int(bad.sum()), "remaining": int((~bad).sum())}]
    frame, duplicates, step = _without_duplicates(frame[~bad], folder, metadata_path)
    excluded += duplicates
    log.append(step)
    largest = largest_author(frame)
    sizes = frame["author"].map(frame["author"].value_counts())
    too_few = sizes < (min_docs_per_author or 0)
    for (_, row), n in zip(frame[too_few].iterrows(), sizes[too_few]):
        reason = f"author has {n} documents < min_docs_per_author {min_docs_per_author}"
        excluded.append((row["line"], row["book_id"], "selection", f"{_where(metadata_path, row)}: {reason}"))
    log.append({"filter": "min_docs_per_author", "removed": int(too_few.sum()), "remaining": int((~too_few).sum())})
    frame = frame[~too_few]
    excluded.sort(key=lambda entry: (entry[2] != "metadata", entry[0]))  # bad rows in CSV order
    exclusions = pd.DataFrame([entry[1:] for entry in excluded], columns=list(EXCLUSION_COLUMNS))
    exclusions["book_id"] = exclusions["book_id"].astype("Int64")
    if frame.empty:
        who = f"the largest author, {largest[0]}, has {largest[1]}" if largest[0] else "no usable row is left"
        raise EmptySelectionError(
            f"{metadata_path}: no document selected: no author has min_docs_per_author={min_docs_per_author} "
            f"documents ({who}); lower selection.min_docs_per_author or add documents"
        )
    return _selection_table(frame, folder), exclusions, log


def _year(cells: pd.Series) -> pd.arrays.IntegerArray:
    import pandas as pd

    return pd.array([int(c) if c else None for c in cells], dtype="Int64")


def _selection_table(frame: pd.DataFrame, folder: Path) -> pd.DataFrame:
    """The selection columns (``FOLDER_SELECTION_COLUMNS``; ``path``: the resolved file), sorted
    by book_id."""
    import pandas as pd

    table = pd.DataFrame(
        {
            "book_id": frame["book_id"].astype("int64").to_numpy(),
            "title": [t or d for t, d in zip(frame["title"], frame["doc_id"])],
            "author": frame["author"].to_numpy(),
            "birth": _year(frame["author_birth"]),
            "death": _year(frame["author_death"]),
            "bookshelves": [split_genres(g) for g in frame["genre"]],
            "language": "",
            "issued": frame["year"].to_numpy(),
            "subjects": [[] for _ in range(len(frame))],
            "doc_id": frame["doc_id"].to_numpy(),
            "file": frame["file"].to_numpy(),
            "year": _year(frame["year"]),
            "path": [str(resolve_document(folder, f)) for f in frame["file"]],
        }
    )
    return table.sort_values("book_id", kind="stable").reset_index(drop=True)


def publication_years(selection: pd.DataFrame) -> pd.DataFrame:
    """``book_id``, ``year`` of the dated documents (the temporal analysis' publication-year CSV)."""
    import pandas as pd

    dated = selection[selection["year"].notna()]
    return pd.DataFrame({"book_id": dated["book_id"].astype("int64"), "year": dated["year"].astype("int64")})


# ------------------------------------------------------------------------------ ingest

_BOMS: tuple[tuple[bytes, str, str], ...] = (
    (codecs.BOM_UTF8, "utf-8", "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "utf-16"),
)


def decode_document(data: bytes) -> tuple[str, str]:
    """Bytes -> ``(text, encoding)``: a UTF-8 or UTF-16 byte-order mark decides (and is
    dropped); without one, UTF-8 when the bytes are valid UTF-8, else Latin-1 (never fails).
    ``encoding`` is ``"utf-8"``, ``"utf-16"`` or ``"latin-1"``."""
    for bom, codec, name in _BOMS:
        if data.startswith(bom):
            return data[len(bom) :].decode(codec, errors="replace"), name
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "latin-1"


@dataclass(frozen=True)
class Document:
    """One ingested document: ``status`` ok | unavailable | rejected (``reason`` says why)."""

    book_id: int
    doc_id: str
    path: Path
    status: str
    text: str
    n_bytes: int
    sha256: str | None
    encoding: str | None
    reason: str | None


def read_document(path: str | os.PathLike[str], book_id: int, doc_id: str, max_bytes: int) -> Document:
    """Read and decode one file; a missing, empty, oversized or binary (NUL) file is not ok."""
    path = Path(path)

    def fail(status: str, reason: str, data: bytes = b"") -> Document:
        digest = hashlib.sha256(data).hexdigest() if data else None
        return Document(book_id, doc_id, path, status, "", len(data), digest, None, f"{path}: {reason}")

    try:
        size = path.stat().st_size
        if size > max_bytes:
            return fail("rejected", f"file of {size} bytes exceeds the cap of {max_bytes} bytes")
        data = path.read_bytes()
    except OSError as exc:
        return fail("unavailable", f"cannot read the file ({exc.strerror or exc})")
    text, encoding = decode_document(data)
    if not text.strip():
        return fail("rejected", "empty text", data)
    if "\x00" in text:
        return fail("rejected", "binary content (NUL characters), not a text", data)
    return Document(book_id, doc_id, path, "ok", text, len(data), hashlib.sha256(data).hexdigest(), encoding, None)


def provenance(document: Document, file: str, source: str = "folder") -> dict[str, Any]:
    """The provenance record: :data:`punctstyle.sources.provenance.PROVENANCE_KEYS` plus source
    (``folder``, or ``tei`` for :mod:`punctstyle.sources.tei_job`), doc_id, file."""
    uri = document.path.resolve().as_uri()
    outcome = f"read {document.n_bytes} bytes" if document.status == "ok" else (document.reason or document.status)
    return {
        "book_id": document.book_id,
        "status": document.status,
        "url": uri,
        "n_bytes": document.n_bytes,
        "sha256": document.sha256,
        "encoding": document.encoding,
        "reason": document.reason,
        "attempts": [[uri, outcome]],
        "n_chars": len(document.text),
        "text_sha256": hashlib.sha256(document.text.encode("utf-8")).hexdigest(),
        "user_agent": "",
        "fetched_at": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "punctstyle_version": __version__,
        "source": source,
        "doc_id": document.doc_id,
        "file": file,
    }


def write_document(
    document: Document,
    file: str,
    text_path: str | os.PathLike[str],
    provenance_path: str | os.PathLike[str],
    source: str = "folder",
) -> None:
    """The text (gzip; empty unless ok), then the provenance JSON, atomically and in that order."""
    Path(provenance_path).unlink(missing_ok=True)
    write_gzip_text_atomic(text_path, document.text)
    write_json_atomic(provenance_path, provenance(document, file, source))
