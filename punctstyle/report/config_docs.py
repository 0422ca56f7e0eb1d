"""config/README.md, generated from the schema (workflow/schemas/config.schema.yaml): one
table per block, each key with its type, default and description.

Regenerate after a schema change (a unit test checks the file is current)::

    python -m punctstyle.report.config_docs > config/README.md
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Any

from punctstyle.settings import load_schema

HEADER = """# Configuration

Every key of the workflow's configuration: its type, its default and what it decides.
`config/config.yaml` sets the defaults below (the paper's values); override keys in a file
of your own (`--configfile my.yaml`) or on the command line (`--config selection='{min_docs_per_author: 3}'`:
nested values are given the types below). An unknown key or a bad value stops the run at
once with one line naming the key.

This file is generated from [`workflow/schemas/config.schema.yaml`](../workflow/schemas/config.schema.yaml)
(`python -m punctstyle.report.config_docs > config/README.md`); do not edit it by hand.
"""


def type_text(node: dict[str, Any]) -> str:
    """A schema node's type as a reader would write it (``integer >= 1``, ``list of string``, ...)."""
    options = node.get("anyOf") or node.get("oneOf")
    if options:
        return " or ".join(type_text(option) for option in options)
    kind = node.get("type", "any")
    kinds = kind if isinstance(kind, list) else [kind]
    parts = []
    for name in kinds:
        if name == "array":
            parts.append(f"list of {type_text(node.get('items', {}))}")
        elif name == "string" and "enum" in node:
            parts.append(" \\| ".join(f"`{value}`" for value in node["enum"]))
        else:
            parts.append(name)
    text = " or ".join(parts)
    bounds = [
        (">=", node.get("minimum")),
        (">", node.get("exclusiveMinimum")),
        ("<=", node.get("maximum")),
        ("<", node.get("exclusiveMaximum")),
    ]
    text += "".join(f" {sign} {value}" for sign, value in bounds if value is not None)
    return text


def _default_text(node: dict[str, Any]) -> str:
    if "default" not in node or node.get("type") == "object":
        return ""
    return f"`{json.dumps(node['default'], ensure_ascii=False)}`"


def _rows(node: dict[str, Any], prefix: str) -> Iterator[str]:
    for key, child in node.get("properties", {}).items():
        name = f"{prefix}{key}"
        if child.get("type") == "object" and "properties" in child:
            yield from _rows(child, f"{name}.")
            continue
        description = " ".join(str(child.get("description", "")).split()).replace("|", "\\|")
        yield f"| `{name}` | {type_text(child)} | {_default_text(child)} | {description} |"


def undocumented_keys(node: dict[str, Any] | None = None, prefix: str = "") -> list[str]:
    """Keys of the schema without a ``description``."""
    node = load_schema() if node is None else node
    missing = []
    for key, child in node.get("properties", {}).items():
        if not str(child.get("description", "")).strip():
            missing.append(f"{prefix}{key}")
        if child.get("type") == "object":
            missing += undocumented_keys(child, f"{prefix}{key}.")
    return missing


def config_markdown(schema: dict[str, Any] | None = None) -> str:
    """The text of config/README.md for ``schema``."""
    schema = load_schema() if schema is None else schema
    parts = [HEADER]
    for block, node in schema["properties"].items():
        title = " ".join(str(node.get("description", "")).split())
        parts.append(f"\n## `{block}`\n\n{title}\n")
        parts.append("| key | type | default | meaning |\n| --- | --- | --- | --- |")
        if node.get("type") == "object" and "properties" in node:
            parts.extend(_rows(node, f"{block}."))
        else:
            parts.append(f"| `{block}` | {type_text(node)} | {_default_text(node)} | {title} |")
    return "\n".join(parts) + "\n"


if __name__ == "__main__":
    sys.stdout.write(config_markdown())
