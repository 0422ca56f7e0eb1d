"""Logging for workflow scripts: everything a rule's script says goes to its ``log:`` file."""

from __future__ import annotations

import logging
import os


def configure_logging(log_path: str | os.PathLike[str] | None, level: int = logging.INFO) -> logging.Logger:
    """Send the ``punctstyle`` logger (and warnings) to ``log_path`` (a rule's log file)."""
    logger = logging.getLogger("punctstyle")
    logger.setLevel(level)
    for handler in list(logger.handlers):
        logger.removeHandler(handler)
        handler.close()
    handler: logging.Handler
    if log_path:
        os.makedirs(os.path.dirname(os.fspath(log_path)) or ".", exist_ok=True)
        handler = logging.FileHandler(log_path, mode="w", encoding="utf-8")
    else:
        handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    logger.addHandler(handler)
    logging.captureWarnings(True)
    return logger
