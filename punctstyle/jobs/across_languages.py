"""Rule across_languages (config ``across_languages``) and ``benchmarks/across_languages.py``:
several TEI collections (ELTeC-eng, -fra, -pol, ... laid out as their repositories) read in one
pass and measured by :mod:`punctstyle.analyses.across_languages`.

Each novel is read as the TEI source reads it (:func:`punctstyle.sources.tei.read_tei_file`:
the body, notes out), in its collection's language (configured, else the collection's table's
or headers', :func:`punctstyle.sources.tei.corpus_language`) with that language's extraction
rules and the configured dialogue dash (``none``, as in the paper, by default). The tables
(:data:`TABLES`, one CSV each):

* ``novels``: one row a novel (collection, file, language, author, year, time slot, gender,
  marks, words, mean gap, the discrete Weibull fit ``p``, ``beta``, ``ks``);
* ``weibull``: the fits per language (:func:`~punctstyle.analyses.across_languages.weibull_by_language`);
* ``language_accuracy`` (one row a seed and feature) and its ``_summary``: the language of a novel
  by the KL nearest class on f1 and f3, splits grouped by author
  (:func:`~punctstyle.analyses.across_languages.grouped_accuracy`); with one language, no row;
* ``time_slot_accuracy`` and its ``_summary``: the time slot within each language, on the novels
  whose author wrote in one slot only; a language with fewer than two such slots has no row;
* ``language_kl``: mean and median KL between novels within and across languages (f1, f3);
* ``f1_by_slot``: the mean f1 of the novels of each language and time slot.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from punctstyle.analyses.across_languages import (
    accuracy_summary,
    grouped_accuracy,
    language_kl,
    single_slot_authors,
    weibull_by_language,
)
from punctstyle.io import InputError, atomic_open

TABLES: tuple[str, ...] = (
    "novels", "weibull", "language_accuracy", "language_accuracy_summary", "time_slot_accuracy",
    "time_slot_accuracy_summary", "language_kl", "f1_by_slot",
)  # fmt: skip
"""The CSV tables of rule across_languages, in the order the rule names them."""
FEATURES: tuple[str, ...] = ("f1", "f3")
"""The features of the recognition and KL tables."""
ACCURACY_COLUMNS = ("seed", "train", "test", "accuracy", "majority")


@dataclass(frozen=True)
class Collection:
    """One TEI collection: its folder and its language (None: the collection's own)."""

    path: str
    language: str | None = None

    @property
    def name(self) -> str:
        return Path(self.path).name


@dataclass(frozen=True)
class AcrossLanguagesSettings:
    """The ``across_languages`` block: collections, dialogue dash, seeds, test fraction."""

    collections: tuple[Collection, ...]
    dialogue_dash: str = "none"
    seeds: tuple[int, ...] = (0, 1, 2, 3, 4)
    test_fraction: float = 0.2

    @classmethod
    def from_config(cls, block: Mapping[str, Any]) -> AcrossLanguagesSettings:
        """From the (validated, type-coerced) config block; a collection without a ``path``
        raises :class:`InputError` naming its position."""
        collections = []
        for i, entry in enumerate(block.get("collections") or []):
            if not isinstance(entry, Mapping) or not entry.get("path"):
                raise InputError(f"config across_languages.collections[{i}]: expected {{path: <folder>, language: ...}}")
            collections.append(Collection(str(entry["path"]), str(entry["language"]) if entry.get("language") else None))
        return cls(tuple(collections), str(block.get("dialogue_dash") or "none"),
                   tuple(int(s) for s in block.get("seeds", cls.seeds)), float(block.get("test_fraction", 0.2)))


def tei_settings(collection: Collection) -> Any:
    """The TEI source's settings of a collection (:class:`punctstyle.sources.tei.TeiSettings`:
    ``level1/*.xml`` in the ELTeC layout, else every ``*.xml``; the folder's metadata table)."""
    from punctstyle.sources.tei import TeiSettings

    try:
        return TeiSettings.from_config({"tei": {"path": collection.path}, "language": collection.language})
    except InputError as exc:
        raise InputError(str(exc).replace("config tei.path", "config across_languages.collections")) from None


def collection_files(collection: Collection) -> list[str]:
    """The files a collection's tables read: its TEI files and its metadata table (the rule's inputs)."""
    settings = tei_settings(collection)
    files = sorted(str(p) for p in Path(settings.path).glob(settings.pattern) if p.is_file())
    return files + ([settings.metadata] if settings.metadata else [])


def read_collection(collection: Collection, dialogue_dash: str = "none",
                    log: Callable[[str], None] = lambda message: None) -> tuple[pd.DataFrame, list[dict[str, Any]]]:
    """One row a novel read (module docstring's ``novels`` columns) and, aligned with the rows,
    each novel's features; a refused file is logged and left out."""
    from punctstyle.descriptive.gap_weibull import fit_discrete_weibull, word_gaps
    from punctstyle.book.steps import clean_and_extract
    from punctstyle.features import compute_features
    from punctstyle.sources.tei import corpus_language, tei_metadata
    from punctstyle.text.language_rules import ExtractionLanguage

    settings = tei_settings(collection)
    language = corpus_language(settings)
    frame, left_out = tei_metadata(settings, with_text=True)  # each file parsed once
    for file, reason in left_out:
        log(f"{Path(settings.path) / file}: {reason}; left out")
    extractor = ExtractionLanguage.of(language, dialogue_dash).extractor()  # English, no dash: the shipped rules
    rows, features = [], []
    for row in frame.itertuples(index=False):
        sequence, _ = clean_and_extract(row.text, extractor)
        gaps = word_gaps(sequence.gaps)
        fit = fit_discrete_weibull(gaps)
        features.append(compute_features(sequence.marks, sequence.gaps))
        rows.append({"collection": collection.name, "file": Path(row.file).name, "language": language,
                     "author": row.author, "year": row.year, "time_slot": row.time_slot, "gender": row.gender,
                     "marks": len(sequence), "words": sequence.n_words,
                     "mean_gap": float(gaps.mean()) if gaps.size else np.nan, "p": fit.p, "beta": fit.beta,
                     "ks": fit.ks})
    log(f"{collection.path}: {len(rows)} novels read, language {language}")
    return pd.DataFrame(rows), features


def _concat(frames: Sequence[pd.DataFrame], columns: Sequence[str]) -> pd.DataFrame:
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=list(columns))


