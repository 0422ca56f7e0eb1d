"""Rule download_book: one book from the mirror -> ``books/{id}.txt.gz`` + ``books/{id}.json``
(:func:`punctstyle.sources.download.fetch_book`, :func:`punctstyle.sources.provenance.write_book`).

``python -m punctstyle.book.jobs.download ID --base-url URL --templates T [T ...]
--max-text-mb MB --policy JSON --text PATH --provenance PATH --log PATH``. The retry settings
(``--policy``: ``timeout_s``, ``attempt_deadline_s``, ``retries``, ``backoff_s``, ``user_agent``
of ``config["mirror"]``) come from the workflow's environment
(:func:`punctstyle.plan.book_jobs.job_environment`), not the rule's params: changing them reruns
no download.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass

from punctstyle.book.jobs import book_parser, run_job, text_outputs


@dataclass(frozen=True)
class RetryPolicy:
    """How the download retries: ``config["mirror"]``'s five retry settings."""

    timeout_s: float
    attempt_deadline_s: float
    retries: int
    backoff_s: float
    user_agent: str | None


def retry_policy(value: str) -> RetryPolicy:
    """``--policy``: a JSON object with exactly the keys of :class:`RetryPolicy`
    (``{"timeout_s": 30, "attempt_deadline_s": 300, "retries": 3, "backoff_s": 2.0,
    "user_agent": null}``); anything else is a one-line usage error naming what is wrong."""
    try:
        fields = json.loads(value)
    except json.JSONDecodeError as exc:
        raise argparse.ArgumentTypeError(f"not JSON ({exc.msg}): {value[:80]!r}") from None
    expected = set(RetryPolicy.__dataclass_fields__)
    if not isinstance(fields, dict) or set(fields) != expected:
        got = sorted(fields) if isinstance(fields, dict) else type(fields).__name__
        raise argparse.ArgumentTypeError(f"needs exactly the keys {sorted(expected)}, got {got}")
    try:
        return RetryPolicy(
            timeout_s=float(fields["timeout_s"]),
            attempt_deadline_s=float(fields["attempt_deadline_s"]),
            retries=int(fields["retries"]),
            backoff_s=float(fields["backoff_s"]),
            user_agent=None if fields["user_agent"] in (None, "") else str(fields["user_agent"]),
        )
    except (TypeError, ValueError) as exc:
        raise argparse.ArgumentTypeError(f"a retry setting is not a number: {exc}") from None


def parser() -> argparse.ArgumentParser:
    parser = book_parser("download", __doc__.split("\n\n")[0])
    parser.add_argument("--base-url", required=True, help="mirror.base_url")
    parser.add_argument("--templates", nargs="+", required=True, help="mirror.url_templates, tried in order")
    parser.add_argument(
        "--policy",
        type=retry_policy,
        required=True,
        help="mirror's timeout_s, attempt_deadline_s, retries, backoff_s and user_agent as a JSON object",
    )
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
        timeout=args.policy.timeout_s,
        attempt_deadline=args.policy.attempt_deadline_s,
        retries=args.policy.retries,
        backoff=args.policy.backoff_s,
        user_agent=args.policy.user_agent or DEFAULT_USER_AGENT,
        max_text_bytes=int(args.max_text_mb * 1024 * 1024),
    )
    for url, outcome in result.attempts:
        log.info("%s -> %s", url, outcome)
    log.info("book %d: %s %s", args.book_id, result.status, result.reason or "")
    write_book(result, args.text, args.provenance)


if __name__ == "__main__":
    run_job(parser, download, sys.argv[1:])
