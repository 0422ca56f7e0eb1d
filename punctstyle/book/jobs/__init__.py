"""The per-book jobs of the workflow, one command each: ``python -m punctstyle.book.jobs.STEP``.

A book has two jobs (the ``shell:`` rules of ``workflow/rules/books.smk`` and of its source's
``.smk`` file run these modules with every path and setting on the command line):

* its text, ``books/{id}.txt.gz`` and the provenance ``books/{id}.json``:
  :mod:`~punctstyle.book.jobs.download` (rule ``download_book``: Project Gutenberg, over HTTP or
  from a ``file://`` mirror), :mod:`~punctstyle.book.jobs.ingest` (rule ``ingest_document`` of a
  folder corpus) or :mod:`~punctstyle.book.jobs.ingest_tei` (rule ``ingest_document`` of a TEI
  corpus);
* :mod:`~punctstyle.book.jobs.extract` (rule ``extract_book``): the text -> its sequence file,
  its words file (counts and stream) and its feature row(s) (``sequences/``, ``words/``,
  ``features/{id}.parquet``) in one pass (:func:`punctstyle.book.steps.extract_book_files`).

Why commands and not ``script:`` rules (docs/performance.md, "A book's CPU"): a Snakemake
``script:`` job starts a Python that imports ``snakemake.script`` before the first line of the
script, and each book had three of them (download, extraction, features), two importing numpy
and pyarrow. A module here imports only what its step needs: the download and the ingests
neither numpy, pyarrow nor pandas, the extraction numpy and pyarrow once for its three files.
Each module is its own file so that its imports are its step's alone (``tests/unit/test_envs.py``
checks them against the rule's conda environment). A job ends with
:func:`punctstyle.book.job_exit.finish_job` once its outputs and log are written (no
interpreter teardown), logs one line per book to ``--log`` and turns the package's one-line
errors into ``punctstyle: <message>`` and exit status 1 (:func:`punctstyle.logs.configure_logging`).

Run by hand, a command is the job: copy the one Snakemake prints (``printshellcmds``) to redo
one book, after setting the two variables the workflow sets for its jobs
(:func:`punctstyle.plan.book_jobs.job_environment`): ``PUNCTSTYLE_JOB_PYTHON`` (the Python to
run, e.g. ``python``) and, for a download, ``PUNCTSTYLE_DOWNLOAD_POLICY`` (the retry settings
as JSON: ``{"timeout_s": 30, "attempt_deadline_s": 300, "retries": 3, "backoff_s": 2.0,
"user_agent": null}``).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence

NULL = "None"
"""How Snakemake formats a null setting into a command (``{params.x}`` of ``None``): read back as
"not set" by :func:`optional_int`."""


def optional_int(value: str) -> int | None:
    """An integer option that may be null (:data:`NULL`)."""
    return None if value == NULL else int(value)


def book_parser(step: str, description: str) -> argparse.ArgumentParser:
    """A step's command line: the book id, then ``--log`` (the job's log file) and the step's own
    options (added by the caller)."""
    parser = argparse.ArgumentParser(prog=f"python -m punctstyle.book.jobs.{step}", description=description)
    parser.add_argument("book_id", type=int)
    parser.add_argument("--log", required=True, help="the job's log file")
    return parser


def text_outputs(parser: argparse.ArgumentParser) -> None:
    """The options of a step that writes a book's text: its two files and the size cap."""
    parser.add_argument("--text", required=True, help="books/{id}.txt.gz to write")
    parser.add_argument("--provenance", required=True, help="books/{id}.json to write")
    parser.add_argument("--max-text-mb", type=float, required=True, help="mirror.max_text_mb")


def run_job(
    parser: Callable[[], argparse.ArgumentParser], step: Callable[[argparse.Namespace], None], argv: Sequence[str]
) -> None:
    """A step as a process: parse ``argv``, run it, then leave without the interpreter's teardown
    (its outputs and log are written and closed: :func:`punctstyle.book.job_exit.finish_job`)."""
    step(parser().parse_args(argv))
    from punctstyle.book.job_exit import finish_job

    finish_job()
