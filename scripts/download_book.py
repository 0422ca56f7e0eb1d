"""Rule download_book: one book over HTTP -> books/{id}.txt.gz + books/{id}.json."""

from punctstyle.sources.download import DEFAULT_USER_AGENT, fetch_book
from punctstyle.sources.provenance import write_book
from punctstyle.logs import configure_logging
from punctstyle.book.job_exit import finish_job

log = configure_logging(snakemake.log[0])
params = snakemake.params
policy = snakemake.config["mirror"]
book_id = int(snakemake.wildcards.book_id)

result = fetch_book(
    book_id,
    params.base_url,
    templates=params.url_templates,
    timeout=policy["timeout_s"],
    attempt_deadline=policy["attempt_deadline_s"],
    retries=policy["retries"],
    backoff=policy["backoff_s"],
    user_agent=policy["user_agent"] or DEFAULT_USER_AGENT,
    max_text_bytes=int(params.max_text_mb * 1024 * 1024),
)
for url, outcome in result.attempts:
    log.info("%s -> %s", url, outcome)
log.info("book %d: %s %s", book_id, result.status, result.reason or "")
write_book(result, snakemake.output.text, snakemake.output.provenance)
finish_job()  # outputs written: no interpreter teardown (punctstyle.book.job_exit)
