"""The language a text is extracted with by ``attribute``, ``verify`` and ``rolling``: the
bundle's (``manifest.json``'s ``extraction`` record, :mod:`punctstyle.text.language_rules`),
or ``--language`` / ``language=``; a TEI header in another language than the bundle's gives a
one-line warning."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from punctstyle.api.text import Document, sequence_and_words
from punctstyle.io import InputError
from punctstyle.text.language_rules import ExtractionLanguage, chosen_language


def folder_language(folder: Any) -> ExtractionLanguage:
    """The extraction language recorded by the bundle folder's ``manifest.json``; a folder
    without one (verification files alone) or a manifest without the record: English."""
    from punctstyle.attribution.bundle import read_manifest

    path = Path(os.fspath(folder)) / "manifest.json"
    if not path.is_file():
        return ExtractionLanguage()
    return ExtractionLanguage.from_manifest(read_manifest(path), path)


def language_extractor(language: ExtractionLanguage, name: str) -> Any:
    """:meth:`ExtractionLanguage.extractor`; a language spaCy cannot tokenize raises
    :class:`InputError` naming the text."""
    try:
        return language.extractor()
    except ValueError as exc:
        raise InputError(f"{name}: {exc}") from None


def document_extraction(document: Document, recorded: ExtractionLanguage, override: str | None,
                        name: str) -> tuple[Any, str | None]:
    """``(extractor, warning)`` of a document (:func:`chosen_language`)."""
    language, warning = chosen_language(recorded, override, document.language, name)
    return language_extractor(language, name), warning


def document_sequence(document: Document, recorded: ExtractionLanguage, override: str | None, name: str,
                      purpose: str = "attribute") -> tuple[Any, list[str], str | None]:
    """``(sequence, word stream, warning)`` of a document extracted with its chosen language
    (:func:`punctstyle.api.text.sequence_and_words`)."""
    sequence, stream, _, warning = document_extracted(document, recorded, override, name, purpose)
    return sequence, stream, warning


def document_extracted(document: Document, recorded: ExtractionLanguage, override: str | None, name: str,
                       purpose: str = "attribute") -> tuple[Any, list[str], Any, str | None]:
    """``(sequence, word stream, extractor, warning)``: :func:`document_sequence` with the
    extractor it used (rolling replays it for the changes' characters)."""
    extractor, warning = document_extraction(document, recorded, override, name)
    sequence, stream = sequence_and_words(name, document.text, purpose=purpose, extractor=extractor)
    return sequence, stream, extractor, warning


def bundle_language(bundle: Any) -> ExtractionLanguage:
    """The extraction language a loaded attribution bundle records (:func:`folder_language`'s rule)."""
    return ExtractionLanguage.from_manifest(bundle.manifest, Path(str(bundle.directory)) / "manifest.json")
