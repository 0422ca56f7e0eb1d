"""The command lines of the per-book jobs (``shell:`` rules calling :mod:`punctstyle.book.job`):
which Python runs them, and the download's retry policy.

Both are plain strings that ``common.smk`` computes once and the rules' ``shell:`` commands
name (``{JOB_PYTHON}``, ``{DOWNLOAD_POLICY}``). Snakemake formats them into each job's command
when the job runs and records only the command's template as the rule's code, so neither is a
rerun trigger: a changed timeout or retry count reruns no download (as when the download script
read them from the config), and the Python that runs the jobs is not part of any result.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Iterable
from typing import Any

ENVIRONMENT_PYTHON = "python"
"""The Python of a job run in a conda environment or a container: the one on the job's PATH."""


def job_python(deployment_methods: Iterable[Any], executable: str | None = None) -> str:
    """The Python of a per-book command, as Snakemake chooses it for a ``script:`` job: under
    ``--sdm conda`` or ``apptainer`` the environment's (``python``, Snakemake activates the
    environment first), else the interpreter that runs Snakemake (``executable``, default
    ``sys.executable``, quoted for the shell): a workflow started as ``.venv/bin/snakemake``
    has no ``.venv/bin`` on its PATH, so a bare ``python`` could be another interpreter."""
    names = {str(getattr(method, "name", method)).lower() for method in deployment_methods}
    if names & {"conda", "apptainer"}:
        return ENVIRONMENT_PYTHON
    return shlex.quote(executable or sys.executable)


def download_policy(mirror: dict[str, Any]) -> str:
    """The download command's retry policy, from ``config["mirror"]``: ``--timeout``,
    ``--attempt-deadline``, ``--retries``, ``--backoff`` and (when set) ``--user-agent``."""
    args = [
        "--timeout", str(mirror["timeout_s"]),
        "--attempt-deadline", str(mirror["attempt_deadline_s"]),
        "--retries", str(mirror["retries"]),
        "--backoff", str(mirror["backoff_s"]),
    ]  # fmt: skip
    if mirror.get("user_agent"):
        args += ["--user-agent", mirror["user_agent"]]
    return shlex.join(args)
