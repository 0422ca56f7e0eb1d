"""Rule download_book: one book over HTTP -> books/{id}.txt.gz + books/{id}.json."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(snakemake.scriptdir).resolve().parent))  # noqa: F821 - this checkout's package

from punctstyle.download import DEFAULT_USER_AGENT, fetch_book, write_book  # noqa: E402
from punctstyle.logs import configure_logging  # noqa: E402

log = configure_logging(snakemake.log[0])  # noqa: F821
params = snakemake.params  # noqa: F821
policy = snakemake.config["mirror"]  # noqa: F821 - retry policy: not a param, so no rerun trigger
book_id = int(snakemake.wildcards.book_id)  # noqa: F821

result = fetch_book(
    book_id,
    params.base_url,
    templates=params.url_templates,
    timeout=policy["timeout_s"],
    retries=policy["retries"],
    backoff=policy["backoff_s"],
    user_agent=policy["user_agent"] or DEFAULT_USER_AGENT,
    max_text_bytes=int(params.max_text_mb * 1024 * 1024),
)
for url, outcome in result.attempts:
    log.info("%s -> %s", url, outcome)
log.info("book %d: %s %s", book_id, result.status, result.reason or "")
write_book(result, snakemake.output.text, snakemake.output.provenance)  # noqa: F821
