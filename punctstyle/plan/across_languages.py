"""Planning of the cross-language analyses (rule file workflow/rules/across_languages.smk, config
``across_languages``): whether they run, their inputs and tables, as plain functions of the
config. The collections are read directly (not through the run's corpus), so the analyses run
beside any source."""

from __future__ import annotations

from typing import Any

from punctstyle.jobs.across_languages import TABLES, AcrossLanguagesSettings, collection_files, tei_settings
from punctstyle.io import InputError
from punctstyle.plan.targets import out

FOLDER = "analysis/across_languages"


def across_languages_enabled(config: dict[str, Any]) -> bool:
    """``across_languages.enabled`` (off by default)."""
    return bool(config.get("across_languages", {}).get("enabled", False))


def across_languages_config_error(config: dict[str, Any]) -> str | None:
    """One line when the analyses are enabled without a collection, or with a collection whose
    folder or metadata table is missing (the schema cannot say it); None when they are off."""
    if not across_languages_enabled(config):
        return None
    if not config["across_languages"].get("collections"):
        return ("config across_languages.collections: empty, but across_languages.enabled is true "
                "(give [{path: <a TEI collection's folder>, language: null}, ...])")
    try:
        for collection in AcrossLanguagesSettings.from_config(config["across_languages"]).collections:
            tei_settings(collection)
    except InputError as exc:
        return str(exc)
    return None


def across_languages_files(config: dict[str, Any]) -> dict[str, str]:
    """Name -> path of every table of rule across_languages (``analysis/across_languages/<name>.csv``)."""
    return {name: out(config, f"{FOLDER}/{name}.csv") for name in TABLES}


def across_languages_outputs(config: dict[str, Any]) -> list[str]:
    """The targets of rule all: every table when enabled, else none."""
    return list(across_languages_files(config).values()) if across_languages_enabled(config) else []


def across_languages_inputs(config: dict[str, Any]) -> list[str]:
    """The files the tables read: each collection's TEI files and metadata table (none when
    disabled, so that a disabled block is never read)."""
    if not across_languages_enabled(config):
        return []
    settings = AcrossLanguagesSettings.from_config(config["across_languages"])
    return [file for collection in settings.collections for file in collection_files(collection)]
