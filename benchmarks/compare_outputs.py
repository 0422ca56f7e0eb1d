"""Compare two results folders value for value (the check that a refactoring moved no result).

    python benchmarks/compare_outputs.py OLD_DIR NEW_DIR

Every parquet, csv, json, npz, npy and pt (torch model: its tensors and settings) file under ``analysis/``, ``corpus/`` and
``models/attribution/`` of either folder (timings and logs left out: ``*_seconds`` columns and
keys, ``device``, files under ``benchmarks/`` or ``logs/``) is read in both folders and compared:
tables column for column (same columns, same rows in the same order, numbers to the last bit,
NaN equal to NaN; a local server's port in a URL masked, as a fixture mirror is served on a
free port), JSON objects key for key, arrays element for element. Prints each file that
is missing on one side or differs, with the largest absolute difference of its numbers; exits 1
if any does, 0 otherwise.
"""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

FOLDERS = ("analysis", "corpus", "models/attribution")
SUFFIXES = (".parquet", ".csv", ".json", ".npz", ".npy", ".pt")
LOCAL_PORT = re.compile(r"(https?://(?:127\.0\.0\.1|localhost)):\d+")
"""A local server's port (a fixture mirror is served on a free port): masked in text."""
TIMING_WORDS = ("seconds", "device", "elapsed", "cpu_s", "wall_s")


def is_timing(name: str) -> bool:
    """A column or key that records time or where something ran, not a result."""
    return any(word in str(name) for word in TIMING_WORDS)


def result_files(root: Path) -> set[str]:
    """Paths (relative to ``root``) of the result files under :data:`FOLDERS`."""
    found = set()
    for folder in FOLDERS:
        base = root / folder
        if base.is_dir():
            for path in base.rglob("*"):
                if path.is_file() and path.suffix in SUFFIXES and "benchmarks" not in path.parts:
                    found.add(str(path.relative_to(root)))
    return found


def _frame(path: Path) -> pd.DataFrame:
    frame = pd.read_parquet(path) if path.suffix == ".parquet" else pd.read_csv(path)
    return frame[[c for c in frame.columns if not is_timing(c)]]


def _max_abs(a: np.ndarray, b: np.ndarray) -> float:
    try:
        x, y = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    except (TypeError, ValueError):
        return math.nan
    both_nan = np.isnan(x) & np.isnan(y)
    diff = np.where(both_nan, 0.0, np.abs(x - y))
    return float(np.nanmax(diff)) if diff.size else 0.0


def _equal_arrays(a: np.ndarray, b: np.ndarray) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        return False
    if a.dtype.kind in "fc" or b.dtype.kind in "fc":
        try:
            return bool(np.array_equal(a.astype(np.float64), b.astype(np.float64), equal_nan=True))
        except (TypeError, ValueError):
            return False
    return bool(np.array_equal(a, b))


def _text(values: np.ndarray) -> pd.Series:
    return pd.Series(values).fillna("<NA>").astype(str).str.replace(LOCAL_PORT, r"\1:PORT", regex=True)


def compare_frames(old: pd.DataFrame, new: pd.DataFrame) -> tuple[bool, float, str]:
    """(equal, max abs difference of numeric columns, a note)."""
    if list(old.columns) != list(new.columns):
        return False, math.nan, f"columns differ: {list(old.columns)} != {list(new.columns)}"
    if len(old) != len(new):
        return False, math.nan, f"rows differ: {len(old)} != {len(new)}"
    equal, worst, notes = True, 0.0, []
    for column in old.columns:
        a, b = old[column].to_numpy(), new[column].to_numpy()
        if a.dtype.kind in "fiub" and b.dtype.kind in "fiub":
            same = _equal_arrays(a, b)
            if not same:
                worst = max(worst, _max_abs(a, b))
        else:
            same = bool((_text(a) == _text(b)).all())
        if not same:
            equal = False
            notes.append(str(column))
    return equal, worst, ("columns " + ", ".join(notes)) if notes else ""


def _json_equal(a: Any, b: Any) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        keys_a = {k for k in a if not is_timing(k)}
        keys_b = {k for k in b if not is_timing(k)}
        return keys_a == keys_b and all(_json_equal(a[k], b[k]) for k in keys_a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_json_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return _equal_arrays(a, b)
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


def _plain(value: Any) -> Any:
    """A torch file's content with tensors as numpy arrays (compared by :func:`_json_equal`)."""
    if hasattr(value, "detach"):
        return value.detach().cpu().numpy()
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def compare_file(old: Path, new: Path) -> tuple[bool, float, str]:
    """Compare one result file present in both folders."""
    if old.suffix == ".pt":
        import torch  # lazy: only runs with model files need it

        a = _plain(torch.load(old, map_location="cpu", weights_only=False))
        b = _plain(torch.load(new, map_location="cpu", weights_only=False))
        return _json_equal(a, b), math.nan, ""
    if old.suffix in (".parquet", ".csv"):
        try:
            return compare_frames(_frame(old), _frame(new))
        except pd.errors.EmptyDataError:
            return old.read_bytes() == new.read_bytes(), math.nan, ""
    if old.suffix == ".json":
        a, b = json.loads(old.read_text()), json.loads(new.read_text())
        return _json_equal(a, b), math.nan, ""
    if old.suffix == ".npy":
        a, b = np.load(old, allow_pickle=True), np.load(new, allow_pickle=True)
        return _equal_arrays(a, b), _max_abs(a, b) if a.shape == b.shape else math.nan, ""
    with np.load(old, allow_pickle=True) as a, np.load(new, allow_pickle=True) as b:
        if sorted(a.files) != sorted(b.files):
            return False, math.nan, f"arrays differ: {sorted(a.files)} != {sorted(b.files)}"
        bad = [k for k in a.files if not _equal_arrays(a[k], b[k])]
        worst = max((_max_abs(a[k], b[k]) for k in bad if a[k].shape == b[k].shape), default=0.0)
        return not bad, worst, ("arrays " + ", ".join(bad)) if bad else ""


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    old_root, new_root = Path(argv[0]), Path(argv[1])
    old_files, new_files = result_files(old_root), result_files(new_root)
    n_diff = 0
    for name in sorted(old_files ^ new_files):
        side = "old" if name in old_files else "new"
        print(f"only in {side}: {name}")
        n_diff += 1
    for name in sorted(old_files & new_files):
        equal, worst, note = compare_file(old_root / name, new_root / name)
        if not equal:
            n_diff += 1
            print(f"differs: {name} (max abs difference {worst:.6g}) {note}")
    print(f"{len(old_files & new_files)} files compared, {n_diff} differ or are missing on one side")
    return 1 if n_diff else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
