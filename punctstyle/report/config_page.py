"""Rule config_used: the run's configuration as JSON and as a report page. Its own module so that
the job imports no plotting library (issue 37: a figure family's job pays its imports once)."""

from __future__ import annotations

import json
from typing import Any

from punctstyle.io import write_text_atomic
from punctstyle.report.render import html_page, html_paragraph, html_preformatted
from punctstyle.settings import EXECUTION_ONLY_KEYS


def config_page(config: dict[str, Any], outputs: Any, log: Any) -> None:
    """Rule config_used: the configuration of this run (defaults filled in), as JSON and for the report."""
    text = json.dumps(config, indent=2, ensure_ascii=False, default=str) + "\n"
    write_text_atomic(outputs.json, text)
    note = (
        "Every key of the configuration used for this run that decides its results, defaults filled in "
        "(see config/README.md for each key's meaning); the keys that only decide how the run goes "
        f"({', '.join('.'.join(path) for path in EXECUTION_ONLY_KEYS)}) are left out. JSON is YAML: save it "
        "as a file and pass it with --configfile to rerun with the same settings."
    )
    write_text_atomic(outputs.html, html_page("Configuration used", [html_paragraph(note), html_preformatted(text)]))
    log.info("configuration: %d top-level keys", len(config))
