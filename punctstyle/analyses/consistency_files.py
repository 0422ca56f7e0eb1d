"""The files of the consistency step (rule ``consistency``: one job per task, every feature in
it), each writer beside its reader.

Per (task, feature), under ``analysis/consistency/``:

* ``{task}_{feature}.csv``: the per-class table (:data:`punctstyle.analyses.consistency.TABLE_COLUMNS`,
  then :data:`punctstyle.analyses.consistency.TEXT_COLUMNS` when the documents are excerpts of texts:
  ``n_texts`` and ``n_same_text_pairs``, the class's pairs of one text left out);
* ``{task}_{feature}.json``: the scalar summary
  (:meth:`punctstyle.analyses.consistency_report.ConsistencyReport.summary`; with excerpts also ``n_texts``,
  ``n_within_same_text`` and ``n_cross_same_text``, the pairs of one text left out), or
  ``{"task", "feature", "skipped": reason}`` when there is nothing to measure;
* ``{task}_{feature}_kl.npz``: the pooled within-class and the cross-class KL values
  (``within``, ``cross``; empty when skipped);
* ``{task}_{feature}_top.npz``: the heat maps of the ``k`` most consistent classes
  (``matrix_top{k}``, ``labels_top{k}``, ``edges_top{k}`` per ``k``; empty when skipped).

``summary.csv`` (rule ``consistency_summary``) has one row per summary (its columns: the keys of
the summaries, so the counts of same-text pairs appear when the documents are excerpts).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from punctstyle.analyses.paper import consistency_analysis, labelled_rows, task_column
from punctstyle.analyses.cross_class import pair_counts
from punctstyle.corpus.tables import text_groups
from punctstyle.io import InputError, atomic_open, read_json_object, write_json_atomic
from punctstyle.analyses.consistency import TABLE_COLUMNS


def _load_npz(path: Any) -> Any:
    try:
        return np.load(path, allow_pickle=False)
    except (OSError, ValueError) as exc:
        raise InputError(f"{path}: not a readable .npz file ({exc})") from exc


def read_feature_table(path: Any) -> pd.DataFrame:
    """A corpus feature table (``corpus/<feature>.parquet``), the input of rule ``consistency``."""
    try:
        return pd.read_parquet(path)
    except (OSError, ValueError) as exc:
        raise InputError(f"{path}: not a readable Parquet file ({exc})") from exc


def write_consistency_table(path: Any, table: pd.DataFrame) -> None:
    """``{task}_{feature}.csv``: one row per class, most consistent first."""
    with atomic_open(path, "w", newline="") as handle:
        table.to_csv(handle, index=False)


def read_consistency_table(path: Any) -> pd.DataFrame:
    """The table of :func:`write_consistency_table`."""

    try:
        table = pd.read_csv(path)
    except (OSError, ValueError) as exc:
        raise InputError(f"{path}: not a readable CSV file ({exc})") from exc
    missing = [c for c in ("class", "n_docs", "consistency") if c not in table.columns]
    if missing and len(table.columns) > 0:
        raise InputError(f"{path}: no column {missing[0]!r} (expected {', '.join(TABLE_COLUMNS)})")
    return table


def write_summary(path: Any, summary: Mapping[str, Any]) -> None:
    """``{task}_{feature}.json``: the scalar results, or the reason the pair was skipped."""
    write_json_atomic(path, dict(summary))


def skipped_summary(task: str, feature: str, reason: str) -> dict[str, str]:
    """The summary of a (task, feature) with nothing to measure."""
    return {"task": task, "feature": feature, "skipped": reason}


def read_summary(path: Any) -> dict[str, Any]:
    """The summary of :func:`write_summary` (``"skipped" in summary`` when skipped)."""
    return read_json_object(path)


def write_summary_table(path: Any, summaries: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """``summary.csv``: one row per (task, feature) summary."""
    table = pd.DataFrame([dict(s) for s in summaries])
    with atomic_open(path, "w", newline="") as handle:
        table.to_csv(handle, index=False)
    return table


def write_values(path: Any, within: np.ndarray | None = None, cross: np.ndarray | None = None) -> None:
    """``{task}_{feature}_kl.npz``: within-class and cross-class KL values (NaN kept); none: empty."""
    arrays = {} if within is None else {"within": np.asarray(within), "cross": np.asarray(cross)}
    with atomic_open(path, "wb") as handle:
        np.savez_compressed(handle, **arrays)


def read_values(path: Any) -> tuple[np.ndarray, np.ndarray]:
    """``(within, cross)`` of :func:`write_values`."""
    with _load_npz(path) as data:
        if "within" not in data.files or "cross" not in data.files:
            raise InputError(f"{path}: no KL values (within, cross)")
        return data["within"], data["cross"]


@dataclass(frozen=True)
class Heatmap:
    """The KL matrix of the documents of the ``k`` most consistent classes, grouped by class.

    ``labels``: the class of each row; class ``c`` occupies rows and columns
    ``edges[c]:edges[c + 1]`` (see :func:`punctstyle.analyses.consistency_report.top_consistent_kl_matrix`).
    """

    matrix: np.ndarray
    labels: np.ndarray
    edges: np.ndarray


def write_heatmaps(path: Any, heatmaps: Mapping[int, Sequence[np.ndarray]]) -> None:
    """``{task}_{feature}_top.npz`` from ``{k: (matrix, labels, edges)}`` (empty mapping: none)."""
    arrays = {}
    for k, (matrix, labels, edges) in heatmaps.items():
        arrays[f"matrix_top{k}"] = np.asarray(matrix).astype(np.float32)
        arrays[f"labels_top{k}"] = np.asarray(labels, dtype=str)
        arrays[f"edges_top{k}"] = np.asarray(edges)
    with atomic_open(path, "wb") as handle:
        np.savez_compressed(handle, **arrays)


def read_heatmaps(path: Any) -> dict[int, Heatmap]:
    """``{k: Heatmap}`` of :func:`write_heatmaps`, ``k`` ascending."""
    with _load_npz(path) as data:
        keys = sorted(int(name[len("matrix_top"):]) for name in data.files if name.startswith("matrix_top"))
        return {
            k: Heatmap(data[f"matrix_top{k}"], data[f"labels_top{k}"], data[f"edges_top{k}"]) for k in keys
        }


def heatmap_key(k: int, available: Iterable[int]) -> int | None:
    """Which stored heat map to draw for a configured ``k``.

    The consistency step caps ``k`` at the number of ranked classes, so the key is ``k`` when
    stored, else the largest stored key when it is below ``k`` (all the corpus has); None
    when nothing usable is stored.
    """
    keys = sorted(int(a) for a in available)
    if k in keys:
        return int(k)
    if keys and keys[-1] < k:
        return keys[-1]
    return None


def consistency_job(
    table: pd.DataFrame,
    task: str,
    feature: str,
    outputs: Mapping[str, str],
    *,
    baseline_pairs: int,
    seed: int,
    top_k: Sequence[int],
    log: Any = None,
) -> dict[str, Any]:
    """Rule ``consistency`` for one (task, feature): :func:`punctstyle.analyses.paper.consistency_analysis`
    on the corpus table, written to ``outputs`` (``table``, ``summary``, ``values``, ``heatmaps``);
    the heat maps of the top ``top_k`` classes for the author task only. Skipped (empty files and
    a summary naming the reason) with fewer than 2 classes or no class with documents from two
    texts. Returns the summary."""
    rows = labelled_rows(table, task)
    labels = rows[task_column(task)].to_numpy(dtype=object)
    n_classes = pd.Series(labels).nunique()
    counts = pair_counts(labels, text_groups(rows))
    reason = None
    if n_classes < 2:
        reason = f"skipped: the corpus has {n_classes} {task} class(es) with documents, at least 2 are needed"
    elif counts.within == 0:
        reason = (
            f"skipped: no {task} has documents from two texts "
            f"({counts.within_same_text} pairs of excerpts of one text are left out)"
        )
    if reason is not None:
        if log is not None:
            log.warning("%s %s %s", task, feature, reason)
        summary = skipped_summary(task, feature, reason)
        write_consistency_table(outputs["table"], pd.DataFrame(columns=["class", "n_docs", "consistency"]))
        write_summary(outputs["summary"], summary)
        write_values(outputs["values"])
        write_heatmaps(outputs["heatmaps"], {})
        return summary
    result = consistency_analysis(
        table, task, feature, baseline_pairs=baseline_pairs, seed=seed, top_k=top_k if task == "author" else ()
    )
    write_consistency_table(outputs["table"], result.report.table)
    write_values(outputs["values"], result.report.within, result.report.cross)
    write_heatmaps(outputs["heatmaps"], result.heatmaps)
    summary = result.summary()
    write_summary(outputs["summary"], summary)
    if log is not None:
        log.info("%s", summary)
    return summary


def consistency_task_job(
    tables: Mapping[str, Any],
    task: str,
    outputs: Mapping[str, Sequence[str]],
    *,
    baseline_pairs: int,
    seed: int,
    top_k: Sequence[int],
    log: Any = None,
) -> list[dict[str, Any]]:
    """Rule ``consistency`` for one task: :func:`consistency_job` for each feature of ``tables``
    (feature -> its corpus table's path, read one at a time), in one process. ``outputs``: each
    kind (``table``, ``summary``, ``values``, ``heatmaps``) -> one path per feature, in ``tables``'
    order. Returns the summaries in that order."""
    for kind, paths in outputs.items():
        if len(paths) != len(tables):
            raise ValueError(f"consistency {task}: {len(paths)} {kind} outputs for {len(tables)} features")
    summaries = []
    for index, (feature, path) in enumerate(tables.items()):
        files = {kind: paths[index] for kind, paths in outputs.items()}
        summaries.append(
            consistency_job(
                read_feature_table(path),
                task,
                feature,
                files,
                baseline_pairs=baseline_pairs,
                seed=seed,
                top_k=top_k,
                log=log,
            )
        )
    return summaries
