"""The per-book commands (``python -m punctstyle.book.jobs.STEP``, issue 37 item 1): the same
files as the steps they replace, one-line errors, and only the imports each step needs."""

from __future__ import annotations

import argparse
import gzip
import json
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

from punctstyle.book.feature_rows import book_features
from punctstyle.book.inclusion import InclusionRule
from punctstyle.book.jobs import download, extract, optional_int
from punctstyle.book.steps import extract_book
from punctstyle.plan.book_jobs import POLICY_VARIABLE, PYTHON_VARIABLE, download_policy, job_environment, job_python
from punctstyle.text.chunk_cache import ChunkCachedExtractor
from punctstyle.text.tokenizer import TokenizerRules
from tests.conftest import REPO
from tests.fixtures.one_book import TEXT
from tests.fixtures.tei_corpus import tei_document

# modules a step must not import (their cost is the point of the commands: docs/performance.md)
NEVER = {"snakemake", "pandas", "torch", "spacy", "matplotlib"}


def job(step: str, *args: str, check: bool = True) -> tuple[subprocess.CompletedProcess, set[str]]:
    """Run ``python -X importtime -m punctstyle.book.jobs.STEP ARGS``: the process and the
    modules it imported (from the import-time lines, which ``-X importtime`` writes to stderr)."""
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", f"punctstyle.book.jobs.{step}", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    if check:
        assert proc.returncode == 0, proc.stderr[-3000:]
    modules = set(re.findall(r"^import time:\s+\d+ \|\s+\d+ \|\s+(\S+)$", proc.stderr, re.MULTILINE))
    assert modules, "no import-time lines"
    return proc, modules


def download_args(mirror: Path, out: Path, *extra: str) -> list[str]:
    return [
        "download", "7", "--base-url", f"file://{mirror}", "--templates", "files/{id}/{id}.txt",
        "files/{id}/{id}-0.zip", "--max-text-mb", "1", "--policy", download_policy(
            {"timeout_s": 5, "attempt_deadline_s": 10, "retries": 0, "backoff_s": 0.1, "user_agent": None}
        ),
        "--text", str(out / "7.txt.gz"), "--provenance", str(out / "7.json"), "--log", str(out / "7.download.log"),
        *extra,
    ]  # fmt: skip


def extract_args(out: Path, rules_file: Path, *extra: str) -> list[str]:
    return [
        "extract", "7", "--text", str(out / "7.txt.gz"), "--provenance", str(out / "7.json"),
        "--rules", str(rules_file), "--sequence", str(out / "s.parquet"), "--words", str(out / "w.parquet"),
        "--features", str(out / "f.parquet"), "--min-marks", "20", "--quotation", "double",
        "--log", str(out / "7.extract.log"), *extra,
    ]  # fmt: skip


def test_download_then_extract_write_the_steps_files_and_import_only_what_they_need(book_mirror, rules_file, tmp_path):
    _, modules = job(*download_args(book_mirror, tmp_path))
    provenance = json.loads((tmp_path / "7.json").read_text())
    assert provenance["status"] == "ok" and provenance["url"].endswith("files/7/7-0.zip")
    assert gzip.decompress((tmp_path / "7.txt.gz").read_bytes()).decode() == TEXT
    assert "book 7: ok" in (tmp_path / "7.download.log").read_text()
    # a file:// mirror needs neither numpy nor pyarrow nor an HTTP client
    assert not {m.split(".")[0] for m in modules} & (NEVER | {"numpy", "pyarrow", "requests", "urllib3"})

    _, modules = job(*extract_args(tmp_path, rules_file, "--excerpt-marks", "None"))
    # gutenbergpy's strip_headers without the chardet its module imports (punctstyle.text.clean);
    # no importlib.metadata (the rules file's spaCy version is not checked again in each job)
    assert not {m.split(".")[0] for m in modules} & (NEVER | {"chardet"}), modules
    assert "importlib.metadata" not in modules
    log = (tmp_path / "7.extract.log").read_text()
    assert "book 7: " in log and " marks, " in log and "book 7: included" in log

    # the same three files as extract_book then book_features (the two jobs it replaces)
    reference = tmp_path / "reference"
    reference.mkdir()
    extractor = ChunkCachedExtractor(rules=TokenizerRules.load(rules_file))
    extract_book(tmp_path / "7.txt.gz", tmp_path / "7.json", reference / "s.parquet", 7, extractor=extractor,
                 words_path=reference / "w.parquet")  # fmt: skip
    book_features(reference / "s.parquet", reference / "f.parquet", 7, InclusionRule(20, "double"))
    for name in ("s.parquet", "w.parquet", "f.parquet"):
        got, expected = pq.read_table(tmp_path / name), pq.read_table(reference / name)
        assert got.equals(expected) and got.schema.metadata == expected.schema.metadata, name


