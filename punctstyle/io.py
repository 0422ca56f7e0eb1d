"""Atomic file output: write to a temporary file beside the target, then rename.

A crash or a kill never leaves a truncated output behind, and an existing file is only
replaced once the new one is complete.
"""

from __future__ import annotations

import contextlib
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
    """Gzip-compress UTF-8 ``text`` into ``path`` (mtime 0, so equal texts give equal bytes)."""
    data = gzip.compress(text.encode("utf-8"), compresslevel=6, mtime=0)
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
