"""The public Python API: one text, a finished run or a bundle, the paper's figures.

Tour (docs/api.md)::

    import punctstyle
    results = punctstyle.open_results("results")        # a run's outdir, or a bundle folder
    punctstyle.extract(text)                            # marks (codes 0..9), gaps, n_words
    punctstyle.features(text)                           # {"f1": array(10), "f3": array(100), ...}
    attribution = results.attribute(text)               # every author ranked, the verdict
    attribution.ranking                                 # a DataFrame
    results.corpus("f3"), results.recognition("author")
    results.verify(text, "Austen, Jane")                # General Imposters score and decision
    results.rolling(text)                               # slices along the text, change points
    results.map_families(), results.maps("f3").coordinates
    punctstyle.api.text_figure(attribution, results.signatures())

Refusals are :class:`punctstyle.io.InputError` subclasses carrying the CLI's one-line messages
(:class:`EmptyText`, :class:`NoMarks`, :class:`TooLarge`, :class:`HtmlText`, :class:`BinaryText`, :class:`ManyBooks`).

Names are resolved on first use (PEP 562), so ``import punctstyle`` stays light: the figures
import matplotlib, and a bundle imports torch only when loaded.
"""

from __future__ import annotations

import importlib
from typing import Any

EXPORTS: dict[str, str] = {
    # one text
    "extract": "punctstyle.api.text",
    "features": "punctstyle.api.text",
    "read_text": "punctstyle.api.text",
    "decoded_text": "punctstyle.api.text",
    "TextRefused": "punctstyle.api.text",
    "EmptyText": "punctstyle.api.text",
    "NoMarks": "punctstyle.api.text",
    "TooLarge": "punctstyle.api.text",
    "HtmlText": "punctstyle.api.text",
    "BinaryText": "punctstyle.api.text",
    "ManyBooks": "punctstyle.api.text",
    # a run or a bundle
    "open_results": "punctstyle.api.results",
    "Results": "punctstyle.api.results",
    "attribute": "punctstyle.api.results",
    "verify": "punctstyle.api.results",
    "rolling": "punctstyle.api.results",
    "CorpusMap": "punctstyle.api.results",
    "Attribution": "punctstyle.api.attribution",
    # figures
    "sequence_figure": "punctstyle.api.figures",
    "fingerprint_figure": "punctstyle.api.figures",
    "comparison_figure": "punctstyle.api.figures",
    "text_figure": "punctstyle.api.figures",
    "author_figure": "punctstyle.api.figures",
    "rolling_figure": "punctstyle.api.figures",
}
"""Public name -> the module that defines it. A new function is one entry here and its
definition in that module."""

__all__ = sorted(EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in EXPORTS:
        raise AttributeError(f"module 'punctstyle.api' has no attribute {name!r}")
    return getattr(importlib.import_module(EXPORTS[name]), name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(EXPORTS))
