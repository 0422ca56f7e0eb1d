"""Rule config_used: the configuration of this run (defaults filled in), as JSON and for the report."""

import json

from punctstyle.io import write_text_atomic
from punctstyle.logs import configure_logging
from punctstyle.settings import EXECUTION_ONLY_KEYS
from punctstyle.report.render import html_page, html_paragraph, html_preformatted

log = configure_logging(snakemake.log[0])
config = snakemake.params.config
text = json.dumps(config, indent=2, ensure_ascii=False, default=str) + "\n"
write_text_atomic(snakemake.output.json, text)
note = ("Every key of the configuration used for this run that decides its results, defaults filled in "
        "(see config/README.md for each key's meaning); the keys that only decide how the run goes "
        f"({', '.join('.'.join(path) for path in EXECUTION_ONLY_KEYS)}) are left out. JSON is YAML: save it "
        "as a file and pass it with --configfile to rerun with the same settings.")
page = html_page("Configuration used", [html_paragraph(note), html_preformatted(text)])
write_text_atomic(snakemake.output.html, page)
log.info("configuration: %d top-level keys", len(config))
