"""The console's short job listing (punctstyle.snakemake_patches.console): the console handler shortens
path lists and reasons, the log file's handler keeps everything."""

from __future__ import annotations

import io
import logging

from snakemake.logging import DefaultFilter, DefaultFormatter
from snakemake_interface_logger_plugins.common import LogEvent

from punctstyle.snakemake_patches.console import install_short_job_listing, short_paths, short_reason

PATHS = [f"results/features/{i}.parquet" for i in range(1100)]


def _job_record(logger: logging.Logger) -> None:
    logger.info(
        " Rule: corpus_tables, Jobid: 7",
        extra=dict(
            event=LogEvent.JOB_INFO,
            jobid=7,
            rule_msg=None,
            rule_name="corpus_tables",
            local=False,
            input=PATHS,
            output=["results/corpus/f1.parquet"],
            log=["logs/corpus.log"],
            benchmark=None,
            wildcards={},
            reason="Input files updated by another job: " + ", ".join(PATHS),
            resources={},
            priority=0,
            threads=1,
            indent=False,
            is_checkpoint=False,
            printshellcmd=True,
            is_handover=False,
            shellcmd=None,
        ),
    )
    logger.info("Shell command: None", extra=dict(event=LogEvent.SHELLCMD, shellcmd=None, indent=False))
    logger.info("echo hi", extra=dict(event=LogEvent.SHELLCMD, shellcmd="echo hi", indent=False))
    logger.info("Select jobs to execute...")
    logger.info("Execute 2 jobs...", extra=dict(event=LogEvent.JOB_STARTED, jobs=[1, 2]))
    logger.info("Execute 2 jobs to the end of the world")


def _handler(name: str, stream: io.StringIO) -> logging.Handler:
    handler = logging.StreamHandler(stream)
    handler.name = name
    handler.setFormatter(DefaultFormatter(set()))
    handler.addFilter(DefaultFilter(set(), False, False, False, True))
    return handler


def test_the_console_lists_a_few_paths_and_the_log_file_all(monkeypatch):
    monkeypatch.delenv("PUNCTSTYLE_CONSOLE", raising=False)
    logger = logging.getLogger("punctstyle-test-console")
    logger.setLevel(logging.INFO)
    logger.propagate = False
    console, logfile = io.StringIO(), io.StringIO()
    logger.handlers = [_handler("DefaultStreamHandler", console), _handler("DefaultLogFileHandler", logfile)]
    assert install_short_job_listing("punctstyle-test-console")
    assert install_short_job_listing("punctstyle-test-console")  # twice: still one short formatter
    _job_record(logger)
    shown, kept = console.getvalue(), logfile.getvalue()
    inputs = next(line for line in shown.splitlines() if line.startswith("    input: "))
    assert inputs == (
        "    input: results/features/0.parquet, results/features/1.parquet, results/features/2.parquet, "
        "... 1,097 more (1,100 in all; every path in the log file)"
    )
    assert "characters; the whole reason in the log file)" in shown
    assert "Shell command: None" not in shown and "echo hi" in shown
    assert "Select jobs" not in shown and "Execute 2 jobs..." not in shown and "to the end of the world" in shown
    assert all(path in kept for path in PATHS) and "Shell command: None" in kept
    assert "Select jobs to execute..." in kept and "Execute 2 jobs..." in kept
    assert len(shown) < 2_000 < 60_000 < len(kept)


def test_full_console_on_request(monkeypatch):
    monkeypatch.setenv("PUNCTSTYLE_CONSOLE", "full")
    logger = logging.getLogger("punctstyle-test-console-full")
    console = io.StringIO()
    logger.handlers = [_handler("DefaultStreamHandler", console)]
    assert not install_short_job_listing("punctstyle-test-console-full")
    assert type(logger.handlers[0].formatter) is DefaultFormatter


def test_short_paths_and_reason():
    assert short_paths(["a", "b", "c", "d"], keep=3) == ["a", "b", "c", "d"]
    assert short_paths(list("abcde"), keep=3) == ["a", "b", "c", "... 2 more (5 in all; every path in the log file)"]
    assert short_reason("x" * 10, limit=10) == "x" * 10
    assert short_reason("x" * 11, limit=10) == "x" * 10 + " ... (11 characters; the whole reason in the log file)"
    assert short_reason(None) is None
