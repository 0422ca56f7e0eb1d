"""Attribution of one text by a bundle: the result object and its two renderings (the CLI's
``--json`` record and its aligned table).

:func:`attribute_sequence` is what ``punctstyle attribute``, :meth:`punctstyle.api.Results.attribute`
and the app call; the bundle (torch) is imported only when a bundle is loaded.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from punctstyle.features import compute_features


@dataclass(frozen=True)
class Attribution:
    """Who punctuates like this text: every author of the bundle ranked, and the verdict.

    ``ranking``: one row per author (``rank``, ``author``, ``probability``, ``kl_<feature>``),
    :meth:`punctstyle.attribution.bundle.AttributionBundle.rank`; ``warning``: why the text is too
    short to attribute (None: long enough); ``disagreement``: None when the MLP's first author is
    the KL-nearest one, else a :class:`punctstyle.attribution.attribute.Disagreement` (which method
    the bundle's measured accuracy per length trusts at this length).
    """

    name: str
    sequence: Any
    features: dict[str, Any]
    ranking: pd.DataFrame
    warning: str | None
    disagreement: Any
    bundle: Any

    @property
    def n_marks(self) -> int:
        return len(self.sequence)

    @property
    def first_author(self) -> str:
        return str(self.ranking["author"].iloc[0])

    @property
    def trusted_method(self) -> str | None:
        """``"mlp"`` or ``"kl"`` when the methods disagree and the length curve prefers one."""
        return None if self.disagreement is None else self.disagreement.trusted

    def shown(self, top: int) -> pd.DataFrame:
        """The first ``top`` ranks plus each KL-nearest author (:func:`shown_authors`)."""
        from punctstyle.attribution.attribute import shown_authors

        return shown_authors(self.ranking, top)

    def as_json(self, top: int = 5) -> dict[str, Any]:
        return attribution_json(self.name, self.sequence, self.shown(top), self.bundle, self)

    def as_text(self, top: int = 5) -> str:
        return attribution_table(self.name, self.sequence, self.shown(top), self.bundle, self)


def attribute_sequence(name: str, sequence: Any, bundle: Any) -> Attribution:
    """Rank every author of ``bundle`` for a text's (non-empty) punctuation sequence."""
    values = compute_features(sequence.marks, sequence.gaps)
    ranking = bundle.rank(values, top=None)
    return Attribution(
        name=name,
        sequence=sequence,
        features=values,
        ranking=ranking,
        warning=bundle.too_short(len(sequence)),
        disagreement=bundle.disagreement(ranking, len(sequence)),
        bundle=bundle,
    )


def finite(value: Any) -> float | None:
    value = float(value)
    return value if math.isfinite(value) else None


def attribution_json(name: str, sequence: Any, ranking: pd.DataFrame, bundle: Any, verdict: Any) -> dict[str, Any]:
    """The ``--json`` output of ``attribute``.

    ``n_marks``: marks found; ``min_marks``: marks needed (None: the bundle could not
    estimate it); ``too_short`` and ``warning`` (None when long enough); ``disagreement``:
    None when the MLP's first author is the KL-nearest one, else both authors, the measured
    accuracies at the nearest measured length and the ``trusted`` method.
    """
    kl_columns = [c for c in ranking.columns if c.startswith("kl_")]
    authors = []
    for row in ranking.itertuples(index=False):
        values = row._asdict()
        entry = {"rank": int(values["rank"]), "author": str(values["author"])}
        entry["probability"] = finite(values["probability"])
        entry.update({column: finite(values[column]) for column in kl_columns})
        authors.append(entry)
    return {
        "file": name,
        "n_marks": len(sequence),
        "n_words": int(sequence.n_words),
        "min_marks": bundle.min_marks,
        "too_short": verdict.warning is not None,
        "warning": verdict.warning,
        "disagreement": None if verdict.disagreement is None else verdict.disagreement.as_json(),
        "model": bundle.directory,
        "feature_set": list(bundle.model.feature_set),
        "kl_features": list(bundle.kl_features),
        "n_authors": int(len(bundle.model.classes)),
        "authors": authors,
    }


def cell(value: Any, digits: int) -> str:
    value = finite(value)
    return "n/a" if value is None else f"{value:.{digits}f}"


def aligned(headers: list[str], rows: list[list[str]]) -> list[str]:
    """Header, rule and rows: the first column right-aligned, the second left, the rest right."""
    widths = [max(len(h), *(len(row[i]) for row in rows)) if rows else len(h) for i, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        parts = [cells[0].rjust(widths[0]), cells[1].ljust(widths[1])]
        parts += [c.rjust(w) for c, w in zip(cells[2:], widths[2:], strict=True)]
        return "  ".join(parts).rstrip()

    return [line(headers), line(["-" * w for w in widths])] + [line(row) for row in rows]


def table_legend(bundle: Any) -> str:
    return (
        "P(author): MLP probability on features "
        + "+".join(bundle.model.feature_set)
        + "; KL: divergence from the author's signature to the text (smaller is closer)"
    )


def attribution_table(name: str, sequence: Any, ranking: pd.DataFrame, bundle: Any, verdict: Any) -> str:
    """The text output of ``attribute``: a title, the warning when the text is too short, the
    aligned table (rank, author, probability, KL divergences), the legend, and which method
    to trust when the MLP and KL disagree."""
    kl_columns = [c for c in ranking.columns if c.startswith("kl_")]
    headers = ["rank", "author", "P(author)"] + [f"KL {c[3:]}" for c in kl_columns]
    rows = [
        [str(int(r["rank"])), str(r["author"]), cell(r["probability"], 3)]
        + [cell(r[c], 4) for c in kl_columns]
        for _, r in ranking.iterrows()
    ]
    title = (
        f"{name}: {len(sequence)} marks, {sequence.n_words} words; "
        f"{len(bundle.model.classes)} authors in the model ({bundle.directory})"
    )
    lines = [title]
    if verdict.warning:
        lines.append(f"WARNING: {verdict.warning}")
    lines += [*aligned(headers, rows), table_legend(bundle)]
    if verdict.disagreement is not None:
        lines.append(f"Note: {verdict.disagreement.message()}")
    return "\n".join(lines) + "\n"
