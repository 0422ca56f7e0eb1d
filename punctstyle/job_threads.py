"""Thread pools of the numerical libraries, sized to a job's threads before they start.

numpy's OpenBLAS starts one thread per core when numpy is imported, whether or not the job
ever multiplies a matrix: on a 2-core machine that cost a per-book job about 0.05 CPU s
(``import numpy, pyarrow.parquet``: median 0.203 CPU s against 0.146 with
``OPENBLAS_NUM_THREADS=1``, 12 interleaved runs), paid twice a book (extraction and
features), for jobs that run on one thread. A per-book script therefore calls
:func:`limit_numeric_threads` with its rule's ``threads`` before importing anything that
imports numpy. Values the user exported win (``setdefault``).
"""

from __future__ import annotations

import os
import sys

THREAD_VARIABLES: tuple[str, ...] = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
"""The environment variables read by OpenBLAS (pip's numpy), OpenMP and MKL (conda's numpy
may use either) when their thread pools start."""


def limit_numeric_threads(threads: int) -> dict[str, str]:
    """Set each of :data:`THREAD_VARIABLES` to ``threads`` unless already set; returns the
    values in force. Raises ``RuntimeError`` when numpy is already imported (too late: its
    pool has started), unless each variable already says ``threads``."""
    if threads < 1:
        raise ValueError(f"threads must be at least 1, not {threads}")
    if "numpy" in sys.modules:
        # too late to change, fine when the pools already have that size (a job forked by the
        # book-job server, whose numpy was imported at one thread: punctstyle.book.job_server)
        if all(os.environ.get(name) == str(threads) for name in THREAD_VARIABLES):
            return {name: os.environ[name] for name in THREAD_VARIABLES}
        raise RuntimeError("limit_numeric_threads() must run before numpy is imported")
    return {name: os.environ.setdefault(name, str(threads)) for name in THREAD_VARIABLES}
