"""A rule's script that ends with a known error prints one line, not a traceback of our code
(issue 22 item 6): bad input, an empty selection, a failed catalog download, a full disk."""

from __future__ import annotations

import errno
import subprocess
import sys
import textwrap

import pytest

from punctstyle.sources.selection import EmptySelectionError
from punctstyle.sources.transport import DownloadError
from punctstyle.io import InputError, atomic_path, write_text_atomic
from punctstyle.logs import one_line_error


def test_known_errors_are_one_line_and_bugs_are_not():
    assert one_line_error(InputError("cat.csv: catalog file is empty")) == "cat.csv: catalog file is empty"
    assert one_line_error(EmptySelectionError("cat.csv: no book selected")) == "cat.csv: no book selected"
    assert one_line_error(DownloadError("http://h/x.csv: catalog download failed:\\n http 404")) == (
        "http://h/x.csv: catalog download failed:\\n http 404"
    )
    full = OSError(errno.ENOSPC, "No space left on device", "out/books/7.json")
    assert one_line_error(full) == "out/books/7.json: No space left on device (nothing half-written is left behind)"
    assert one_line_error(KeyError("book_id")) is None
    assert one_line_error(OSError(errno.ECONNRESET, "reset")) is None


def test_a_full_disk_names_the_output_not_its_temporary_file(tmp_path):
    target = tmp_path / "books" / "7.json"
    with pytest.raises(OSError) as caught:
        with atomic_path(target) as tmp:
            tmp.write_text("{")
            raise OSError(errno.ENOSPC, "No space left on device", str(tmp))
    assert caught.value.errno == errno.ENOSPC and caught.value.filename == str(target)
    assert list(target.parent.iterdir()) == []  # nothing half-written
    write_text_atomic(target, "{}")
    with pytest.raises(OSError) as other:  # an input's error inside the block is left as it is
        with atomic_path(target):
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", "input.csv")
    assert other.value.filename == "input.csv" and target.read_text() == "{}"


@pytest.mark.parametrize(
    ("raise_line", "expected"),
    [
        ('raise InputError("cat.csv: catalog file is empty")', "punctstyle: cat.csv: catalog file is empty"),
        (
            'raise OSError(errno.ENOSPC, "No space left on device", "out/corpus/f1.parquet")',
            "punctstyle: out/corpus/f1.parquet: No space left on device (nothing half-written is left behind)",
        ),
        (
            'raise DownloadError("http://127.0.0.1:1/feeds/pg_catalog.csv: catalog download failed: http 404 (1 attempt)")',
            "punctstyle: http://127.0.0.1:1/feeds/pg_catalog.csv: catalog download failed: http 404 (1 attempt)",
        ),
    ],
)
def test_a_script_ends_in_one_line(tmp_path, raise_line, expected):
    script = tmp_path / "job.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import errno
            from punctstyle.sources.transport import DownloadError
            from punctstyle.io import InputError
            from punctstyle.logs import configure_logging
            configure_logging({str(tmp_path / 'job.log')!r})
            {raise_line}
            """
        )
    )
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert proc.stderr.strip() == expected
    assert expected.removeprefix("punctstyle: ") in (tmp_path / "job.log").read_text()


def test_a_bug_keeps_its_traceback(tmp_path):
    script = tmp_path / "bug.py"
    script.write_text("from punctstyle.logs import configure_logging\nconfigure_logging(None)\n{}['x']\n")
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and "Traceback" in proc.stderr and "KeyError" in proc.stderr
