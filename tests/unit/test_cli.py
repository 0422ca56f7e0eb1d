"""Tests of the command line (punctstyle.cli): extract, features, attribute, errors."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from punctstyle import attribute as att
from punctstyle import cli
from punctstyle import recognition as rec
from punctstyle.marks import FEATURES
from tests.conftest import LE_GUIN, REPO

LE_GUIN_MARKS = [",", ".", ".", ".", ";", ";", '"', ",", '"', '"', ".", '"']
LE_GUIN_GAPS = [25, 6, 9, 2, 9, 7, 5, 1, 0, 4, 1, 0]

HEADER = (
    "The Project Gutenberg eBook of Stops, by Nobody\r\n\r\n"
    "This eBook is for the use of anyone anywhere; see the licence at the end! Really?\r\n\r\n"
    "Title: Stops\r\n\r\n"
    "*** START OF THE PROJECT GUTENBERG EBOOK STOPS ***\r\n\r\n"
)
# gutenbergpy's strip_headers looks for the footer only after 100 lines of text (real books
# are longer), hence the blank lines before it.
FOOTER = (
    "\r\n" * 110 + "*** END OF THE PROJECT GUTENBERG EBOOK STOPS ***\r\n\r\n"
    "Licence: redistribution is subject to the terms; (see the website), thank you!\r\n"
)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def le_guin(tmp_path):
    path = tmp_path / "le_guin.txt"
    path.write_text(LE_GUIN, encoding="utf-8")
    return path


# --------------------------------------------------------------------------- extract


def test_extract_le_guin(capsys, le_guin):
    code, out, err = run(capsys, "extract", str(le_guin))
    assert code == 0 and err == ""
    assert json.loads(out) == {"marks": LE_GUIN_MARKS, "gaps": LE_GUIN_GAPS}


def test_extract_all_marks_as_strings(capsys, tmp_path):
    path = tmp_path / "marks.txt"
    path.write_text("Wait... what? No! (Well) one: two, three; “four.”", encoding="utf-8")
    code, out, _ = run(capsys, "extract", str(path))
    assert code == 0
    assert json.loads(out) == {
        "marks": ["...", "?", "!", "(", ")", ":", ",", ";", '"', ".", '"'],
        "gaps": [1, 1, 1, 0, 1, 1, 1, 1, 0, 1, 0],
    }


def test_extract_strips_gutenberg_header_and_footer(capsys, tmp_path):
    wrapped = tmp_path / "wrapped.txt"
    wrapped.write_text(HEADER + LE_GUIN + FOOTER, encoding="utf-8")
    code, out, _ = run(capsys, "extract", str(wrapped))
    assert code == 0
    assert json.loads(out) == {"marks": LE_GUIN_MARKS, "gaps": LE_GUIN_GAPS}


def test_text_without_markers_is_kept_whole(capsys, tmp_path):
    path = tmp_path / "plain.txt"
    path.write_text("Licence: terms; thanks!", encoding="utf-8")
    _, out, _ = run(capsys, "extract", str(path))
    assert json.loads(out)["marks"] == [":", ";", "!"]


def test_extract_latin1_file(capsys, tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes("Un café, s'il vous plaît; merci.".encode("latin-1"))
    code, out, err = run(capsys, "extract", str(path))
    assert code == 0 and err == ""
    assert json.loads(out) == {"marks": [",", ";", "."], "gaps": [2, 3, 1]}


def test_extract_stdin_via_module():
    proc = subprocess.run(
        [sys.executable, "-m", "punctstyle", "extract", "-"],
        input=LE_GUIN.encode("utf-8"),
        capture_output=True,
        cwd=REPO,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"marks": LE_GUIN_MARKS, "gaps": LE_GUIN_GAPS}


def test_empty_text(capsys, tmp_path):
    path = tmp_path / "empty.txt"
    path.write_text("", encoding="utf-8")
    _, out, _ = run(capsys, "extract", str(path))
    assert json.loads(out) == {"marks": [], "gaps": []}
    _, out, _ = run(capsys, "features", str(path))
    assert all(not any(v) for v in json.loads(out).values())


# --------------------------------------------------------------------------- features


def test_features_le_guin(capsys, le_guin):
    code, out, err = run(capsys, "features", str(le_guin))
    assert code == 0 and err == ""
    features = json.loads(out)
    assert list(features) == list(FEATURES)
    assert [len(features[f]) for f in FEATURES] == [10, 100, 100, 200, 40, 100]
    # 12 marks: 4 quotation marks, 2 commas, 4 periods, 2 semicolons
    expected_f1 = [0, 4 / 12, 0, 0, 2 / 12, 4 / 12, 0, 2 / 12, 0, 0]
    np.testing.assert_allclose(features["f1"], expected_f1, rtol=0, atol=1e-15)
    for name in ("f1", "f3", "f5"):
        assert sum(features[name]) == pytest.approx(1.0)
    # three sentence ends with lengths 25+6, 9 and 2 + the quoted tail: 9+7+5+1+0+4+1
    f4 = np.array(features["f4"])
    assert f4[31] == pytest.approx(1 / 4) and f4[9] == pytest.approx(1 / 4) and f4[2] == pytest.approx(1 / 4)
    assert f4[27] == pytest.approx(1 / 4)


# --------------------------------------------------------------------------- help, errors


@pytest.mark.parametrize("command", ["extract", "features", "attribute"])
def test_subcommand_help(capsys, command):
    with pytest.raises(SystemExit) as exit_info:
        cli.main([command, "--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: punctstyle {command}") and "FILE" in out
    if command == "attribute":
        assert "--model DIR" in out and "--top N" in out and "--json" in out
        assert "results/models/attribution" in out


def test_top_level_help_lists_commands():
    proc = subprocess.run(
        [sys.executable, "-m", "punctstyle", "--help"], capture_output=True, text=True, cwd=REPO, timeout=120
    )
    assert proc.returncode == 0
    for command in ("extract", "features", "attribute"):
        assert command in proc.stdout


def test_missing_file_exits_2_with_one_line(tmp_path):
    missing = tmp_path / "no_such_book.txt"
    proc = subprocess.run(
        [sys.executable, "-m", "punctstyle", "extract", str(missing)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert str(missing) in proc.stderr and "no such file" in proc.stderr


@pytest.mark.parametrize("command", ["extract", "features", "attribute"])
def test_missing_file_each_command(capsys, tmp_path, command):
    missing = tmp_path / "gone.txt"
    code, out, err = run(capsys, command, str(missing))
    assert code == 2 and out == ""
    assert err == f"punctstyle: error: {missing}: no such file\n"


def test_folder_and_binary_files_are_refused(capsys, tmp_path):
    code, _, err = run(capsys, "extract", str(tmp_path))
    assert code == 2 and str(tmp_path) in err and "folder" in err and err.count("\n") == 1
    binary = tmp_path / "image.bin"
    binary.write_bytes(b"\x89PNG\x00\x00\x01")
    code, _, err = run(capsys, "features", str(binary))
    assert code == 2 and str(binary) in err and "binary" in err and err.count("\n") == 1


def test_unreadable_file(capsys, tmp_path):
    import os

    path = tmp_path / "secret.txt"
    path.write_text("Hidden, text.", encoding="utf-8")
    path.chmod(0)
    try:
        if os.access(path, os.R_OK):
            pytest.skip("running as a user who can read any file")
        code, _, err = run(capsys, "extract", str(path))
    finally:
        path.chmod(0o600)
    assert code == 2 and str(path) in err and "permission denied" in err and err.count("\n") == 1


def test_missing_model_dir(capsys, le_guin, tmp_path):
    folder = tmp_path / "no_model"
    code, out, err = run(capsys, "attribute", str(le_guin), "--model", str(folder))
    assert code == 2 and out == ""
    assert err.startswith(f"punctstyle: error: {folder}: model folder does not exist")
    assert err.count("\n") == 1


def test_model_dir_without_bundle(capsys, le_guin, tmp_path):
    code, _, err = run(capsys, "attribute", str(le_guin), "--model", str(tmp_path))
    assert code == 2
    assert f"{tmp_path}: not an attribution bundle, missing mlp.pt, signatures.parquet" in err
    assert err.count("\n") == 1


def test_bad_top_is_a_usage_error(capsys, le_guin):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["attribute", str(le_guin), "--top", "0"])
    assert exit_info.value.code == 2
    assert "positive integer" in capsys.readouterr().err


# --------------------------------------------------------------------------- attribute (a tiny bundle)


def sentences(style: int, n: int, seed: int) -> str:
    """A text in one of three punctuation styles, our own words."""
    rng = np.random.default_rng(seed)
    words = ["lamp", "river", "cat", "letter", "boat", "pear", "clock", "gate"]

    def clause() -> str:
        return " ".join(rng.choice(words, size=rng.integers(2, 6)))

    out = []
    for _ in range(n):
        if style == 0:
            out.append(f"{clause().capitalize()}; {clause()}; {clause()}.")
        elif style == 1:
            out.append(f"{clause().capitalize()}, {clause()} ({clause()}), {clause()}.")
        else:
            out.append(f'"{clause().capitalize()}!" {clause()}? {clause()}...')
    return " ".join(out)


@pytest.fixture(scope="module")
def tiny_bundle(tmp_path_factory):
    """A bundle written by build_attribution_bundle from three invented styles."""
    import pandas as pd

    from punctstyle.book import write_sequence
    from punctstyle.extract import extract
    from punctstyle.features import compute_features
    from punctstyle.marks import feature_column_names

    folder = tmp_path_factory.mktemp("bundle")
    authors = ["Semicolon, Sam", "Comma, Cid", "Bang, Bea"]
    rows, paths = [], []
    for book_id in range(1, 16):
        style = book_id % 3
        sequence = extract(sentences(style, 60, book_id))
        path = folder / "sequences" / f"{book_id}.parquet"
        write_sequence(path, book_id, sequence)
        paths.append(path)
        row = {"book_id": book_id, "author": authors[style], "n_marks": len(sequence)}
        features = compute_features(sequence.marks, sequence.gaps)
        for name in FEATURES:
            row.update(zip(feature_column_names(name), features[name]))
        rows.append(row)
    frame = pd.DataFrame(rows)
    tables = {f: frame[["book_id", "author", "n_marks", *feature_column_names(f)]] for f in FEATURES}
    bundle = folder / "attribution"
    outputs = {key: bundle / name for key, name in att.BUNDLE_FILES.items()}
    manifest = att.build_attribution_bundle(
        tables,
        paths + [folder / "sequences" / "99.parquet"],  # a file of a book not in the corpus
        outputs,
        settings={"mark_grid": [10, 20, 40, 80]},
        mlp={"hidden_units": 16, "max_epochs": 20, "patience": 5, "device": "cpu"},
        num_threads=1,
        config={"note": "unit test"},
    )
    return bundle, manifest, authors


def test_bundle_manifest(tiny_bundle):
    bundle, manifest, authors = tiny_bundle
    assert manifest["classes"] == sorted(authors)
    assert manifest["n_books"] == 15 and manifest["n_authors"] == 3
    assert manifest["feature_set"] == list(FEATURES)
    assert manifest["config"] == {"note": "unit test"}
    assert manifest["mlp"]["params"]["hidden"] == 16
    on_disk = json.loads((bundle / "manifest.json").read_text())
    assert on_disk == json.loads(json.dumps(manifest))
    threshold = json.loads((bundle / "threshold.json").read_text())
    assert threshold["grid"] == [10, 20, 40, 80] and len(threshold["curve"]) == 4
    assert threshold["min_marks"] in (10, 20, 40, 80) and threshold["estimated"] is True
    assert (
        threshold["feature"] in ("f3", "f1") and threshold["full_accuracy"] > threshold["baseline_accuracy"]
    )
    chosen = threshold["curves"][threshold["feature"]]
    assert chosen["curve"] == threshold["curve"] and chosen["n_min"] == threshold["min_marks"]
    loaded = att.load_attribution_bundle(bundle)
    assert loaded.min_marks == threshold["min_marks"]
    assert list(loaded.signatures.index) == sorted(authors)
    assert isinstance(loaded.model, rec.TrainedMLP)


def test_attribute_json_and_table(capsys, tiny_bundle, tmp_path):
    bundle, _, authors = tiny_bundle
    text = tmp_path / "new.txt"
    text.write_text(sentences(1, 40, seed=1234), encoding="utf-8")
    code, out, err = run(capsys, "attribute", str(text), "--model", str(bundle), "--json", "--top", "2")
    assert code == 0 and err == ""
    result = json.loads(out)
    assert result["warning"] is None and result["file"] == str(text)
    assert [r["author"] for r in result["authors"]][0] == "Comma, Cid"
    assert len(result["authors"]) == 2
    assert set(result["authors"][0]) == {"rank", "author", "probability", "kl_f3", "kl_f1"}
    code, out, err = run(capsys, "attribute", str(text), "--model", str(bundle))
    assert code == 0 and err == ""
    lines = out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.lstrip().startswith("rank"))
    assert lines[header + 2].split()[:3] == ["1", "Comma,", "Cid"]
    assert len([line for line in lines[header + 2 :] if line.lstrip()[:1].isdigit()]) == 3


def test_attribute_short_text_warns(capsys, tiny_bundle, tmp_path):
    bundle, _, _ = tiny_bundle
    needed = att.load_attribution_bundle(bundle).min_marks
    text = tmp_path / "short.txt"
    text.write_text("Yes; no.", encoding="utf-8")
    code, out, err = run(capsys, "attribute", str(text), "--model", str(bundle), "--json")
    assert code == 0
    warning = json.loads(out)["warning"]
    assert warning.startswith(f"too short to say anything: 2 marks, at least {needed} needed for")
    assert err == f"punctstyle: {text}: {warning}\n"


def test_threshold_not_estimated_when_no_better_than_chance():
    from punctstyle.extract import extract

    sequence = extract(sentences(0, 30, seed=7))
    books = [(sequence.marks, sequence.gaps)] * 6  # identical books: KL cannot tell them apart
    record = att.threshold_record(books, ["a", "a", "a", "b", "b", "b"], grid=[10, 20])
    assert record["min_marks"] is None and record["estimated"] is False
    assert record["baseline_accuracy"] == pytest.approx(0.5)
    assert record["note"].startswith("not estimated: at full length no KL feature")
    assert set(record["curves"]) == {"f3", "f1"}
    json.dumps(record)  # JSON-serialisable


def test_threshold_not_estimated_without_test_books():
    books = [(np.array([4, 5], np.uint8), np.array([1, 2], np.uint32))] * 2
    record = att.threshold_record(books, ["a", "b"], grid=[10])
    assert record["min_marks"] is None and record["note"].startswith("not estimated: no test books")


def test_too_short_without_threshold(tiny_bundle):
    bundle = att.load_attribution_bundle(tiny_bundle[0])
    bundle.threshold = {**bundle.threshold, "min_marks": None}
    assert bundle.too_short(3) is None
    assert "no punctuation mark" in bundle.too_short(0)
