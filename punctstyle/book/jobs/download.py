"""Rule download_book: one book from the mirror -> ``books/{id}.txt.gz`` + ``books/{id}.json``
(:func:`punctstyle.sources.download.fetch_book`, :func:`punctstyle.sources.provenance.write_book`).

``python -m punctstyle.book.jobs.download ID --base-url URL --templates T [T ...]
--max-text-mb MB --timeout S --attempt-deadline S --retries N --backoff S [--user-agent UA]
--text PATH --provenance PATH --log PATH``. The retry settings come from the workflow's
``DOWNLOAD_POLICY`` (:func:`punctstyle.plan.book_jobs.download_policy`), not the rule's params:
changing them reruns no download.
"""

from __future__ import annotations

import argparse
import sys

from punctstyle.book.jobs import book_parser, optional_text, run_job, text_outputs


def parser() -> argparse.ArgumentParser:
    parser = book_parser("download", __doc__.split("\n\n")[0])
    parser.add_argument("--base-url", required=True, help="mirror.base_url")
    parser.add_argument("--templates", nargs="+", required=True, help="mirror.url_templates, tried in order")
    parser.add_argument("--timeout", type=float, required=True, help="mirror.timeout_s")
    parser.add_argument("--attempt-deadline", type=float, required=True, help="mirror.attempt_deadline_s")
    parser.add_argument("--retries", type=int, required=True, help="mirror.retries")
    parser.add_argument("--backoff", type=float, required=True, help="mirror.backoff_s")
    parser.add_argument("--user-agent", type=optional_text, default=None, help="mirror.user_agent (default: ours)")
    text_outputs(parser)
    return parser


def download(args: argparse.Namespace) -> None:
    """Fetch the book, log each attempt and the outcome, write its text and provenance."""
    from punctstyle.logs import configure_logging
    from punctstyle.sources.download import DEFAULT_USER_AGENT, fetch_book
    from punctstyle.sources.provenance import write_book

    log = configure_logging(args.log)
    result = fetch_book(
        args.book_id,
        args.base_url,
        templates=args.templates,
        timeout=args.timeout,
        attempt_deadline=args.attempt_deadline,
        retries=args.retries,
        backoff=args.backoff,
        user_agent=args.user_agent or DEFAULT_USER_AGENT,
        max_text_bytes=int(args.max_text_mb * 1024 * 1024),
    )
    for url, outcome in result.attempts:
        log.info("%s -> %s", url, outcome)
    log.info("book %d: %s %s", args.book_id, result.status, result.reason or "")
    write_book(result, args.text, args.provenance)


if __name__ == "__main__":
    run_job(parser, download, sys.argv[1:])