def test_extract_with_excerpts_writes_a_row_per_excerpt(book_mirror, rules_file, tmp_path):
    job(*download_args(book_mirror, tmp_path))
    job(*extract_args(tmp_path, rules_file, "--excerpt-marks", "50"))
    rows = pd.read_parquet(tmp_path / "f.parquet")
    assert len(rows) > 1 and set(rows["excerpt"]) == set(range(len(rows)))
    assert f"({len(rows)} excerpts)" in (tmp_path / "7.extract.log").read_text()


def test_a_book_not_downloaded_is_recorded_as_excluded(book_mirror, rules_file, tmp_path):
    job(*download_args(tmp_path / "empty-mirror", tmp_path))
    assert json.loads((tmp_path / "7.json").read_text())["status"] == "unavailable"
    job(*extract_args(tmp_path, rules_file))
    row = pd.read_parquet(tmp_path / "f.parquet").iloc[0]
    assert (row["status"], row["stage"]) == ("excluded", "download")
    assert row["reason"].startswith("download unavailable: not found at any of 2 URLs")


def test_a_corrupt_text_is_deleted_and_the_job_fails_in_one_line(book_mirror, rules_file, tmp_path):
    job(*download_args(book_mirror, tmp_path))
    text = tmp_path / "7.txt.gz"
    text.write_bytes(text.read_bytes()[:20])
    proc, _ = job(*extract_args(tmp_path, rules_file), check=False)
    assert proc.returncode == 1
    lines = [line for line in proc.stderr.splitlines() if not line.startswith("import time:")]
    assert lines == [f"punctstyle: {text}: not a valid gzip-compressed UTF-8 text (Compressed file ended before "
                     "the end-of-stream marker was reached); deleted it: the next run remakes it and everything "
                     "after it"], proc.stderr[-2000:]  # fmt: skip
    assert not text.exists() and not (tmp_path / "f.parquet").exists()


def test_ingest_reads_a_folder_document_without_numpy_or_pandas(tmp_path):
    document = tmp_path / "Quill" / "one.txt"
    document.parent.mkdir()
    document.write_text("Yes; no.\n", encoding="utf-8")
    _, modules = job(
        "ingest", "3", "--document", str(document), "--doc-id", "quill-one", "--file", "Quill/one.txt",
        "--max-text-mb", "1", "--text", str(tmp_path / "3.txt.gz"), "--provenance", str(tmp_path / "3.json"),
        "--log", str(tmp_path / "3.log"),
    )  # fmt: skip
    record = json.loads((tmp_path / "3.json").read_text())
    assert (record["status"], record["file"]) == ("ok", "Quill/one.txt")
    assert gzip.decompress((tmp_path / "3.txt.gz").read_bytes()) == b"Yes; no.\n"
    assert not {m.split(".")[0] for m in modules} & (NEVER | {"numpy", "pyarrow"})


def test_ingest_tei_reads_the_body_without_pandas(tmp_path):
    document = tmp_path / "one.xml"
    document.write_bytes(tei_document(["Oui, dit-elle ; non.", "Et puis ? Rien !"], language="fr"))
    _, modules = job(
        "ingest_tei", "4", "--document", str(document), "--doc-id", "one", "--file", "one.xml", "--parts", "body",
        "--notes", "False", "--max-text-mb", "1", "--text", str(tmp_path / "4.txt.gz"),
        "--provenance", str(tmp_path / "4.json"), "--log", str(tmp_path / "4.log"),
    )  # fmt: skip
    record = json.loads((tmp_path / "4.json").read_text())
    assert (record["status"], record["encoding"]) == ("ok", "tei")
    text = gzip.decompress((tmp_path / "4.txt.gz").read_bytes()).decode()
    assert "Oui, dit-elle" in text and "Préface" not in text and "Une note" not in text
    assert not {m.split(".")[0] for m in modules} & (NEVER | {"numpy", "pyarrow"}), modules


def test_the_space_table_is_str_isspace():
    import numpy as np

    from punctstyle.text.tokenizer_facts import _space_table

    expected = np.array([chr(c).isspace() for c in range(0x10000)])
    assert np.array_equal(_space_table(), expected) and expected.sum() > 20


MARKER_SETS = ("TEXT_START_MARKERS", "TEXT_END_MARKERS", "LEGALESE_START_MARKERS", "LEGALESE_END_MARKERS")