def _summary(table: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    if table.empty:
        measures = [f"{m}_{s}" for m in ("accuracy", "majority", "test") for s in ("mean", "sd")]
        return pd.DataFrame(columns=[*keys, "seeds", *measures])
    return accuracy_summary(table, keys)


def across_language_tables(novels: pd.DataFrame, features: Sequence[Mapping[str, np.ndarray]],
                           seeds: Sequence[int], test_fraction: float) -> dict[str, pd.DataFrame]:
    """Every table but ``novels`` (module docstring) from the novels and their features (aligned)."""
    from punctstyle.marks import MARK_NAMES

    tables = {"weibull": weibull_by_language(novels)}
    accuracy, slots, kl = [], [], []
    languages = novels["language"]
    one_slot = single_slot_authors(novels).to_numpy()
    for feature in FEATURES:
        X = np.stack([f[feature].ravel() for f in features])
        if languages.nunique() > 1:
            accuracy.append(grouped_accuracy(X, languages, languages + "/" + novels["author"], seeds, test_fraction)
                            .assign(feature=feature))
        kl.append(language_kl(X, languages).assign(feature=feature))
        for language in sorted(languages.unique()):
            mask = one_slot & (languages == language).to_numpy()
            part = novels[mask]
            if part["time_slot"].nunique() < 2:
                continue
            slots.append(grouped_accuracy(X[mask], part["time_slot"], part["author"], seeds, test_fraction)
                         .assign(feature=feature, language=language, classes=part["time_slot"].nunique(),
                                 novels=int(mask.sum())))
    tables["language_accuracy"] = _concat(accuracy, [*ACCURACY_COLUMNS, "feature"])
    tables["language_accuracy_summary"] = _summary(tables["language_accuracy"], ["feature"])
    tables["time_slot_accuracy"] = _concat(slots, [*ACCURACY_COLUMNS, "feature", "language", "classes", "novels"])
    tables["time_slot_accuracy_summary"] = _summary(tables["time_slot_accuracy"],
                                                    ["feature", "language", "classes", "novels"])
    tables["language_kl"] = pd.concat(kl, ignore_index=True)
    f1 = pd.DataFrame(np.stack([f["f1"].ravel() for f in features]), columns=list(MARK_NAMES))
    by_slot = f1.assign(language=languages, time_slot=novels["time_slot"]).groupby(
        ["language", "time_slot"]).agg(["mean"]).droplevel(1, axis=1).reset_index()
    by_slot.insert(2, "novels", novels.groupby(["language", "time_slot"]).size().to_numpy())
    tables["f1_by_slot"] = by_slot
    return tables


def read_collections(settings: AcrossLanguagesSettings,
                     log: Callable[[str], None] = lambda message: None) -> dict[str, pd.DataFrame]:
    """Every table of :data:`TABLES` over the configured collections; no novel read raises
    :class:`InputError`."""
    frames, features = [], []
    for collection in settings.collections:
        frame, found = read_collection(collection, settings.dialogue_dash, log)
        frames.append(frame)
        features.extend(found)
    novels = _concat([f for f in frames if not f.empty], ["collection", "file", "language"])
    if novels.empty:
        raise InputError("config across_languages.collections: no novel read in "
                         + ", ".join(c.path for c in settings.collections))
    return {"novels": novels, **across_language_tables(novels, features, settings.seeds, settings.test_fraction)}


def write_tables(tables: Mapping[str, pd.DataFrame], outputs: Mapping[str, Any]) -> None:
    """Each table as CSV (6 significant digits) at ``outputs[name]``, written atomically."""
    for name in TABLES:
        with atomic_open(outputs[name], "w", newline="") as handle:
            tables[name].to_csv(handle, index=False, float_format="%.6g")


def across_languages_job(block: Mapping[str, Any], outputs: Mapping[str, Any], log: Any) -> dict[str, pd.DataFrame]:
    """Rule across_languages: the ``across_languages`` config block -> the tables at ``outputs``."""
    tables = read_collections(AcrossLanguagesSettings.from_config(block), log.info)
    write_tables(tables, outputs)
    return tables
