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
from punctstyle.io import InputError


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
    answers: tuple[Any, ...] = ()
    method: str = "auto"

    @property
    def trusted(self) -> Any:
        """The answer of the method with the highest held-out accuracy at the text's length
        (:func:`punctstyle.attribution.attribute.trusted_answer`; None without measured curves)."""
        from punctstyle.attribution.attribute import trusted_answer

        return trusted_answer(list(self.answers))

    @property
    def answer(self) -> Any:
        """The answer given: that of ``method`` (:data:`METHOD_CHOICES`), or the trusted one for
        ``auto`` (the MLP's when no method has a curve)."""
        from punctstyle.attribution.attribute import trusted_answer

        wanted = resolve_method(self.method, self.bundle)
        if wanted is None:
            return self.trusted or (self.answers[0] if self.answers else None)
        if wanted == "punctuation":
            punctuation = [a for a in self.answers if a.family == "punctuation"]
            return trusted_answer(punctuation) or (punctuation[0] if punctuation else None)
        for answer in self.answers:
            if answer.method == wanted:
                return answer
        raise InputError(f"{self.name}: method {self.method!r} is not in this bundle "
                         f"(it has {', '.join(a.method for a in self.answers)})")

    @property
    def near_chance(self) -> str | None:
        """:func:`punctstyle.attribution.attribute.near_chance_note` of the answer given."""
        from punctstyle.attribution.attribute import near_chance_note

        answer = self.answer
        if answer is None:
            return None
        top = answer.scores[0] if answer.kind == "probability" and answer.scores else None
        return near_chance_note(answer, len(self.bundle.model.classes), top)

    @property
    def n_marks(self) -> int:
        return len(self.sequence)

    @property
    def first_author(self) -> str:
        return str(self.ranking["author"].iloc[0])

    def shown(self, top: int) -> pd.DataFrame:
        """The first ``top`` ranks plus each KL-nearest author (:func:`shown_authors`)."""
        from punctstyle.attribution.attribute import shown_authors

        return shown_authors(self.ranking, top)

    def as_json(self, top: int = 5) -> dict[str, Any]:
        return attribution_json(self.name, self.sequence, self.shown(top), self.bundle, self)

    def as_text(self, top: int = 5) -> str:
        return attribution_table(self.name, self.sequence, self.shown(top), self.bundle, self)


METHOD_CHOICES: tuple[str, ...] = ("auto", "punctuation", "words", "both", "mlp", "kl")
"""``--method`` of ``attribute``: ``auto`` (the trusted method), ``punctuation`` (the more accurate
of the MLP and KL at the text's length), Delta on words, Delta on words with f1..f6, the MLP, KL
(the bundle's first KL feature)."""


def resolve_method(method: str, bundle: Any) -> str | None:
    """The bundle's method name of a :data:`METHOD_CHOICES` entry (None for ``auto``); an unknown
    name raises :class:`InputError`."""
    names = {"auto": None, "punctuation": "punctuation", "mlp": "mlp", "words": "delta_words", "both": "delta_both"}
    if method == "kl":
        return f"kl_{bundle.kl_features[0]}"
    if method not in names:
        raise InputError(f"unknown method {method!r}: expected one of {', '.join(METHOD_CHOICES)}")
    return names[method]


def attribute_sequence(name: str, sequence: Any, bundle: Any, stream: Sequence[str] | None = None,
                       method: str = "auto") -> Attribution:
    """Rank every author of ``bundle`` for a text's (non-empty) punctuation sequence, and every
    method's answer (the word methods on the text's word ``stream``, when given and in the
    bundle); ``method``: the answer given (:data:`METHOD_CHOICES`)."""
    resolve_method(method, bundle)
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
        answers=tuple(bundle.answers(ranking, values, stream, len(sequence))),
        method=method,
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
        **answers_json(verdict),
    }


def answers_json(verdict: Any) -> dict[str, Any]:
    """``methods`` (each method's first authors, whether or not they agree, and its held-out
    accuracy at the text's length), ``trusted`` (the most accurate method there), ``answer`` (the
    method asked for, or the trusted one) and ``near_chance`` (None, or why the answer is near chance)."""
    answers = list(getattr(verdict, "answers", ()))
    if not answers:
        return {}
    trusted, answer = verdict.trusted, verdict.answer
    return {
        "methods": [a.as_json() for a in answers],
        "trusted": None if trusted is None else {"method": trusted.method, "author": trusted.authors[0],
                                                 "accuracy": trusted.accuracy, "right": trusted.right,
                                                 "n_test": trusted.n_test, "measured_at": trusted.measured_at},
        "answer": {"method": answer.method, "family": answer.family, "author": answer.authors[0]},
        "near_chance": verdict.near_chance,
    }


def answers_lines(verdict: Any) -> list[str]:
    """The table's block of every method: first authors and held-out accuracy at the text's
    length, the trusted method with the counts it rests on, the answer, the near-chance note."""
    answers = list(getattr(verdict, "answers", ()))
    if not answers:
        return []
    lines = ["Every method (first authors; held-out accuracy at the measured length nearest to the text's):"]
    width = max(len(a.method) for a in answers)
    for a in answers:
        measured = "no measured curve" if a.accuracy is None else (
            f"{a.accuracy:.3f} at {a.measured_at} marks"
            + ("" if a.right is None else f" ({a.right} of {a.n_test} held-out books right)"))
        lines.append(f"  {a.method.ljust(width)}  {a.family:<11}  {', '.join(a.authors)}  [{measured}]")
    trusted, answer = verdict.trusted, verdict.answer
    if trusted is not None:
        others = [a for a in answers if a is not trusted and a.right is not None]
        against = "; ".join(f"{a.method} {a.right}" for a in others)
        lines.append(f"Trusted: {trusted.method} ({trusted.family}), the most accurate at {trusted.measured_at} marks"
                     + ("" if trusted.right is None else f": {trusted.right} of {trusted.n_test} held-out books right")
                     + (f", against {against}" if against else ""))
    if answer is not None:
        lines.append(f"Answer ({answer.method}): {answer.authors[0]}")
    if verdict.near_chance:
        lines.append(f"Caution: {verdict.near_chance}")
    return lines


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
    lines += answers_lines(verdict)
    return "\n".join(lines) + "\n"
