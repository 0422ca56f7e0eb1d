"""The environment of the per-book jobs (``shell:`` rules calling :mod:`punctstyle.book.jobs`):
which Python runs them, and the download's retry policy.

``common.smk`` puts both into the workflow's environment once (:func:`job_environment`), and the
rules' ``shell:`` commands name them as shell variables (``"$PUNCTSTYLE_JOB_PYTHON" -m ...
--policy "$PUNCTSTYLE_DOWNLOAD_POLICY"``). Snakemake records the command's template as the
rule's code and neither value as a param, so neither is a rerun trigger: a changed timeout or
retry count reruns no download (as when the download script read them from the config), and the
Python that runs the jobs is not part of any result. A shell variable, not a ``{NAME}`` formatted
from the Snakefile's globals: ``snakemake --lint`` refuses a command that reads a variable from
outside its rule. Every process that runs the jobs parses the Snakefile first (a cluster job's
Snakemake too), so each sets the variables before its first job starts.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import Any

ENVIRONMENT_PYTHON = "python"
"""The Python of a job run in a conda environment or a container: the one on the job's PATH."""

PYTHON_VARIABLE = "PUNCTSTYLE_JOB_PYTHON"
"""The environment variable a per-book command's Python is read from."""

POLICY_VARIABLE = "PUNCTSTYLE_DOWNLOAD_POLICY"
"""The environment variable the download command's ``--policy`` is read from."""

POLICY_KEYS = ("timeout_s", "attempt_deadline_s", "retries", "backoff_s", "user_agent")
"""The keys of ``config["mirror"]`` that make the download's retry policy (not its bytes)."""


def job_python(deployment_methods: Iterable[Any], executable: str | None = None) -> str:
    """The Python of a per-book command, as Snakemake chooses it for a ``script:`` job: under
    ``--sdm conda`` or ``apptainer`` the environment's (``python``, Snakemake activates the
    environment first), else the interpreter that runs Snakemake (``executable``, default
    ``sys.executable``; the command quotes it): a workflow started as ``.venv/bin/snakemake``
    has no ``.venv/bin`` on its PATH, so a bare ``python`` could be another interpreter."""
    names = {str(getattr(method, "name", method)).lower() for method in deployment_methods}
    if names & {"conda", "apptainer"}:
        return ENVIRONMENT_PYTHON
    return executable or sys.executable


def download_policy(mirror: dict[str, Any]) -> str:
    """The download command's retry policy, from ``config["mirror"]``: a JSON object of
    :data:`POLICY_KEYS` (``user_agent`` null when unset), the value of ``--policy``."""
    return json.dumps({key: mirror.get(key) for key in POLICY_KEYS}, sort_keys=True)


def job_environment(deployment_methods: Iterable[Any], mirror: dict[str, Any]) -> dict[str, str]:
    """The variables the per-book commands read: ``{PYTHON_VARIABLE: job_python(...),
    POLICY_VARIABLE: download_policy(mirror)}``."""
    return {PYTHON_VARIABLE: job_python(deployment_methods), POLICY_VARIABLE: download_policy(mirror)}


SERVER_VARIABLE = "PUNCTSTYLE_BOOK_SERVER"
"""``off`` (or ``0``, ``no``, ``false``) runs each per-book job as its own process, without the
book-job server (:mod:`punctstyle.book.job_server`)."""

SERVER_STARTED = (
    "Per-book jobs: run as forks of one warm process (punctstyle.book.job_server; "
    f"{SERVER_VARIABLE}=off runs each as a process of its own)"
)
"""The line a run writes to standard error when it starts the book-job server (not an error,
so not ``punctstyle: ...``, the form of the package's one-line errors)."""

BOOK_RULES = frozenset({"select_books", "download_book", "ingest_document", "extract_book"})
"""The rules whose jobs, to be run, make a run start the book-job server: the per-book rules and
the selection checkpoint, which adds them to the run once it has run."""


def job_server_wanted(
    deployment_methods: Iterable[Any], local_exec: bool, rules_to_run: Iterable[str], environ: dict[str, str]
) -> bool:
    """Whether a run starts the book-job server: its jobs run on this machine (``local_exec``:
    not a cluster's, nor only touched), in Snakemake's own Python (no conda or container environment:
    :func:`job_python`), some of them per-book (:data:`BOOK_RULES`), and ``environ`` does not
    switch it off (:data:`SERVER_VARIABLE`)."""
    switched_off = environ.get(SERVER_VARIABLE, "").strip().lower() in {"off", "0", "no", "false"}
    in_snakemakes_python = job_python(deployment_methods) != ENVIRONMENT_PYTHON
    return local_exec and in_snakemakes_python and not switched_off and bool(BOOK_RULES & set(rules_to_run))


def start_book_job_server(environ: dict[str, str]) -> Any:
    """Start the book-job server under ``environ[PYTHON_VARIABLE]`` and make its launcher the
    per-book commands' Python (``environ[PYTHON_VARIABLE]``); it is stopped, and waited for, when
    this process exits. Returns the :class:`~punctstyle.book.job_server.RunningServer`, or None
    when the system cannot run one or it did not start (one line on standard error; the jobs then
    run as their own processes)."""
    import atexit

    from punctstyle.book.job_server import start_server, supported

    if not supported():
        return None
    try:
        server = start_server(environ[PYTHON_VARIABLE])
    except (RuntimeError, OSError) as exc:
        print(f"punctstyle: {exc}; each per-book job runs as its own process", file=sys.stderr)
        return None
    environ[PYTHON_VARIABLE] = str(server.launcher)
    atexit.register(server.stop)
    print(SERVER_STARTED, file=sys.stderr)
    return server
