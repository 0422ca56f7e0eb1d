"""`punctstyle verify`: a known answer on generated texts of two invented styles, and the refusals
(one line on standard error, exit status 2)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from punctstyle.attribution.verification import Band
from punctstyle.attribution.verification_run import (
    RESULT_COLUMNS,
    VerificationSettings,
    load_verification,
    stream_frequencies,
    word_column,
    write_verification_files,
)
from punctstyle.cli import main
from punctstyle.corpus.words import book_word_stream
from punctstyle.features import compute_features
from punctstyle.marks import feature_column_names
from punctstyle.text.chunk_cache import ChunkCachedExtractor

# three invented styles: clause words and the marks between them
STYLES = {
    "Semicolon Writer": (["the river", "a lantern", "her mother", "the old mill"], [", ", "; ", ", and ", "; "], ". "),
    "Exclaiming Writer": (["Look", "Run now", "What a day", "Never"], ["! ", "? ", "! ", " -- "], "! "),
    "Quoting Writer": (['"Yes', '"No', '"Perhaps', '"Of course'], ['," he said. ', '," she said. ', '." ', '," they said. '],
                       '." '),
}


def styled_text(author: str, rng: np.random.Generator, sentences: int = 80) -> str:
    clauses, separators, end = STYLES[author]
    parts = []
    for _ in range(sentences):
        n = int(rng.integers(2, 5))
        for i in range(n):
            parts.append(clauses[int(rng.integers(len(clauses)))])
            parts.append(end if i == n - 1 else separators[int(rng.integers(len(separators)))])
    return "".join(parts)


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    """A bundle folder with verification files from three texts of each invented style."""
    folder = tmp_path_factory.mktemp("bundle")
    rng = np.random.default_rng(11)
    extractor = ChunkCachedExtractor()
    rows, streams = [], []
    for author in STYLES:
        for _ in range(3):
            sequence, stream = book_word_stream(styled_text(author, rng), extractor)
            rows.append((author, compute_features(sequence.marks, sequence.gaps)))
            streams.append(np.asarray(stream, dtype=object))
    words = ["the", "a", "her", "look", "yes", "no", "he", "she"]
    frame = pd.DataFrame({"book_id": np.arange(len(rows)), "author": [a for a, _ in rows]})
    f3 = pd.DataFrame(np.vstack([f["f3"] for _, f in rows]), columns=feature_column_names("f3"))
    w = pd.DataFrame(np.vstack([stream_frequencies(s, words) for s in streams]), columns=[word_column(x) for x in words])
    reference = pd.concat([frame, f3, w], axis=1)
    settings = VerificationSettings.from_config({
        "families": ["f3+words"], "bundle_family": "f3+words", "top_words": len(words), "lengths": [100],
        "seeds": [0], "test_fraction": 0.3, "n_different": 1, "max_texts": None, "iterations": 100,
        "feature_share": 0.5, "imposter_share": 0.5, "band_step": 0.01, "min_marks": 30,
    })
    bands = {"f3+words": {"whole": Band(0.3, 0.7, 1.0), "100": Band(0.2, 0.8, 0.9)}}
    write_verification_files({"record": folder / "verification.json", "reference": folder / "verification_reference.parquet"},
                             reference, words, bands, pd.DataFrame(columns=list(RESULT_COLUMNS)), settings, 400.0)
    return folder


def run(args, capsys):
    status = main(args)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_the_right_author_is_verified_and_a_wrong_one_rejected(bundle, tmp_path, capsys):
    text = tmp_path / "disputed.txt"
    text.write_text(styled_text("Semicolon Writer", np.random.default_rng(99)), encoding="utf-8")
    status, out, err = run(["verify", str(text), "--author", "Semicolon Writer", "--model", str(bundle), "--json"], capsys)
    assert status == 0, err
    same = json.loads(out)
    assert same["score"] >= 0.9 and same["decision"] == "same author"
    assert same["band"] == {"p1": 0.3, "p2": 0.7, "calibrated_at": "whole"}
    status, out, _ = run(["verify", str(text), "--author", "Exclaiming Writer", "--model", str(bundle), "--json"], capsys)
    different = json.loads(out)
    assert different["score"] <= 0.1 and different["decision"] == "different author"
    status, out, _ = run(["verify", str(text), "--author", "Semicolon Writer", "--model", str(bundle)], capsys)
    assert "decision: same author" in out
    assert load_verification(bundle).band("f3+words", 120)[0] == "100"


@pytest.mark.parametrize(
    ("content", "author", "message"),
    [
        ("", "Semicolon Writer", "empty text, nothing to verify"),
        ("One, two; three.", "Semicolon Writer", "too short to verify: 3 marks, at least 30 needed"),
        ("the river, a lantern. " * 40, "Nobody", "'Nobody': not an author of the verification reference"),
    ],
)
def test_refusals_are_one_line_and_exit_status_2(bundle, tmp_path, capsys, content, author, message):
    text = tmp_path / "t.txt"
    text.write_text(content, encoding="utf-8")
    status, out, err = run(["verify", str(text), "--author", author, "--model", str(bundle)], capsys)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and message in err


def test_a_folder_without_verification_files_is_refused(tmp_path, capsys):
    text = tmp_path / "t.txt"
    text.write_text("the river, a lantern. " * 40, encoding="utf-8")
    status, _, err = run(["verify", str(text), "--author", "A", "--model", str(tmp_path)], capsys)
    assert status == 2 and "no verification file in the bundle" in err and err.count("\n") == 1


def test_a_bundle_family_outside_the_families_is_one_config_line():
    from punctstyle.attribution.verification_settings import verification_config_error

    block = {"families": ["f3", "words"], "bundle_family": "f3+words"}
    assert verification_config_error(block) == (
        "config verification.bundle_family: 'f3+words' is not one of verification.families ['f3', 'words']")
    assert verification_config_error({**block, "bundle_family": "words"}) is None


def test_a_verification_record_without_a_field_is_refused(bundle, tmp_path):
    import shutil

    from punctstyle.io import InputError

    copy = tmp_path / "bundle"
    shutil.copytree(bundle, copy)
    record = json.loads((copy / "verification.json").read_text())
    del record["whole_marks"]
    (copy / "verification.json").write_text(json.dumps(record))
    with pytest.raises(InputError, match="field whole_marks missing; rebuild the bundle"):
        load_verification(copy)
