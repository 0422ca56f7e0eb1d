"""The extraction language of a run, as an attribution bundle records it, and its extractor.

A bundle (``manifest.json``, field ``extraction``) records the language and the dialogue-dash
option the run extracted with: ``{"language": "fr", "dialogue_dash": "quote"}``.
``punctstyle attribute``, ``verify`` and ``rolling`` extract a new text with the same rules
(:meth:`ExtractionLanguage.extractor`: spaCy's blank tokenizer of the language, the language's
mark mapping, the dialogue dash as the run had it). A bundle written before the field existed
reads as English without the dialogue dash (the paper's rules).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from punctstyle.io import InputError
from punctstyle.text.languages import DIALOGUE_DASH_OPTIONS, ENGLISH, language_code

RECORD_FIELD = "extraction"
"""The manifest's field holding :meth:`ExtractionLanguage.as_record`."""


@dataclass(frozen=True)
class ExtractionLanguage:
    """A language (spaCy's code) and ``extraction.dialogue_dash`` (``none`` or ``quote``)."""

    language: str = ENGLISH
    dialogue_dash: str = "none"

    @classmethod
    def of(cls, language: Any, dialogue_dash: Any = "none") -> ExtractionLanguage:
        """From config-like values (strings, ``None``: English); an unknown dash option raises
        :class:`ValueError`."""
        dash = "none" if dialogue_dash is None else str(dialogue_dash)
        if dash not in DIALOGUE_DASH_OPTIONS:
            raise ValueError(f"dialogue_dash {dash!r}: expected one of {', '.join(DIALOGUE_DASH_OPTIONS)}")
        return cls(language_code(str(language or "")) or ENGLISH, dash)

    @classmethod
    def from_manifest(cls, manifest: Mapping[str, Any], where: Any) -> ExtractionLanguage:
        """The manifest's ``extraction`` record; absent (an older bundle): English, no dash.
        A malformed record raises :class:`InputError` naming ``where``."""
        record = manifest.get(RECORD_FIELD)
        if record is None:
            return cls()
        if not isinstance(record, Mapping) or not isinstance(record.get("language"), str):
            raise InputError(f"{where}: field {RECORD_FIELD}: expected "
                             '{"language": "<code>", "dialogue_dash": "none" or "quote"}')
        try:
            return cls.of(record["language"], record.get("dialogue_dash", "none"))
        except ValueError as exc:
            raise InputError(f"{where}: field {RECORD_FIELD}: {exc}") from None

    def as_record(self) -> dict[str, str]:
        return {"language": self.language, "dialogue_dash": self.dialogue_dash}

    @property
    def is_paper(self) -> bool:
        """English without the dialogue dash: the paper's rules (shipped, no spaCy import)."""
        return self.language == ENGLISH and self.dialogue_dash == "none"

    def rules(self) -> Any:
        """The tokenizer rules (:class:`punctstyle.text.tokenizer.TokenizerRules`): the shipped
        English ones, else exported from spaCy's blank tokenizer of the language (imports spaCy).
        A language spaCy cannot tokenize raises :class:`ValueError`."""
        from punctstyle.text.tokenizer_facts import default_rules, export_extraction_rules

        if self.is_paper:
            return default_rules()
        return export_extraction_rules(language=self.language, dialogue_dash=self.dialogue_dash == "quote")

    def extractor(self) -> Any:
        """A :class:`punctstyle.text.chunk_cache.ChunkCachedExtractor` on :meth:`rules`."""
        from punctstyle.text.chunk_cache import ChunkCachedExtractor

        return ChunkCachedExtractor(rules=self.rules())


def chosen_language(recorded: ExtractionLanguage, override: str | None, header: str,
                    name: str) -> tuple[ExtractionLanguage, str | None]:
    """The language a text is extracted with, and a one-line warning (or None).

    ``recorded``: the bundle's; ``override``: ``--language`` (None: the bundle's; the bundle's
    dialogue-dash option is kept); ``header``: a TEI file's header language (``""``: a plain
    text). The warning says that the header's language is not the bundle's."""
    language = recorded if not override else ExtractionLanguage(language_code(override) or ENGLISH,
                                                               recorded.dialogue_dash)
    warning = None
    if header and header != recorded.language:
        warning = (f"{name}: the TEI header says language {header!r}, the bundle was built on {recorded.language!r} "
                   f"texts; extracted with the {language.language!r} rules")
    return language, warning
