"""The verification analysis's settings and families, without its computation: what the
workflow's planning reads (``punctstyle.plan.verification``) without importing numpy's and
scipy's numerical code (:mod:`punctstyle.attribution.verification` computes the scores,
:mod:`punctstyle.attribution.verification_run` runs the analysis; both import from here).

* **Families** (:func:`family_parts`): a punctuation feature set (``f3``), the most frequent
  words (:data:`WORDS`) or both (``<punctuation set>+words``).
* **Settings**: the ``verification`` block of the config (:class:`VerificationSettings`, the
  schema holds the defaults) with the General Imposters settings (:class:`ImpostersSettings`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from punctstyle.featuresets import resolve_feature_set
from punctstyle.marks import FEATURES
from punctstyle.settings import schema_values

WORDS = "words"
"""The family name of the most frequent words; ``<punctuation set>+words`` adds them to a set."""


def family_parts(family: str) -> tuple[str | None, bool]:
    """``"f3"`` -> ``("f3", False)``, ``"words"`` -> ``(None, True)``, ``"all+words"`` ->
    ``("all", True)``; the punctuation part is checked by
    :func:`punctstyle.featuresets.resolve_feature_set`."""
    if family == WORDS:
        return None, True
    if family.endswith("+" + WORDS):
        punctuation = family[: -len(WORDS) - 1]
        resolve_feature_set(punctuation)
        return punctuation, True
    resolve_feature_set(family)
    return family, False


@dataclass(frozen=True)
class ImpostersSettings:
    """stylo's ``imposters()`` defaults: 100 iterations, half the features, half the imposters,
    the test text twice in the z-scores (``test_copies``; :mod:`punctstyle.attribution.verification`)."""

    iterations: int = 100
    feature_share: float = 0.5
    imposter_share: float = 0.5
    test_copies: int = 2

    def __post_init__(self) -> None:
        if self.iterations < 1:
            raise ValueError(f"iterations must be at least 1, got {self.iterations}")
        if self.test_copies < 1:
            raise ValueError(f"test_copies must be at least 1, got {self.test_copies}")
        for name in ("feature_share", "imposter_share"):
            value = getattr(self, name)
            if not 0.0 < value <= 1.0:
                raise ValueError(f"{name} must lie in (0, 1], got {value}")


@dataclass(frozen=True)
class VerificationSettings:
    """The workflow's ``verification`` block (every key; the schema holds the defaults)."""

    families: tuple[str, ...]
    bundle_family: str
    top_words: int
    lengths: tuple[int, ...]
    seeds: tuple[int, ...]
    test_fraction: float
    n_different: int
    max_texts: int | None
    imposters: ImpostersSettings
    band_step: float
    min_marks: int

    KEYS: ClassVar[tuple[str, ...]] = (
        "families", "bundle_family", "top_words", "lengths", "seeds", "test_fraction", "n_different",
        "max_texts", "iterations", "feature_share", "imposter_share", "band_step", "min_marks",
    )
    IMPOSTERS_KEYS: ClassVar[tuple[str, ...]] = ("iterations", "feature_share", "imposter_share")
    SECTION: ClassVar[tuple[str, ...]] = ("verification",)

    @classmethod
    def from_config(cls, block: Mapping[str, Any]) -> VerificationSettings:
        """From the ``verification`` block: :func:`punctstyle.settings.schema_values` (the
        schema's defaults and types; Snakemake passes strings), the lengths sorted without
        repeats, the three imposters keys as one :class:`ImpostersSettings`."""
        values = schema_values(cls.SECTION, block)
        for family in values["families"]:
            family_parts(family)
        if values["bundle_family"] not in values["families"]:
            raise ValueError(f"verification.bundle_family {values['bundle_family']!r} is not one of the families "
                             f"{list(values['families'])}")
        direct = {key: values[key] for key in cls.KEYS if key not in cls.IMPOSTERS_KEYS}
        direct["lengths"] = tuple(sorted(set(values["lengths"])))
        return cls(**direct, imposters=ImpostersSettings(*(values[key] for key in cls.IMPOSTERS_KEYS)))

    @property
    def uses_words(self) -> bool:
        return any(family_parts(f)[1] for f in self.families)

    def punctuation_features(self) -> tuple[str, ...]:
        """Every punctuation feature of the families, in :data:`punctstyle.marks.FEATURES` order."""
        used = {f for family in self.families if family_parts(family)[0] for f in resolve_feature_set(family_parts(family)[0])}
        return tuple(f for f in FEATURES if f in used)


def verification_config_error(block: Mapping[str, Any]) -> str | None:
    """One line when the (schema-valid) ``verification`` block's keys do not fit together, else None:
    ``bundle_family`` must be one of ``families``."""
    families = [str(f) for f in block["families"]]
    if str(block["bundle_family"]) not in families:
        return (f"config verification.bundle_family: {block['bundle_family']!r} is not one of "
                f"verification.families {families}")
    return None


def needs_word_streams(settings: VerificationSettings) -> bool:
    """Whether the run reads word streams: word families measured at excerpt lengths."""
    return settings.uses_words and bool(settings.lengths)
