"""Atomic file output: write to a temporary file beside the target, then rename.

A crash or a kill never leaves a truncated output behind, and an existing file is only
replaced once the new one is complete.
"""

from __future__ import annotations

import contextlib
import errno
import gzip
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any


class InputError(ValueError):
    """Bad input: the message is one line naming the file and what is wrong."""


def _current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary path in the target's folder; rename it onto ``path`` on success."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    os.chmod(tmp, 0o666 & ~_current_umask())  # mkstemp makes 0600; give outputs the usual mode
    try:
        yield tmp
        os.replace(tmp, target)
    except OSError as exc:
        if exc.filename not in (str(tmp), tmp) and exc.errno != errno.ENOSPC:
            raise
        # name the output, not its temporary file (a full disk: "<output>: No space left on device")
        raise OSError(exc.errno, exc.strerror or str(exc), str(target)) from exc
    finally:
        if tmp.exists():
            tmp.unlink()


@contextlib.contextmanager
def atomic_open(path: str | os.PathLike[str], mode: str = "w", **kwargs: Any) -> Iterator[IO[Any]]:
    """Open a temporary file for writing; it replaces ``path`` only if the block succeeds."""
    with atomic_path(path) as tmp, open(tmp, mode, **kwargs) as handle:
        yield handle


def write_bytes_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    with atomic_open(path, "wb") as handle:
        handle.write(data)


def write_text_atomic(path: str | os.PathLike[str], text: str) -> None:
    with atomic_open(path, "w", encoding="utf-8", newline="") as handle:
        handle.write(text)


def write_json_atomic(path: str | os.PathLike[str], obj: Any) -> None:
    write_text_atomic(path, json.dumps(obj, indent=2, sort_keys=True, ensure_ascii=False) + "\n")


def write_gzip_text_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Gzip-compress UTF-8 ``text`` into ``path`` (mtime 0, so equal texts give equal bytes).

    Level 1, the fastest: a book's download or ingest compresses its text once and every
    extraction decompresses it, so the level changes only the file's size (0.182 -> 0.215 MB for
    a typical book's 0.48 MB of text) and the CPU of its writer (0.0295 -> 0.0060 s,
    docs/evidence/perf_book_pieces); the text read back is the same (docs/performance.md,
    "Cutting a book's processes")."""
    data = gzip.compress(text.encode("utf-8"), compresslevel=1, mtime=0)
    write_bytes_atomic(path, data)


def read_gzip_text(path: str | os.PathLike[str]) -> str:
    try:
        return gzip.decompress(Path(path).read_bytes()).decode("utf-8")
    except (OSError, EOFError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: not a valid gzip-compressed UTF-8 text ({exc})") from exc


def write_parquet_atomic(frame: Any, path: str | os.PathLike[str]) -> None:
    """Write a pandas DataFrame to Parquet atomically (index dropped)."""
    with atomic_path(path) as tmp:
        frame.to_parquet(tmp, index=False)


def arrow_array(values: Any) -> Any:
    """A pyarrow array of a 1-d numpy array (numbers) or a list of ``str``, built from
    buffers: ``pyarrow.array`` imports pandas (about 0.2 CPU s, a third of a per-book job)."""
    import numpy as np
    import pyarrow as pa

    if isinstance(values, np.ndarray):
        values = np.ascontiguousarray(values)
        return pa.Array.from_buffers(pa.from_numpy_dtype(values.dtype), values.size, [None, pa.py_buffer(values)])
    encoded = [str(v).encode("utf-8") for v in values]
    offsets = np.cumsum([0] + [len(e) for e in encoded], dtype=np.int32)
    data = b"".join(encoded)
    return pa.Array.from_buffers(pa.string(), len(encoded), [None, pa.py_buffer(offsets), pa.py_buffer(data)])


def arrow_row(row: dict[str, Any]) -> Any:
    """A one-row pyarrow table of a dict of int, float and str values (int64, double,
    string columns, in the dict's order), without importing pandas (:func:`arrow_array`)."""
    import numpy as np
    import pyarrow as pa

    columns = []
    for name, value in row.items():
        if isinstance(value, str):
            columns.append(arrow_array([value]))
        elif isinstance(value, (bool, np.bool_)):
            raise TypeError(f"column {name}: booleans are not supported")
        elif isinstance(value, (int, np.integer)):
            columns.append(arrow_array(np.array([value], np.int64)))
        elif isinstance(value, (float, np.floating)):
            columns.append(arrow_array(np.array([value], np.float64)))
        else:
            raise TypeError(f"column {name}: unsupported value {value!r}")
    return pa.Table.from_arrays(columns, names=list(row))


def numpy_column(column: Any, dtype: Any) -> Any:
    """A copy of a pyarrow numeric column without nulls as a numpy array of ``dtype`` (its
    type), read from its buffer: ``to_numpy`` imports pandas (:func:`arrow_array`)."""
    import numpy as np

    array = column.combine_chunks() if hasattr(column, "combine_chunks") else column
    if array.null_count:
        raise ValueError("column has missing values")
    if len(array) == 0:
        return np.zeros(0, dtype)
    data = array.buffers()[1]
    return np.frombuffer(data, dtype, count=len(array), offset=array.offset).copy()


def read_json_object(path: str | os.PathLike[str]) -> dict[str, Any]:
    """A JSON file that must hold an object; anything else is an :class:`InputError` in one line
    naming the file (unreadable, not JSON, or not an object)."""
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise InputError(f"{path}: not a readable JSON file ({reason})") from exc
    if not isinstance(data, dict):
        raise InputError(f"{path}: expected a JSON object")
    return data


@contextlib.contextmanager
def discarding_unreadable(paths: Any) -> Iterator[None]:
    """Around a workflow job that reads per-book files the workflow itself wrote (``paths``):
    an :class:`InputError` naming one of them (its message starts with ``"<path>:"``: a
    truncated or corrupt file) deletes that file and is raised again with ``; deleted it: the
    next run remakes it and everything after it``. Snakemake reruns nothing for a corrupt file
    that exists; for a missing one it does (rule all asks for every per-book file)."""
    try:
        yield
    except InputError as exc:
        message = str(exc)
        named = next((str(p) for p in paths if message.startswith(f"{p}:")), None)
        if named is None or not os.path.isfile(named):
            raise
        os.unlink(named)
        raise InputError(f"{message}; deleted it: the next run remakes it and everything after it") from exc
