"""A corrupt per-book file the workflow wrote is deleted, so that the next run remakes it
(issue 22 item 2; the workflow side is tests/workflow/test_reruns.py)."""

from __future__ import annotations

import gzip

import numpy as np
import pytest

from punctstyle.book.inclusion import InclusionRule
from punctstyle.book.steps import book_features, extract_book
from punctstyle.book.sequence_file import write_sequence
from punctstyle.corpus.tables import read_feature_rows
from punctstyle.text.extract import PunctuationSequence
from punctstyle.io import InputError, discarding_unreadable


def test_a_truncated_sequence_is_deleted_with_one_line(tmp_path):
    sequence = tmp_path / "sequences" / "7.parquet"
    sequence.parent.mkdir()
    write_sequence(sequence, 7, PunctuationSequence(np.array([1, 5, 5], np.uint8), np.array([0, 3, 4], np.uint32)))
    data = sequence.read_bytes()
    sequence.write_bytes(data[: len(data) // 2])
    other = tmp_path / "other.parquet"
    other.write_bytes(b"untouched")
    with pytest.raises(InputError) as caught:
        with discarding_unreadable([str(other), str(sequence)]):
            book_features(sequence, tmp_path / "features.parquet", 7, InclusionRule(min_marks=1, require_quotation_marks="none"))
    message = str(caught.value)
    assert message.startswith(f"{sequence}: not a readable sequence Parquet file")
    assert message.endswith("; deleted it: the next run remakes it and everything after it")
    assert "\n" not in message
    assert not sequence.exists() and other.read_bytes() == b"untouched"
    assert not (tmp_path / "features.parquet").exists()


def test_corrupt_texts_provenance_and_feature_rows_are_deleted(tmp_path):
    text, provenance = tmp_path / "1.txt.gz", tmp_path / "1.json"
    text.write_bytes(gzip.compress(b"Yes, no.")[:-6])
    provenance.write_text('{"status": "ok"}')
    with pytest.raises(InputError, match=r"1.txt.gz: not a valid gzip.*; deleted it"):
        with discarding_unreadable([text, provenance]):
            extract_book(text, provenance, tmp_path / "s.parquet", 1, words_path=tmp_path / "w.parquet")
    assert not text.exists() and provenance.exists()
    provenance.write_text('{"status": "o')
    with pytest.raises(InputError, match=r"1.json: cannot read provenance JSON.*; deleted it"):
        with discarding_unreadable([text, provenance]):
            extract_book(text, provenance, tmp_path / "s.parquet", 1)
    assert not provenance.exists()
    row = tmp_path / "features" / "3.parquet"
    row.parent.mkdir()
    row.write_bytes(b"PAR1 not really")
    with pytest.raises(InputError, match=r"3.parquet: not a readable feature Parquet file.*; deleted it"):
        with discarding_unreadable([str(row)]):
            read_feature_rows([str(row)])
    assert not row.exists()


def test_errors_naming_no_listed_file_are_left_alone(tmp_path):
    kept = tmp_path / "kept.parquet"
    kept.write_bytes(b"x")
    with pytest.raises(InputError, match=r"^elsewhere: bad$"):
        with discarding_unreadable([str(kept)]):
            raise InputError("elsewhere: bad")
    with pytest.raises(ValueError, match="other"):
        with discarding_unreadable([str(kept)]):
            raise ValueError(f"{kept}: other")
    assert kept.exists()


EXTRACT_IN_A_FRESH_PROCESS = """
import gzip, json, sys
from pathlib import Path
from punctstyle.book.steps import extract_book
from punctstyle.text.chunk_cache import ChunkCachedExtractor
folder = Path(sys.argv[1])
(folder / "1.txt.gz").write_bytes(gzip.compress(b'"Yes," she said; no. ' * 50))
(folder / "1.json").write_text(json.dumps({"status": "ok", "encoding": "utf-8"}))
extract_book(folder / "1.txt.gz", folder / "1.json", folder / "s.parquet", 1, extractor=ChunkCachedExtractor(),
             words_path=folder / "w.parquet")
print("pandas" in sys.modules)
"""


def test_an_extraction_job_imports_no_pandas(tmp_path):
    """pyarrow.array and friends import pandas (about 0.2 CPU s, a third of a per-book job):
    the sequence and words files (with the word stream) are written without it."""
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, "-c", EXTRACT_IN_A_FRESH_PROCESS, str(tmp_path)], capture_output=True, text=True, check=True
    )
    assert result.stdout.split() == ["False"]
    assert (tmp_path / "w.parquet").exists()


FINISH_A_JOB = """
import logging, sys
from punctstyle.book.job_exit import finish_job
from punctstyle.logs import configure_logging
log = configure_logging(sys.argv[1])
log.info("book 7: included")
print("written", end="")
finish_job()
print("never")
"""


def test_a_job_ends_with_its_log_and_output_flushed_and_status_0(tmp_path):
    import subprocess
    import sys

    log = tmp_path / "7.log"
    result = subprocess.run([sys.executable, "-c", FINISH_A_JOB, str(log)], capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout == "written"
    assert log.read_text().rstrip().endswith("book 7: included")


def test_a_book_text_is_gzip_level_1_without_mtime_and_reads_back(tmp_path):
    from punctstyle.io import read_gzip_text, write_gzip_text_atomic

    text = '"Yes," she said; no — é, ж.\n' * 300
    path = tmp_path / "1.txt.gz"
    write_gzip_text_atomic(path, text)
    data = path.read_bytes()
    assert data == gzip.compress(text.encode("utf-8"), compresslevel=1, mtime=0)
    assert data[4:8] == b"\0\0\0\0" and data[8] == 4  # mtime 0; XFL 4: the fastest level
    assert read_gzip_text(path) == text
    write_gzip_text_atomic(path, text)
    assert path.read_bytes() == data  # equal texts, equal bytes
