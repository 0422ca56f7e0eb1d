"""The names of the text distortions (:mod:`punctstyle.training.distortion`, which imports them
from here), the inputs of ``cross.genres.methods`` that read the books' texts: the workflow's
planning (``punctstyle.plan.cross``) reads them without importing the distortion's numerical
code."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

DV_MA, DV_SA = "dv_ma", "dv_sa"
"""The two distortions: every character of a masked word masked, or the word as one mask."""
MODES: tuple[str, str] = (DV_MA, DV_SA)


def reads_texts(methods: Mapping[str, Sequence[str]]) -> bool:
    """Whether a configured method reads the books' texts (``dv_ma``, ``dv_sa``)."""
    return any(name in MODES for inputs in methods.values() for name in inputs)
