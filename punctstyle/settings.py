"""The workflow's settings: the schema (workflow/schemas/config.schema.yaml) is the one place
where every key, its type and its default are defined.

* :func:`schema_defaults` / :func:`schema_default`: the defaults the schema declares, for code
  that runs outside the workflow (the CLI) and must agree with it.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

SCHEMA_PATH = Path(__file__).resolve().parent.parent / "workflow" / "schemas" / "config.schema.yaml"
"""The configuration schema of the workflow (this checkout's)."""


@cache
def load_schema(path: str | Path = SCHEMA_PATH) -> dict[str, Any]:
    """The schema as a dict (read once per process)."""
    import yaml

    with open(path, encoding="utf-8") as handle:
        return yaml.safe_load(handle)


def _defaults_of(node: dict[str, Any]) -> Any:
    properties = node.get("properties")
    if node.get("type") == "object" and properties:
        base = dict(node.get("default") or {})
        for key, child in properties.items():
            value = _defaults_of(child)
            if value is not _MISSING:
                base[key] = value
        return base
    return node.get("default", _MISSING)


_MISSING = object()


def schema_defaults(path: str | Path = SCHEMA_PATH) -> dict[str, Any]:
    """Every default of the schema, nested like the configuration."""
    return _defaults_of(load_schema(path))


def schema_default(*keys: str, path: str | Path = SCHEMA_PATH) -> Any:
    """The schema's default of one key, e.g. ``schema_default("mirror", "max_text_mb")``."""
    value: Any = schema_defaults(path)
    for key in keys:
        if not isinstance(value, dict) or key not in value:
            raise KeyError(f"{'.'.join(keys)} has no default in {path}")
        value = value[key]
    return value
