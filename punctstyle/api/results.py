"""A finished run or an attribution bundle, opened read-only: :func:`open_results`.

A **run** is a workflow's ``outdir`` (``corpus/f1.parquet`` ...; its bundle, when built, in
``models/attribution/``); a **bundle** is an attribution bundle folder (``manifest.json``,
``mlp.pt``, ``signatures.parquet``, ``threshold.json``). Every file read is a fixed name under
the opened folder, or ``sequences/<book id>.parquet`` of a book of the corpus table: nothing
outside the folder is read, whatever a caller asks for.
"""

from __future__ import annotations

import json
import os
import re
import warnings
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from punctstyle.api.attribution import Attribution, attribute_sequence
from punctstyle.api.language import (bundle_language, document_extracted, document_extraction, document_sequence,
                                      folder_language)
from punctstyle.api.text import TEXT_NAME, Document, checked_document
from punctstyle.io import InputError
from punctstyle.marks import FEATURES, feature_column_names
from punctstyle.rule_names import TASKS

BUNDLE_IN_RUN = Path("models") / "attribution"
CORPUS_TABLE = Path("corpus") / "{feature}.parquet"
RECOGNITION = Path("analysis") / "recognition" / "{task}_{kind}.csv"
RECOGNITION_KINDS = ("summary", "results")
SUMMARY = Path("corpus") / "summary.json"
MAPS = Path("analysis") / "maps"
MAP_FIGURES_FOLDER = Path("figures") / "maps"
MAP_TABLE_SUFFIXES = {"coordinates": "_coordinates.csv", "edges": "_consensus_edges.csv", "summary": "_summary.json"}
MAP_FIGURE_NAMES = ("pca", "mds_delta", "mds_kl", "dendrogram")
"""The maps of rule corpus_map (:data:`punctstyle.plan.maps.MAP_FIGURES`), in the order they are shown."""
FAMILY_NAME = re.compile(r"^[A-Za-z0-9_+\-]+$")
"""A map family as the workflow names it (``f3``, ``all``, ``words``, ``all+words``): one path part."""


