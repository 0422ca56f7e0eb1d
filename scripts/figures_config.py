"""Rule config_used: the configuration of this run (defaults filled in), as JSON and for the report."""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(snakemake.scriptdir).resolve().parent))  # noqa: F821 - this checkout's package

from punctstyle.io import write_text_atomic  # noqa: E402
from punctstyle.logs import configure_logging  # noqa: E402
from punctstyle.report_tables import html_page, html_paragraph, html_preformatted  # noqa: E402

log = configure_logging(snakemake.log[0])  # noqa: F821
config = snakemake.params.config  # noqa: F821
text = json.dumps(config, indent=2, ensure_ascii=False, default=str) + "\n"
write_text_atomic(snakemake.output.json, text)  # noqa: F821
note = ("Every key of the configuration used for this run, defaults filled in (see config/config.yaml for "
        "each key's meaning). JSON is YAML: save it as a file and pass it with --configfile to rerun with "
        "the same settings.")
page = html_page("Configuration used", [html_paragraph(note), html_preformatted(text)])
write_text_atomic(snakemake.output.html, page)  # noqa: F821
log.info("configuration: %d top-level keys", len(config))