def test_strip_headers_is_gutenbergpys_without_importing_its_module():
    code = (
        "import sys; from punctstyle.text import clean\n"
        "clean.strip_headers(b'*** START OF THE PROJECT GUTENBERG EBOOK X ***\\nText.\\n')\n"
        "print(sorted({'gutenbergpy.textget', 'chardet', 'http.client', 'urllib.request'} & set(sys.modules)))"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == "[]"

    import gutenbergpy.textget as textget

    from punctstyle.text import clean

    markers = clean.gutenbergpy_markers()
    for name in MARKER_SETS:
        assert set(markers[name]) == {marker.encode() for marker in getattr(textget, name)}, name
    body = "".join(f"Line {i}: said he, \"no\".\r\n" for i in range(150))
    texts = [
        TEXT,
        f"Produced by someone\n{body}End of the Project Gutenberg EBook\nlicence\n",
        f"<<THIS ELECTRONIC VERSION OF\nlegal\nSERVICE THAT CHARGES FOR DOWNLOAD\n{body}",
        f"{body}*** START OF THIS PROJECT GUTENBERG X\n{body}{body}*** END OF THIS PROJECT GUTENBERG\nafter\n",
        "End of the Project Gutenberg, too early to count\nno markers\r\nsecond line\rthird",
        "",
    ]
    for text in texts:
        assert clean.strip_headers(text.encode()) == textget.strip_headers(text.encode()), text[:60]


def test_marker_sets_from_the_module_when_its_source_cannot_be_read(monkeypatch):
    import gutenbergpy.textget as textget

    from punctstyle.text import clean

    def no_source(name, package=None):
        raise ImportError("no source here")

    clean.gutenbergpy_markers.cache_clear()
    monkeypatch.setattr(clean.importlib.util, "find_spec", no_source)
    try:
        markers = clean.gutenbergpy_markers()
    finally:
        clean.gutenbergpy_markers.cache_clear()
    assert set(markers["TEXT_END_MARKERS"]) == {marker.encode() for marker in textget.TEXT_END_MARKERS}


def test_null_settings_as_snakemake_formats_them():
    assert optional_int("None") is None and optional_int("500") == 500
    args = extract.parser().parse_args(["1", "--text", "t", "--provenance", "p", "--rules", "r", "--sequence", "s",
                                "--words", "w", "--features", "f", "--min-marks", "5", "--quotation", "any",
                                "--log", "l", "--excerpt-marks", "None"])  # fmt: skip
    assert args.excerpt_marks is None and args.min_marks == 5 and args.book_id == 1


def test_the_jobs_python_is_snakemakes_unless_an_environment_provides_one():
    assert job_python(set(), executable="/opt/my venv/bin/python") == "/opt/my venv/bin/python"
    assert job_python(set()) == sys.executable

    class Method:  # Snakemake's DeploymentMethod members have a name
        def __init__(self, name: str) -> None:
            self.name = name

    assert job_python({Method("CONDA")}) == job_python({Method("APPTAINER")}) == "python"
    assert job_python({Method("ENV_MODULES")}, executable="/x/python") == "/x/python"


def test_the_download_policy_is_every_retry_setting_and_the_user_agent_as_one_json_argument():
    mirror = {"timeout_s": 30, "attempt_deadline_s": 300, "retries": 3, "backoff_s": 2.0, "user_agent": None,
              "base_url": "u", "max_text_mb": 2}  # fmt: skip
    assert download_policy(mirror) == (
        '{"attempt_deadline_s": 300, "backoff_s": 2.0, "retries": 3, "timeout_s": 30, "user_agent": null}'
    )
    policy = download_policy({**mirror, "user_agent": "me (mail: a@b.c)"})
    args = download.parser().parse_args(["1", "--base-url", "u", "--templates", "a", "b", "--max-text-mb", "2",
                                "--text", "t", "--provenance", "p", "--log", "l", "--policy", policy])  # fmt: skip
    assert args.policy == download.RetryPolicy(30.0, 300.0, 3, 2.0, "me (mail: a@b.c)")
    assert args.templates == ["a", "b"]
    environment = job_environment(set(), mirror)
    assert environment == {PYTHON_VARIABLE: sys.executable, POLICY_VARIABLE: download_policy(mirror)}


@pytest.mark.parametrize(
    "policy, message",
    [
        ("{timeout_s: 1}", "not JSON"),
        ('{"timeout_s": 1}', "needs exactly the keys"),
        ("[1, 2]", "got list"),
        ('{"timeout_s": "x", "attempt_deadline_s": 1, "retries": 1, "backoff_s": 1, "user_agent": null}',
         "not a number"),
    ],
)  # fmt: skip
def test_a_bad_policy_is_one_usage_line(policy, message):
    with pytest.raises(argparse.ArgumentTypeError, match=message):
        download.retry_policy(policy)


def test_the_shell_commands_read_python_and_policy_from_the_environment_the_workflow_sets():
    """Lint-clean commands (no ``{NAME}`` from outside the rule) whose variables common.smk sets."""
    rules = Path(__file__).resolve().parents[2] / "workflow" / "rules"
    common = (rules / "common.smk").read_text(encoding="utf-8")
    assert re.search(r"os\.environ\.update\(\s*job_environment\(", common)
    for smk, module in [("books", "extract"), ("gutenberg", "download"), ("folder", "ingest"), ("tei", "ingest_tei")]:
        text = (rules / f"{smk}.smk").read_text(encoding="utf-8")
        assert f'\'"${PYTHON_VARIABLE}" -m punctstyle.book.jobs.{module} ' in text, smk
    assert f'--policy "${POLICY_VARIABLE}"' in (rules / "gutenberg.smk").read_text(encoding="utf-8")