def read_table(path: Path) -> pd.DataFrame:
    """A Parquet or CSV table of a run; an unreadable one (truncated, not a table) raises
    :class:`InputError` naming the file."""
    import pyarrow as pa

    try:
        return pd.read_parquet(path) if path.suffix == ".parquet" else pd.read_csv(path)
    except (OSError, ValueError, pa.ArrowException, pd.errors.ParserError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise InputError(f"{path}: not a readable table ({first})") from None


def read_json(path: Path) -> dict[str, Any]:
    """A JSON object of a run; an unreadable one raises :class:`InputError` naming the file."""
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise InputError(f"{path}: not a readable JSON file ({exc})") from None
    if not isinstance(value, dict):
        raise InputError(f"{path}: not a JSON object")
    return value


def is_bundle(folder: Path) -> bool:
    return (folder / "manifest.json").is_file() and (folder / "mlp.pt").is_file()


def is_run(folder: Path) -> bool:
    return (folder / "corpus" / "f1.parquet").is_file()


def open_results(path: Any) -> Results:
    """Open a finished run (its ``outdir``) or an attribution bundle folder.

    Raises :class:`punctstyle.io.InputError` (one line naming the path) when the path is neither.
    """
    folder = Path(os.fspath(path)).resolve()
    if not folder.is_dir():
        raise InputError(f"{path}: no such folder (open a finished run's outdir or an attribution bundle)")
    if is_run(folder):
        return Results(folder, "run")
    if is_bundle(folder):
        return Results(folder, "bundle")
    raise InputError(
        f"{path}: neither a finished run (no corpus/f1.parquet) nor an attribution bundle (no manifest.json and mlp.pt)"
    )


class Results:
    """What a run or a bundle holds, as pandas objects; texts attributed by its bundle.

    ``kind``: ``"run"`` or ``"bundle"``. A bundle holds the authors' signatures and the model,
    not the corpus tables: asking it for a table raises :class:`InputError`.
    """

    def __init__(self, folder: Path, kind: str) -> None:
        self.folder = folder
        self.kind = kind

    def __repr__(self) -> str:
        return f"Results({str(self.folder)!r}, kind={self.kind!r})"

    # ----------------------------------------------------------------- files

    def _run_file(self, relative: Path, what: str) -> Path:
        if self.kind != "run":
            raise InputError(f"{self.folder}: an attribution bundle holds no {what} (open a finished run)")
        path = self.folder / relative
        if not path.is_file():
            raise InputError(f"{path}: no such file in this run ({what} not made)")
        return self.inside(path)

    def inside(self, path: Path) -> Path:
        """``path`` when it resolves inside the opened folder; a link pointing out of it is
        refused (:class:`InputError`): nothing outside the folder is read."""
        if not path.resolve().is_relative_to(self.folder):
            raise InputError(f"{path.relative_to(self.folder)}: a link out of the opened folder, not read")
        return path

    @property
    def bundle_folder(self) -> Path:
        return self.folder if self.kind == "bundle" else self.folder / BUNDLE_IN_RUN

    @property
    def has_bundle(self) -> bool:
        return is_bundle(self.bundle_folder)

    @cached_property
    def bundle(self) -> Any:
        """The attribution bundle (:class:`punctstyle.attribution.bundle.AttributionBundle`;
        loading it imports torch). A bundle file linked out of the opened folder is refused."""
        from punctstyle.attribution.bundle import BUNDLE_FILES, load_attribution_bundle

        for name in BUNDLE_FILES.values():
            if (self.bundle_folder / name).exists():
                self.inside(self.bundle_folder / name)
        return load_attribution_bundle(self.bundle_folder)

    # ----------------------------------------------------------------- tables

    def corpus(self, feature: str = "f1") -> pd.DataFrame:
        """The corpus table of ``feature`` (one row per book: metadata, then the feature columns)."""
        if feature not in FEATURES:
            raise InputError(f"{feature}: not a feature (one of {', '.join(FEATURES)})")
        return self._corpus(feature).copy()

    def _corpus(self, feature: str) -> pd.DataFrame:
        cache = self.__dict__.setdefault("_tables", {})
        if feature not in cache:
            cache[feature] = read_table(self._run_file(Path(str(CORPUS_TABLE).format(feature=feature)), "corpus table"))
        return cache[feature]

    def documents(self) -> pd.DataFrame:
        """One row per book: ``book_id``, ``title``, ``author``, ``genre``, ``n_marks``, ``n_words``."""
        table = self._corpus("f1")
        columns = [c for c in ("book_id", "title", "author", "genre", "n_marks", "n_words") if c in table]
        return table[columns].copy()

    def authors(self) -> pd.DataFrame:
        """One row per author: ``author``, ``n_books`` (from the corpus, else from the bundle)."""
        if self.kind == "run":
            counts = self._corpus("f1").groupby("author").size()
            return counts.rename("n_books").reset_index().sort_values("author", ignore_index=True)
        return self.signatures()[["author", "n_books"]].copy()

    def signatures(self) -> pd.DataFrame:
        """One row per author: ``author``, ``n_books`` and the mean of each feature over the
        author's books (the bundle's ``signatures.parquet``; a run without a bundle: the same
        class means computed from the corpus tables)."""
        return self._signatures.copy()

    @cached_property
    def _signatures(self) -> pd.DataFrame:
        if self.has_bundle:
            from punctstyle.attribution.bundle import read_signatures

            frame = read_signatures(self.inside(self.bundle_folder / "signatures.parquet"))
            return frame.reset_index() if "author" not in frame.columns else frame
        tables = [self._corpus(f) for f in ("f1", "f3")]
        merged = tables[0][["author"] + feature_column_names("f1")].join(tables[1][feature_column_names("f3")])
        means = merged.groupby("author").mean()
        means.insert(0, "n_books", merged.groupby("author").size())
        return means.reset_index()

    def fingerprint(self, author: str) -> dict[str, np.ndarray]:
        """An author's mean f1 (10) and f3 (100) (:meth:`signatures`)."""
        table = self.signatures()
        rows = table[table["author"] == author]
        if rows.empty:
            raise InputError(f"{author}: no such author in {self.folder}")
        return {f: rows[feature_column_names(f)].to_numpy(np.float64)[0] for f in ("f1", "f3")}

    def sequence(self, book_id: int) -> Any:
        """The punctuation sequence of a book of the corpus (``sequences/<id>.parquet``)."""
        from punctstyle.book.sequence_file import read_sequence

        known = set(int(b) for b in self._corpus("f1")["book_id"])
        try:
            book = int(book_id)
        except (TypeError, ValueError):
            raise InputError(f"{book_id!r}: not a book id") from None
        if book not in known:
            raise InputError(f"{book}: no such book in the corpus of {self.folder}")
        return read_sequence(self._run_file(Path("sequences") / f"{book}.parquet", "sequence file"))[0]

    def recognition(self, task: str = "author", kind: str = "summary") -> pd.DataFrame:
        """The recognition results (Tables 2-4): ``kind="summary"`` (mean and sd over seeds per
        method, class count and feature set) or ``"results"`` (one row per seed)."""
        if task not in TASKS or kind not in RECOGNITION_KINDS:
            raise InputError(f"{task} {kind}: no such recognition table (task {', '.join(TASKS)}; kind summary or results)")
        return read_table(self._run_file(Path(str(RECOGNITION).format(task=task, kind=kind)), "recognition table"))

    def recognition_tasks(self) -> list[str]:
        """The tasks with a recognition summary in this run."""
        if self.kind != "run":
            return []
        return [t for t in TASKS if (self.folder / str(RECOGNITION).format(task=t, kind="summary")).is_file()]

    def map_families(self) -> list[str]:
        """The families with maps in this run (``analysis/maps/<family>_coordinates.csv``); none
        in a bundle or a run made with ``maps.enabled: false``."""
        folder = self.folder / MAPS
        if self.kind != "run" or not folder.is_dir():
            return []
        suffix = MAP_TABLE_SUFFIXES["coordinates"]
        names = (p.name[: -len(suffix)] for p in folder.iterdir() if p.name.endswith(suffix) and p.is_file())
        return sorted(n for n in names if FAMILY_NAME.match(n))

    def maps(self, family: str) -> CorpusMap:
        """The maps of the corpus for one family (rule corpus_map): the coordinates (one row per
        book: ``book_id``, ``author``, ``pca1``, ``pca2``, ``mds_delta1``, ``mds_delta2`` and, for a
        distribution, ``mds_kl1``, ``mds_kl2``), the consensus tree's edges (``Source``,
        ``Target``, ``Weight``: Gephi's columns), the summary and the PNG figures present. Only fixed names under
        ``analysis/maps`` and ``figures/maps`` of this run are read."""
        families = self.map_families()
        if family not in families:
            raise InputError(f"{family}: no maps of this family in {self.folder} "
                             f"({'families: ' + ', '.join(families) if families else 'no maps in this run'})")
        tables = {key: self.folder / MAPS / f"{family}{suffix}" for key, suffix in MAP_TABLE_SUFFIXES.items()}
        edges = read_table(self.inside(tables["edges"])) if tables["edges"].is_file() else pd.DataFrame()
        summary = read_json(self.inside(tables["summary"])) if tables["summary"].is_file() else {}
        figures = {name: self.folder / MAP_FIGURES_FOLDER / f"{family}_{name}.png" for name in MAP_FIGURE_NAMES}
        return CorpusMap(family, read_table(self.inside(tables["coordinates"])), edges, summary,
                         {name: self.inside(path) for name, path in figures.items() if path.is_file()})

    def summary(self) -> dict[str, Any]:
        """The corpus summary (``corpus/summary.json``: books and authors kept, exclusions)."""
        return read_json(self._run_file(SUMMARY, "corpus summary"))

    # ----------------------------------------------------------------- one text

    def attribute(self, text: str, name: str = TEXT_NAME, method: str = "auto",
                  language: str | None = None) -> Attribution:
        """Rank the bundle's authors for ``text`` (refused: empty, mark-less, HTML, binary), with
        every method's answer and the one of ``method`` (``punctstyle attribute --method``:
        :data:`punctstyle.api.attribution.METHOD_CHOICES`, ``auto`` the trusted one). ``text``: a
        plain text or a TEI file's content (its body is read); extracted with the bundle's
        language, or ``language`` (``--language``); a TEI header in another language than the
        bundle's warns (:class:`UserWarning`, the CLI's line)."""
        attribution, warning = attribute_document(checked_document(text, name), self.bundle, name, method, language)
        warn_language(warning)
        return attribution

    def verify(self, text: str, author: str, name: str = TEXT_NAME, language: str | None = None) -> Any:
        """Is ``text`` by ``author``? General Imposters score and decision against the bundle's
        verification reference (:func:`punctstyle.attribution.verify_command.verify_text`): a
        :class:`~punctstyle.attribution.verify_command.Verification` (``score``, ``decision``,
        the band ``p1``..``p2``, ``warning``). Refused as ``punctstyle verify`` refuses;
        ``text`` and ``language`` as in :meth:`attribute`."""
        from punctstyle.attribution.verification_run import FILES

        document = checked_document(text, name)
        for file in (*FILES.values(), "manifest.json"):
            if (self.bundle_folder / file).exists():
                self.inside(self.bundle_folder / file)
        result, warning = verify_document(document, checked_author(author), self.bundle_folder, name, language)
        warn_language(warning)
        return result

    def rolling(self, text: str, window: int | None = None, step: int | None = None, name: str = TEXT_NAME,
                method: str | None = None, language: str | None = None) -> Any:
        """Rolling attribution of ``text`` (:func:`rolling_sequence`, ``method`` as
        ``punctstyle rolling --method``): a :class:`~punctstyle.attribution.rolling.RollingResult`;
        ``text`` and ``language`` as in :meth:`attribute`."""
        document = checked_document(text, name)
        sequence, stream, extractor, warning = document_extracted(document, bundle_language(self.bundle), language,
                                                                  name, purpose="roll over")
        warn_language(warning)
        return rolling_sequence(name, sequence, self.bundle, window, step, method=method, stream=stream,
                                text=document.text, extractor=extractor)


def warn_language(warning: str | None) -> None:
    """The language warning of the API (:class:`UserWarning`; the CLI prints the same line)."""
    if warning:
        warnings.warn(warning, UserWarning, stacklevel=3)


def attribute_document(document: Document, bundle: Any, name: str, method: str = "auto",
                       language: str | None = None) -> tuple[Attribution, str | None]:
    """``(attribution, language warning)`` of a document by a loaded bundle, extracted with the
    bundle's language or ``language`` (:mod:`punctstyle.api.language`)."""
    sequence, stream, warning = document_sequence(document, bundle_language(bundle), language, name)
    return attribute_sequence(name, sequence, bundle, stream, method), warning


def verify_document(document: Document, author: str, folder: Any, name: str,
                    language: str | None = None) -> tuple[Any, str | None]:
    """``(verification, language warning)`` of a document against the verification files of a
    bundle ``folder``, extracted with the language its ``manifest.json`` records (none: English)
    or ``language``."""
    from punctstyle.attribution.verify_command import verify_text

    extractor, warning = document_extraction(document, folder_language(folder), language, name)
    return verify_text(name, document.text, author, folder, extractor), warning


@dataclass(frozen=True)
class CorpusMap:
    """One family's maps of a run (:meth:`Results.maps`); ``figures``: name -> PNG path."""

    family: str
    coordinates: pd.DataFrame
    edges: pd.DataFrame
    summary: dict[str, Any] = field(default_factory=dict)
    figures: dict[str, Path] = field(default_factory=dict)


WINDOW_HINT = "lower --window"
"""The CLI's and the API's hint on a text shorter than one window (the app gives its own)."""


def rolling_sequence(name: str, sequence: Any, bundle: Any, window: int | None = None, step: int | None = None,
                     hint: str = WINDOW_HINT, method: str | None = None, stream: Any = None,
                     text: str | None = None, extractor: Any = None) -> Any:
    """Slices of ``window`` marks every ``step`` marks (defaults: the bundle's ``min_marks``, at
    least 800 marks, :func:`punctstyle.attribution.rolling.rolling_window`, and a quarter window; :func:`punctstyle.attribution.rolling.roll_with_bundle`) scored by ``method``
    (``punctuation``, ``words`` or ``both``; None: the bundle's default,
    :func:`punctstyle.attribution.rolling.rolling_default`), and the change points; ``stream``: the
    text's words (the word methods need them); ``text``: the input itself, for the changes and
    segments in its characters (:func:`punctstyle.attribution.rolling_chars.mark_ends`, replaying
    ``extractor``, the one that extracted ``sequence``; default the paper's English rules). A text
    shorter than one window, or a word method the bundle lacks, raises :class:`InputError`
    (``punctstyle rolling``'s message)."""
    from punctstyle.attribution.bundle_words import ROLLING_CHOICES
    from punctstyle.attribution.rolling import roll_with_bundle, rolling_window

    window = rolling_window(bundle.threshold) if window is None else positive_marks("window", window)
    step = None if step is None else positive_marks("step", step)
    if method is not None and method not in ROLLING_CHOICES:
        raise InputError(f"{name}: unknown rolling method {method!r} (expected one of {', '.join(ROLLING_CHOICES)})")
    if method in ("words", "both") and (bundle.words is None or stream is None):
        raise InputError(f"{name}: method {method} needs a bundle with word methods ({bundle.directory} has none; "
                         "rebuild it with attribution.words > 0)")
    if len(sequence) < window:
        raise InputError(f"{name}: {len(sequence)} marks, shorter than one window of {window} ({hint})")
    result = roll_with_bundle(bundle, sequence.marks, sequence.gaps, window, step, method, stream)
    if text is None:
        return result
    from dataclasses import replace

    from punctstyle.attribution.rolling_chars import mark_ends
    from punctstyle.text.chunk_cache import ChunkCachedExtractor

    ends = mark_ends(text, sequence.marks, extractor or ChunkCachedExtractor())
    return result if ends is None else replace(result, mark_ends=ends, n_chars=len(text))


def positive_marks(argument: str, value: Any) -> int:
    """``window`` or ``step``: a whole number of marks, at least 1 (0 and negatives refused,
    not replaced by the default)."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise TypeError(f"{argument}: expected a whole number of marks (int) or None, got {type(value).__name__}")
    if value < 1:
        raise InputError(f"{argument}={value}: expected a positive number of marks")
    return int(value)


def checked_author(author: Any) -> str:
    """``author`` when it is a string (else :class:`TypeError` naming the argument)."""
    if not isinstance(author, str):
        raise TypeError(f"author: expected a str (an author name as the bundle writes it), got {type(author).__name__}")
    return author


def model_results(model: Any) -> Results:
    return model if isinstance(model, Results) else open_results(model)


def verify(text: str, author: str, model: Any, name: str = TEXT_NAME, language: str | None = None) -> Any:
    """:meth:`Results.verify` on ``model`` (a :class:`Results`, a run's outdir, or a bundle folder
    holding the verification files; such a folder needs no MLP)."""
    if isinstance(model, Results):
        return model.verify(text, author, name, language)
    document = checked_document(text, name)
    folder = Path(os.fspath(model))  # a bundle folder is handed over as given: its name is printed as given
    result, warning = verify_document(document, checked_author(author),
                                      folder / BUNDLE_IN_RUN if is_run(folder) else model, name, language)
    warn_language(warning)
    return result


def rolling(text: str, model: Any, window: int | None = None, step: int | None = None, name: str = TEXT_NAME,
            method: str | None = None, language: str | None = None) -> Any:
    """:meth:`Results.rolling` on ``model`` (a :class:`Results`, a run's outdir or a bundle folder)."""
    return model_results(model).rolling(text, window, step, name, method, language)


def attribute(text: str, model: Any, name: str = TEXT_NAME, method: str = "auto",
              language: str | None = None) -> Attribution:
    """Rank the authors of ``model`` (a bundle folder, a run's outdir, or :class:`Results`) for ``text``."""
    return model_results(model).attribute(text, name, method, language)

