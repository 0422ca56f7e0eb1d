"""Tests of the command line (punctstyle.cli): extract, features, attribute, errors."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from punctstyle.attribution import bundle as bundles
from punctstyle.attribution.bundle_build import build_attribution_bundle
from punctstyle import cli
from punctstyle.attribution.length import threshold_record
from punctstyle.classifiers.mlp import TrainedMLP
from punctstyle.settings import schema_default, schema_defaults
from punctstyle.marks import FEATURE_SIZES
from punctstyle.rule_names import FEATURES, PAPER_FEATURES
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


@pytest.mark.parametrize(
    ("content", "reason"),
    [("", "empty text, nothing to compute features of"),
     (" \n\t\n", "empty text, nothing to compute features of"),
     ("no marks at all here", "no punctuation mark in the text, nothing to compute features of")],
)
def test_empty_or_markless_text(capsys, tmp_path, content, reason):
    """``features`` refuses in one line with exit 2; ``extract`` prints the empty sequence."""
    path = tmp_path / "empty.txt"
    path.write_text(content, encoding="utf-8")
    code, out, err = run(capsys, "extract", str(path))
    assert code == 0 and err == ""
    assert json.loads(out) == {"marks": [], "gaps": []}
    code, out, err = run(capsys, "features", str(path))
    assert code == 2 and out == ""
    assert err == f"punctstyle: error: {path}: {reason}\n"


HTML_PAGES = [
    b"<!DOCTYPE html><html><body>Not found, sorry.</body></html>",
    b"  \n<html><head><title>404</title></head><body>Gone!</body></html>",
    b"\xef\xbb\xbf<?xml version='1.0'?><error>No, sorry.</error>",
    "<!doctype html><p>Nope, gone.</p>".encode("utf-16"),
]


@pytest.mark.parametrize("page", HTML_PAGES)
@pytest.mark.parametrize("command", ["extract", "features", "attribute"])
def test_html_pages_are_refused_as_on_the_download_route(capsys, tmp_path, page, command):
    """The CLI refuses what the download route refuses (one shared check)."""
    from punctstyle.sources.decoding import html_start

    assert html_start(page) is not None
    path = tmp_path / "page.txt"
    path.write_bytes(page)
    code, out, err = run(capsys, command, str(path), "--model", str(tmp_path / "none")) if command == "attribute" \
        else run(capsys, command, str(path))
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    assert err.startswith(f"punctstyle: error: {path}: an HTML page, not a text (starts with <")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["page.txt"]  # nothing written


def test_text_mentioning_html_later_is_not_refused(capsys, tmp_path):
    path = tmp_path / "essay.txt"
    path.write_text("On markup, briefly: <html> starts a page. Fine!", encoding="utf-8")
    code, out, _ = run(capsys, "extract", str(path))
    assert code == 0 and json.loads(out)["marks"]


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-8-sig"])
def test_byte_order_marked_files_decode_as_in_a_folder_corpus(capsys, tmp_path, le_guin, encoding):
    """A UTF-16 (or UTF-8) file with its byte-order mark is read, as the folder route reads it."""
    import codecs

    from punctstyle.sources.folder import decode_document

    bom = {"utf-16-le": codecs.BOM_UTF16_LE, "utf-16-be": codecs.BOM_UTF16_BE}.get(encoding, b"")
    path = tmp_path / "marked.txt"
    path.write_bytes(bom + le_guin.read_text(encoding="utf-8").encode(encoding))
    assert decode_document(path.read_bytes())[0] == le_guin.read_text(encoding="utf-8")
    code, out, err = run(capsys, "extract", str(path))
    assert code == 0 and err == ""
    assert json.loads(out) == {"marks": LE_GUIN_MARKS, "gaps": LE_GUIN_GAPS}


def test_utf16_without_byte_order_mark_is_still_binary(capsys, tmp_path):
    path = tmp_path / "bare.txt"
    path.write_bytes("Hello, there.".encode("utf-16-le"))
    code, out, err = run(capsys, "extract", str(path))
    assert code == 2 and out == ""
    assert err == f"punctstyle: error: {path}: not a plain text file (binary content, NUL bytes)\n"


# --------------------------------------------------------------------------- features


def test_features_le_guin(capsys, le_guin):
    code, out, err = run(capsys, "features", str(le_guin))
    assert code == 0 and err == ""
    features = json.loads(out)
    assert list(features) == list(FEATURES)
    assert [len(features[f]) for f in FEATURES] == [FEATURE_SIZES[f] for f in FEATURES]
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
    assert "--max-mb MB" in out


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


@pytest.mark.parametrize("command", ["extract", "features", "attribute"])
def test_larger_than_max_mb_is_refused_in_one_line(capsys, tmp_path, command):
    path = tmp_path / "big.txt"
    path.write_text("Yes, no. " * 20_000, encoding="utf-8")  # 180,000 bytes
    code, out, err = run(capsys, command, str(path), "--max-mb", "0.1")
    assert code == 2 and out == ""
    assert err == f"punctstyle: error: {path}: larger than 0.1 MB, the most this command reads (raise it with --max-mb)\n"
    code, out, _ = run(capsys, "extract", str(path), "--max-mb", "0.2")
    assert code == 0 and len(json.loads(out)["marks"]) == 40_000


def test_max_mb_defaults_to_the_workflows_max_text_mb(capsys):
    args = cli.build_parser().parse_args(["extract", "book.txt"])
    assert args.max_mb == schema_default("mirror", "max_text_mb")
    with pytest.raises(SystemExit):
        cli.build_parser().parse_args(["extract", "book.txt", "--max-mb", "0"])
    assert "positive number" in capsys.readouterr().err


class EndlessZeros:
    """A stream of NUL bytes without end that counts what was read from it."""

    def __init__(self) -> None:
        self.consumed = 0

    def read(self, size: int) -> bytes:
        self.consumed += size
        return bytes(size)


def test_reading_stops_one_byte_after_the_limit():
    stream = EndlessZeros()
    with pytest.raises(cli.InputError, match="larger than 1 MB"):
        cli._read_bounded(stream, "zeros", 1024 * 1024)
    assert stream.consumed == 1024 * 1024 + 1


def test_dev_zero_ends_in_one_line():
    import os

    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    proc = subprocess.run(
        [sys.executable, "-m", "punctstyle", "extract", "/dev/zero", "--max-mb", "4"],
        capture_output=True, text=True, cwd=REPO, timeout=120,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == (
        "punctstyle: error: /dev/zero: larger than 4 MB, the most this command reads (raise it with --max-mb)\n"
    )


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
    from punctstyle.text.chunk_cache import extract
    from tests.fixtures.corpus_files import corpus_files

    folder = tmp_path_factory.mktemp("bundle")
    authors = ["Semicolon, Sam", "Comma, Cid", "Bang, Bea"]
    tables, paths = corpus_files(
        folder, [(book_id, authors[book_id % 3], extract(sentences(book_id % 3, 60, book_id))) for book_id in range(1, 16)]
    )
    bundle = folder / "attribution"
    outputs = {key: bundle / name for key, name in bundles.BUNDLE_FILES.items()}
    defaults = schema_defaults()
    mlp = {**defaults["recognition"]["mlp"], "hidden_units": 16, "max_epochs": 20, "patience": 5}
    manifest = build_attribution_bundle(
        tables,
        paths + [folder / "sequences" / "99.parquet"],  # a file of a book not in the corpus
        outputs,
        settings=bundles.AttributionSettings.from_config({**defaults["attribution"], "mark_grid": [10, 20, 40, 80]}),
        classifier_options={"mlp": {"params": mlp, "device": "cpu", "num_threads": 1}},
    )
    return bundle, manifest, authors


def test_bundle_manifest(tiny_bundle):
    bundle, manifest, authors = tiny_bundle
    assert manifest["classes"] == sorted(authors)
    assert manifest["n_books"] == 15 and manifest["n_authors"] == 3
    assert manifest["feature_set"] == list(PAPER_FEATURES)
    assert manifest["settings"]["mark_grid"] == [10, 20, 40, 80]
    assert manifest["settings"]["fraction"] == schema_default("attribution", "fraction")
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
    # the MLP's measured accuracy per length, on the same split and lengths as KL's
    assert [row["n_marks"] for row in threshold["mlp_curve"]] == [10, 20, 40, 80]
    assert all(0 <= row["accuracy"] <= 1 for row in threshold["mlp_curve"])
    assert 0 <= threshold["mlp_full_accuracy"] <= 1
    loaded = bundles.load_attribution_bundle(bundle)
    assert loaded.min_marks == threshold["min_marks"]
    assert list(loaded.signatures.index) == sorted(authors)
    assert isinstance(loaded.model, TrainedMLP)


def test_attribute_json_and_table(capsys, tiny_bundle, tmp_path):
    bundle, _, authors = tiny_bundle
    text = tmp_path / "new.txt"
    text.write_text(sentences(1, 40, seed=1234), encoding="utf-8")
    code, out, err = run(capsys, "attribute", str(text), "--model", str(bundle), "--json", "--top", "2")
    assert code == 0 and err == ""
    result = json.loads(out)
    assert result["warning"] is None and result["too_short"] is False and result["file"] == str(text)
    assert [r["author"] for r in result["authors"]][0] == "Comma, Cid"
    assert len(result["authors"]) == 2
    assert set(result["authors"][0]) == {"rank", "author", "probability", "kl_f3", "kl_f1"}
    code, out, err = run(capsys, "attribute", str(text), "--model", str(bundle))
    assert code == 0 and err == ""
    lines = out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.lstrip().startswith("rank"))
    assert lines[header + 2].split()[:3] == ["1", "Comma,", "Cid"]
    assert len([line for line in lines[header + 2 :] if line.lstrip()[:1].isdigit()]) == 3


def test_attribute_short_text_warns_in_json_and_table(capsys, tiny_bundle, tmp_path):
    bundle, _, _ = tiny_bundle
    needed = bundles.load_attribution_bundle(bundle).min_marks
    assert needed > 2
    text = tmp_path / "short.txt"
    text.write_text("Yes; no.", encoding="utf-8")
    code, out, err = run(capsys, "attribute", str(text), "--model", str(bundle), "--json")
    assert code == 0
    result = json.loads(out)
    assert result["too_short"] is True and result["n_marks"] == 2 and result["min_marks"] == needed
    warning = result["warning"]
    assert warning.startswith(f"too short to say anything: 2 marks, at least {needed} needed for")
    assert err == f"punctstyle: {text}: {warning}\n"
    code, out, _ = run(capsys, "attribute", str(text), "--model", str(bundle))
    assert code == 0
    assert f"WARNING: {warning}" in out.splitlines()


@pytest.mark.parametrize(
    ("content", "reason"),
    [("", "empty text, nothing to attribute"), ("  \n\t\n", "empty text, nothing to attribute"),
     ("no marks at all here", "no punctuation mark in the text, nothing to attribute")],
)
def test_attribute_refuses_empty_and_markless_texts(capsys, tiny_bundle, tmp_path, content, reason):
    bundle, _, _ = tiny_bundle
    text = tmp_path / "nothing.txt"
    text.write_text(content, encoding="utf-8")
    for extra in ([], ["--json"]):
        code, out, err = run(capsys, "attribute", str(text), "--model", str(bundle), *extra)
        assert code == 2 and out == ""
        assert err == f"punctstyle: error: {text}: {reason}\n"


def test_attribute_says_which_method_to_trust_when_they_disagree(capsys, tiny_bundle, tmp_path):
    bundle, _, _ = tiny_bundle
    text = tmp_path / "new.txt"
    text.write_text(sentences(1, 40, seed=1234), encoding="utf-8")
    loaded = bundles.load_attribution_bundle(bundle)
    # a bundle whose KL signatures are rotated: the KL-nearest author is another one
    forged = tmp_path / "forged"
    forged.mkdir()
    for name in bundles.BUNDLE_FILES.values():
        (forged / name).write_bytes((bundle / name).read_bytes())
    signatures = loaded.signatures.reset_index()
    signatures["author"] = list(signatures["author"].iloc[1:]) + [signatures["author"].iloc[0]]
    signatures.to_parquet(forged / "signatures.parquet", index=False)
    threshold = {**loaded.threshold, "feature": "f3"}
    threshold["mlp_curve"] = [{"n_marks": n, "accuracy": 0.9} for n in threshold["grid"]]
    threshold["curves"]["f3"]["curve"] = [{"n_marks": n, "accuracy": 0.4} for n in threshold["grid"]]
    (forged / "threshold.json").write_text(json.dumps(threshold), encoding="utf-8")
    code, out, _ = run(capsys, "attribute", str(text), "--model", str(forged), "--json")
    assert code == 0
    result = json.loads(out)
    disagreement = result["disagreement"]
    assert disagreement["mlp_author"] == result["authors"][0]["author"] == "Comma, Cid"
    assert disagreement["kl_author"] != "Comma, Cid" and disagreement["kl_feature"] == "f3"
    assert disagreement["measured_at"] == 80 and result["n_marks"] > 80  # nearest grid length
    assert (disagreement["mlp_accuracy"], disagreement["kl_accuracy"]) == (0.9, 0.4)
    assert disagreement["trusted"] == "mlp"
    code, out, _ = run(capsys, "attribute", str(text), "--model", str(forged))
    note = [line for line in out.splitlines() if line.startswith("Note: ")]
    assert len(note) == 1 and note[0].endswith("trust the MLP") and "at 80 marks" in note[0]
    # the genuine bundle agrees with itself: no note
    code, out, _ = run(capsys, "attribute", str(text), "--model", str(bundle), "--json")
    assert json.loads(out)["disagreement"] is None


def test_unsafe_model_file_is_one_line(capsys, tiny_bundle, tmp_path, le_guin):
    import argparse

    import torch

    bundle, _, _ = tiny_bundle
    unsafe = tmp_path / "unsafe"
    unsafe.mkdir()
    for name in bundles.BUNDLE_FILES.values():
        (unsafe / name).write_bytes((bundle / name).read_bytes())
    torch.save({"payload": argparse.Namespace(command="rm -rf /")}, unsafe / "mlp.pt")
    code, out, err = run(capsys, "attribute", str(le_guin), "--model", str(unsafe))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "weights_only=False" not in err
    assert err.startswith(f"punctstyle: error: {unsafe / 'mlp.pt'}: not a safe weights file")


def threshold_settings(grid: list[int]) -> dict:
    block = schema_defaults()["attribution"]
    return {"grid": grid, "fraction": block["fraction"], "features": block["threshold_features"],
            "test_fraction": block["test_fraction"], "seed": block["seed"]}


def test_threshold_not_estimated_when_no_better_than_chance():
    from punctstyle.text.chunk_cache import extract

    sequence = extract(sentences(0, 30, seed=7))
    books = [(sequence.marks, sequence.gaps)] * 6  # identical books: KL cannot tell them apart
    record = threshold_record(books, ["a", "a", "a", "b", "b", "b"], **threshold_settings(grid=[10, 20]))
    assert record["min_marks"] is None and record["estimated"] is False
    assert record["baseline_accuracy"] == pytest.approx(0.5)
    assert record["note"].startswith("not estimated: at full length no KL feature")
    assert set(record["curves"]) == {"f3", "f1"}
    json.dumps(record)  # JSON-serialisable


def test_threshold_not_estimated_without_test_books():
    books = [(np.array([4, 5], np.uint8), np.array([1, 2], np.uint32))] * 2
    record = threshold_record(books, ["a", "b"], **threshold_settings(grid=[10]))
    assert record["min_marks"] is None and record["note"].startswith("not estimated: no test books")


def test_too_short_without_threshold(tiny_bundle):
    bundle = bundles.load_attribution_bundle(tiny_bundle[0])
    assert bundle.too_short(bundle.min_marks) is None and bundle.too_short(bundle.min_marks - 1)
    bundle.threshold = {**bundle.threshold, "min_marks": None}
    assert bundle.too_short(3) is None


# --------------------------------------------------------------------------- inconsistent bundles (issue 22)


def copied_bundle(bundle, folder):
    folder.mkdir()
    for name in bundles.BUNDLE_FILES.values():
        (folder / name).write_bytes((bundle / name).read_bytes())
    return folder


def edit_json(path, **changes):
    record = json.loads(path.read_text(encoding="utf-8"))
    record.update(changes)
    path.write_text(json.dumps(record), encoding="utf-8")


def assert_refused(capsys, text, bundle, file, field):
    before = sorted((p.name, p.stat().st_mtime_ns) for p in bundle.iterdir())
    code, out, err = run(capsys, "attribute", str(text), "--model", str(bundle))
    assert code == 2 and out == ""
    assert err.count("\n") == 1, err
    assert err.startswith(f"punctstyle: error: {bundle / file}: field {field}: "), err
    assert sorted((p.name, p.stat().st_mtime_ns) for p in bundle.iterdir()) == before  # nothing written


@pytest.mark.parametrize(
    ("file", "changes", "field"),
    [
        ("threshold.json", {"min_marks": "lots"}, "min_marks"),
        ("threshold.json", {"min_marks": -3}, "min_marks"),
        ("threshold.json", {"feature": "f9"}, "feature"),
        ("threshold.json", {"mlp_curve": [{"n_marks": "ten", "accuracy": 0.5}]}, "mlp_curve"),
        ("threshold.json", {"curves": {"f3": {"curve": "steep"}}}, "curves.f3.curve"),
        ("manifest.json", {"kl_features": ["f9"]}, "kl_features"),
        ("manifest.json", {"kl_features": "f3"}, "kl_features"),
        ("manifest.json", {"feature_set": ["f1"]}, "feature_set"),
    ],
)
def test_inconsistent_bundle_json_is_one_line(capsys, tiny_bundle, tmp_path, le_guin, file, changes, field):
    bundle = copied_bundle(tiny_bundle[0], tmp_path / "bad")
    edit_json(bundle / file, **changes)
    # a manifest's feature_set that is not the model's is reported on mlp.pt
    where = "mlp.pt" if changes.get("feature_set") else file
    assert_refused(capsys, le_guin, bundle, where, field)


def test_signatures_without_feature_columns(capsys, tiny_bundle, tmp_path, le_guin):
    import pandas as pd

    bundle = copied_bundle(tiny_bundle[0], tmp_path / "bad")
    table = pd.read_parquet(bundle / "signatures.parquet")
    kl_feature = json.loads((bundle / "manifest.json").read_text())["kl_features"][0]
    table[["author", "n_books"]].to_parquet(bundle / "signatures.parquet", index=False)
    assert_refused(capsys, le_guin, bundle, "signatures.parquet", kl_feature)


def test_model_whose_feature_set_does_not_match_its_weights(capsys, tiny_bundle, tmp_path, le_guin):
    import torch

    bundle = copied_bundle(tiny_bundle[0], tmp_path / "bad")
    payload = torch.load(bundle / "mlp.pt", weights_only=True)
    claimed = ["f1"]
    payload["feature_set"] = claimed
    torch.save(payload, bundle / "mlp.pt")
    edit_json(bundle / "manifest.json", feature_set=claimed)
    assert_refused(capsys, le_guin, bundle, "mlp.pt", "feature_set")


def test_random_bytes_as_model_say_not_a_torch_file(capsys, tiny_bundle, tmp_path, le_guin):
    bundle = copied_bundle(tiny_bundle[0], tmp_path / "bad")
    (bundle / "mlp.pt").write_bytes(np.random.default_rng(3).bytes(4096))
    code, out, err = run(capsys, "attribute", str(le_guin), "--model", str(bundle))
    assert code == 2 and out == ""
    assert err == (f"punctstyle: error: {bundle / 'mlp.pt'}: not a torch weights file (torch.save writes "
                   "a zip archive; this file is not one); rebuild the bundle\n")


@pytest.mark.parametrize("as_json", [False, True])
def test_table_always_shows_the_kl_nearest_author(capsys, tiny_bundle, tmp_path, as_json):
    """With --top 1 and the methods disagreeing, the KL-nearest author named in the note is shown."""
    import pandas as pd

    bundle = copied_bundle(tiny_bundle[0], tmp_path / "rotated")
    signatures = pd.read_parquet(bundle / "signatures.parquet")
    signatures["author"] = list(signatures["author"].iloc[1:]) + [signatures["author"].iloc[0]]
    signatures.to_parquet(bundle / "signatures.parquet", index=False)
    text = tmp_path / "new.txt"
    text.write_text(sentences(1, 40, seed=1234), encoding="utf-8")
    code, out, _ = run(capsys, "attribute", str(text), "--model", str(bundle), "--top", "1", "--json")
    assert code == 0
    result = json.loads(out)
    kl_author = result["disagreement"]["kl_author"]
    shown = [a["author"] for a in result["authors"]]
    assert shown[0] == result["disagreement"]["mlp_author"] and kl_author in shown and len(shown) == 2
    assert result["authors"][1]["rank"] > 1
    if not as_json:
        code, out, _ = run(capsys, "attribute", str(text), "--model", str(bundle), "--top", "1")
        rows = [line for line in out.splitlines() if kl_author in line and not line.startswith("Note")]
        assert rows, out


# --------------------------------------------------------------------------- imports (issue 22 item 13)


@pytest.mark.parametrize("command", ["extract", "features"])
def test_extract_and_features_import_neither_torch_nor_spacy(tmp_path, le_guin, command):
    """Run in a fresh interpreter: the shipped tokenizer rules spare spaCy and, through thinc, torch."""
    code = (
        "import sys, io, contextlib\n"
        "from punctstyle import cli\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    status = cli.main([{command!r}, {str(le_guin)!r}])\n"
        "heavy = sorted(m for m in ('torch', 'spacy', 'thinc', 'sklearn') if m in sys.modules)\n"
        "print(status, heavy)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=120,
                          env={**__import__("os").environ, "PYTHONPATH": str(REPO)})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "0 []"


def test_trust_note_says_how_many_held_out_books_it_rests_on(capsys, tiny_bundle, tmp_path):
    bundle = copied_bundle(tiny_bundle[0], tmp_path / "forged")
    import pandas as pd

    signatures = pd.read_parquet(bundle / "signatures.parquet")
    signatures["author"] = list(signatures["author"].iloc[1:]) + [signatures["author"].iloc[0]]
    signatures.to_parquet(bundle / "signatures.parquet", index=False)
    threshold = json.loads((bundle / "threshold.json").read_text())
    threshold["feature"] = "f3"
    threshold["mlp_curve"] = [{"n_marks": n, "accuracy": 0.9} for n in threshold["grid"]]
    threshold["curves"]["f3"]["curve"] = [{"n_marks": n, "accuracy": 0.4, "n_test": 10} for n in threshold["grid"]]
    (bundle / "threshold.json").write_text(json.dumps(threshold), encoding="utf-8")
    text = tmp_path / "new.txt"
    text.write_text(sentences(1, 40, seed=1234), encoding="utf-8")
    code, out, _ = run(capsys, "attribute", str(text), "--model", str(bundle), "--json")
    disagreement = json.loads(out)["disagreement"]
    assert (disagreement["n_held_out"], disagreement["mlp_right"], disagreement["kl_right"]) == (10, 9, 4)
    assert "(9 and 4 of 10 held-out books right): trust the MLP" in disagreement["message"]


def test_bundle_probabilities_are_calibrated_on_held_out_books(capsys, tiny_bundle, tmp_path, le_guin):
    """threshold.json holds a temperature fitted on cross-fitted predictions of the deployed
    recipe (one per fold of 1 / test_fraction, every one with its out-of-fold temperature);
    attribute's probabilities are the model's scaled by it (same order), and a bad one is refused."""
    from punctstyle.attribution.calibration import scaled_probabilities

    bundle, _, _ = tiny_bundle
    loaded = bundles.load_attribution_bundle(bundle)
    block = loaded.threshold["calibration"]
    assert block["temperature"] > 0 and block["n_predictions"] > 0
    assert sum(b["n"] for b in block["before"]["bins"]) == block["n_predictions"]
    assert sum(b["n"] for b in block["after"]["bins"]) == block["n_predictions"]
    assert block["folds"] == round(1 / loaded.manifest["settings"]["test_fraction"])
    assert len(block["fold_temperatures"]) == block["folds"]
    assert all(t >= 1.0 for t in [block["temperature"], *block["fold_temperatures"].values()])
    text = tmp_path / "new.txt"
    text.write_text(sentences(2, 30, seed=77), encoding="utf-8")
    code, out, _ = run(capsys, "attribute", str(text), "--model", str(bundle), "--json", "--top", "3")
    shown = {a["author"]: a["probability"] for a in json.loads(out)["authors"]}
    from punctstyle.features import compute_features

    sequence = cli.sequence_of_text(text.read_text(encoding="utf-8"))
    raw = loaded.model.predict_features(compute_features(sequence.marks, sequence.gaps))
    expected = scaled_probabilities(raw, block["temperature"])[0]
    for author, p in zip(loaded.model.classes, expected):
        assert shown[str(author)] == pytest.approx(p)
    forged = copied_bundle(bundle, tmp_path / "forged")
    edit_json(forged / "threshold.json", calibration={**block, "temperature": -1})
    assert_refused(capsys, le_guin, forged, "threshold.json", "calibration.temperature")
