"""punctstyle: stylometry without words, from punctuation sequences (Darmon et al.).

The public API (:mod:`punctstyle.api`, docs/api.md) is importable from here:
``punctstyle.open_results``, ``punctstyle.extract``, ``punctstyle.features``,
``punctstyle.attribute`` ... resolved on first use, so that ``import punctstyle`` stays light.
"""

from typing import Any

__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    import importlib

    api = importlib.import_module("punctstyle.api")
    if name in api.EXPORTS:
        return getattr(api, name)
    raise AttributeError(f"module 'punctstyle' has no attribute {name!r}")
