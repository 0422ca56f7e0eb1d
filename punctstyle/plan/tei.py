"""Planning of the TEI source (``source: tei``, workflow/rules/tei.smk): the selection's inputs
and parameters (pure functions of the config)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from punctstyle.sources.tei import TeiSettings


def tei_inputs(config: dict[str, Any]) -> list[str]:
    """The TEI files of the corpus (``tei.pattern`` in ``tei.path``) and its metadata table:
    a file added, removed or edited reruns the selection."""
    settings = TeiSettings.from_config(config)
    files = sorted(str(p) for p in Path(settings.path).glob(settings.pattern) if p.is_file())
    return files + ([settings.metadata] if settings.metadata else [])


def tei_select_params(config: dict[str, Any], language: str) -> dict[str, Any]:
    """What the selection reads of the config: the ``tei`` block, the corpus ``language`` (the
    plan's, so that extraction and selection agree), ``selection.min_docs_per_author`` and
    ``mirror.max_text_mb`` (the size cap)."""
    return {
        "tei": dict(config["tei"]),
        "language": language if config.get("language") else "",
        "selection": {"min_docs_per_author": config["selection"]["min_docs_per_author"]},
        "mirror": {"max_text_mb": config["mirror"]["max_text_mb"]},
    }
