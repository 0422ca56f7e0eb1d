"""How tables are written: cells, markdown and HTML tables, small standalone HTML pages.

What the report shows is decided elsewhere (:mod:`punctstyle.report.tables`); this module
only renders frames and text, escaped, with one number format rule (:func:`format_value`).
"""

from __future__ import annotations

import html
import math
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import pandas as pd

NA = "NA"
"""How a missing value is written in the tables (the paper's ``NA``)."""


def format_value(value: Any, spec: str = ".3f") -> str:
    """A cell: missing -> ``NA``; integers as they are; floats with the format ``spec``.

    ``spec="auto"``: whole floats without decimals (``3.0`` -> ``3``), others to one decimal.
    """
    if value is None or value is pd.NA:
        return NA
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        if math.isnan(value):
            return NA
        if spec == "auto":
            return str(int(value)) if float(value).is_integer() and abs(value) < 1e15 else f"{value:.1f}"
        return format(float(value), spec)
    return str(value)


Formats = Mapping[str, str] | str


def _formatted_rows(frame: pd.DataFrame, formats: Formats) -> list[list[str]]:
    def spec(column: str) -> str:
        return formats if isinstance(formats, str) else formats.get(column, ".3f")

    specs = [spec(str(c)) for c in frame.columns]
    return [[format_value(v, s) for s, v in zip(specs, row)] for row in frame.itertuples(index=False)]


def markdown_table(frame: pd.DataFrame, formats: Formats = ".3f") -> str:
    """GitHub-flavoured markdown table of ``frame`` (numbers right-aligned, ``NA`` for missing).

    ``formats``: a format spec for every float column, or one per column name (default
    ``.3f``; see :func:`format_value`).
    """

    def cell(text: str) -> str:
        return text.replace("|", "\\|").replace("\n", " ")

    numeric = [pd.api.types.is_numeric_dtype(frame[c]) for c in frame.columns]
    lines = [
        "| " + " | ".join(cell(str(c)) for c in frame.columns) + " |",
        "| " + " | ".join("---:" if n else ":---" for n in numeric) + " |",
    ]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in _formatted_rows(frame, formats)]
    return "\n".join(lines) + "\n"


def html_table(frame: pd.DataFrame, formats: Formats = ".3f", caption: str | None = None) -> str:
    """An escaped ``<table>`` of ``frame`` (numbers right-aligned, ``NA`` for missing; ``formats``
    as in :func:`markdown_table`)."""
    numeric = [pd.api.types.is_numeric_dtype(frame[c]) for c in frame.columns]
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in frame.columns)
    body = []
    for row in _formatted_rows(frame, formats):
        cells = "".join(
            f'<td class="num">{html.escape(v)}</td>' if n else f"<td>{html.escape(v)}</td>"
            for v, n in zip(row, numeric)
        )
        body.append(f"<tr>{cells}</tr>")
    cap = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return f"<table>{cap}<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


HTML_STYLE = (
    "body{font-family:sans-serif;font-size:14px;margin:1em;color:#222;background:#fff}"
    "table{border-collapse:collapse;margin:0.5em 0 1.5em 0}"
    "th,td{border:1px solid #ccc;padding:2px 8px}th{background:#f0f0f0}"
    "td.num{text-align:right;font-variant-numeric:tabular-nums}"
    "caption{caption-side:top;text-align:left;font-weight:bold;padding:4px 0}"
    "pre{background:#f6f6f6;padding:0.8em;overflow-x:auto}p.note{color:#555}"
)


def html_page(title: str, parts: Iterable[str]) -> str:
    """A small standalone HTML page: escaped ``title`` as heading, then ``parts`` (HTML) in order."""
    body = "\n".join(parts)
    return (
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
        f"<title>{html.escape(title)}</title><style>{HTML_STYLE}</style></head>\n"
        f"<body><h2>{html.escape(title)}</h2>\n{body}\n</body></html>\n"
    )


def html_paragraph(text: str, note: bool = False) -> str:
    """An escaped paragraph (class ``note`` when ``note``)."""
    return f'<p class="note">{html.escape(text)}</p>' if note else f"<p>{html.escape(text)}</p>"


def html_preformatted(text: str) -> str:
    """An escaped ``<pre>`` block."""
    return f"<pre>{html.escape(text)}</pre>"
