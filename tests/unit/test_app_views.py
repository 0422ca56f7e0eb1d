"""verify, rolling and maps in the API and the app (Flask's test client) on tiny invented bundles."""

from __future__ import annotations

import html
import json
import math
import re
import shutil

import numpy as np
import pandas as pd
import pytest

from punctstyle import api
from punctstyle.api.figures import fingerprint_figure
from punctstyle.io import InputError
from tests.unit.test_api import refusal, tiny_run  # noqa: F401  (module-scoped run fixture)
from tests.unit.test_cli import sentences, tiny_bundle  # noqa: F401  (module-scoped bundle fixture)
from tests.unit.test_verify_command import bundle as verification_bundle  # noqa: F401
from tests.unit.test_verify_command import styled_text


@pytest.fixture(scope="module")
def model(tiny_bundle, verification_bundle, tmp_path_factory):  # noqa: F811
    """The attribution bundle of three invented styles with the verification files of three others."""
    folder = tmp_path_factory.mktemp("model") / "attribution"
    shutil.copytree(tiny_bundle[0], folder)
    for name in ("verification.json", "verification_reference.parquet"):
        shutil.copy(verification_bundle / name, folder / name)
    return folder


@pytest.fixture()
def run(tiny_run, tmp_path):  # noqa: F811
    """A copy of the tiny run for one test: the maps written into it reach no other test."""
    copy = tmp_path / "run"
    shutil.copytree(tiny_run, copy)
    return copy


@pytest.fixture(scope="module")
def collaboration() -> str:
    """Semicolons, then commas, then semicolons again."""
    return " ".join([sentences(0, 150, 1), sentences(1, 150, 2), sentences(0, 150, 3)])


@pytest.fixture(scope="module")
def client(model):
    from punctstyle.app.server import create_app

    return create_app(api.open_results(model), max_upload_bytes=1 << 20).test_client()


# --------------------------------------------------------------------------- the API


def test_verify_in_the_api_is_the_commands_verification(model, tmp_path, capsys):
    from punctstyle import cli

    text = styled_text("Semicolon Writer", np.random.default_rng(5))
    results = api.open_results(model)
    own, other = results.verify(text, "Semicolon Writer"), api.verify(text, "Exclaiming Writer", model)
    path = tmp_path / "disputed.txt"
    path.write_text(text, encoding="utf-8")
    for outcome in (own, other):
        assert cli.main(["verify", str(path), "--author", outcome.author, "--model", str(model), "--json"]) == 0
        assert json.loads(capsys.readouterr().out) == {**outcome.as_json(), "file": str(path)}
    assert own.score > other.score and own.decision == "same author" and other.decision == "different author"
    assert own.as_json()["file"] == "<text>" and own.n_authors == 3
    with pytest.raises(InputError, match=r"'Nobody': not an author of the verification reference"):
        results.verify(text, "Nobody")
    with pytest.raises(api.HtmlText):
        api.verify("<html>a, b.</html>", "Semicolon Writer", model)


def test_rolling_in_the_api_finds_both_changes(model, collaboration):
    result = api.rolling(collaboration, model, window=80, step=20)
    assert [who for _, _, who in result.segments] == ["Semicolon, Sam", "Comma, Cid", "Semicolon, Sam"]
    # in characters of the text: each change ends the mark before mark ceil(p) (marks found by a regex)
    ends = [m.end() for m in re.finditer(r'\.\.\.|[;,.()!?"]', collaboration)]
    assert result.change_chars() == [ends[math.ceil(p) - 1] for p in result.change_marks]
    assert result.segment_chars()[0][0] == 0 and result.segment_chars()[-1][1] == len(collaboration)
    figure = api.rolling_figure(result)
    assert figure.axes and "rolling attribution" in figure.axes[0].get_title()
    with pytest.raises(InputError, match="<text>: 4 marks, shorter than one window of 50"):
        api.open_results(model).rolling("One, two. Three; four.", window=50)


def write_maps(run, family: str) -> None:
    """The files rule corpus_map writes for one family (invented coordinates, one small PNG)."""
    (run / "analysis" / "maps").mkdir(parents=True, exist_ok=True)
    (run / "figures" / "maps").mkdir(parents=True, exist_ok=True)
    pd.DataFrame({"book_id": [10, 20], "author": ["a", "b"], "pca1": [0.5, -0.5], "pca2": [0.1, -0.1]}).to_csv(
        run / "analysis" / "maps" / f"{family}_coordinates.csv", index=False)
    pd.DataFrame({"Source": ["root"], "Target": ["a"], "Weight": [1.0]}).to_csv(
        run / "analysis" / "maps" / f"{family}_consensus_edges.csv", index=False)
    (run / "analysis" / "maps" / f"{family}_summary.json").write_text(
        json.dumps({"n_documents": 2, "n_authors": 2, "n_columns": 100, "ward_delta_purity": 1.0}), encoding="utf-8")
    figure = fingerprint_figure({"x": {"f1": np.full(10, 0.1), "f3": np.full(100, 0.01)}})
    figure.set_size_inches(2, 1)
    figure.savefig(run / "figures" / "maps" / f"{family}_pca.png", dpi=20)


def test_maps_of_a_run(run, model):  # noqa: F811
    results = api.open_results(run)
    assert results.map_families() == [] and api.open_results(model).map_families() == []
    write_maps(run, "f3")
    (run / "analysis" / "maps" / "notes.txt").write_text("not a map", encoding="utf-8")
    corpus_map = results.maps("f3")
    assert results.map_families() == ["f3"] and list(corpus_map.coordinates["author"]) == ["a", "b"]
    assert list(corpus_map.edges.columns) == ["Source", "Target", "Weight"] and corpus_map.summary["n_documents"] == 2
    assert list(corpus_map.figures) == ["pca"]
    with pytest.raises(InputError, match=r"\.\./f3: no maps of this family .*families: f3"):
        results.maps("../f3")


# --------------------------------------------------------------------------- the app


def test_the_form_has_verify_and_rolling_buttons_and_an_author_menu(client):
    home = client.get("/").get_data(as_text=True)
    assert 'formaction="/verify"' in home and 'formaction="/rolling"' in home and "<option>Comma, Cid</option>" in home
    assert 'href="/maps"' in home


def test_verify_page_shows_score_decision_band_and_warning(client):
    text = styled_text("Quoting Writer", np.random.default_rng(6))
    page = client.post("/verify", data={"text": text, "author": "Quoting Writer"}).get_data(as_text=True)
    assert "Is it by Quoting Writer?" in page and "Decision: same author." in page and "undecided band" in page
    assert "<option selected>" not in page  # the chosen author is not one of the attribution bundle's menu
    short = client.post("/verify", data={"text": '"Yes," he said. ' * 12, "author": "Quoting Writer"})
    assert short.status_code == 200 and "WARNING: " in short.get_data(as_text=True)  # fewer marks than calibrated


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"text": '"Yes," he said. ' * 40, "author": "Nobody"}, "'Nobody': not an author of the verification reference"),
        ({"text": '"Yes," he said. ' * 40}, "no author chosen"),
        ({"text": "Yes, no.", "author": "Quoting Writer"}, "the pasted text: too short to verify: 2 marks"),
        ({"text": "  ", "author": "Quoting Writer"}, "the pasted text: empty text, nothing to verify"),
    ],
)
def test_verify_refusals_are_one_line_in_the_page(client, form, message):
    response = client.post("/verify", data=form)
    assert response.status_code == 400 and message in html.unescape(refusal(response))


def test_rolling_page_draws_the_text_and_lists_the_changes(client):
    # long enough for the default window (at least 800 marks): parts of 1,800, 3,000 and 1,800 marks
    collaboration = " ".join([sentences(0, 600, 1), sentences(1, 600, 2), sentences(0, 600, 3)])
    page = client.post("/rolling", data={"text": collaboration}).get_data(as_text=True)
    assert page.count('src="data:image/png;base64,') == 1 and "Change points (marks):" in page
    assert page.count("<td>Semicolon, Sam</td>") >= 1 and "<th>from mark</th>" in page
    assert "<th>from character</th>" in page and "(characters of the text: " in page
    response = client.post("/rolling", data={"text": "One, two. Three; four."})
    assert response.status_code == 400 and "shorter than one window" in refusal(response)


def test_maps_page_without_maps_says_so(client):
    page = client.get("/maps").get_data(as_text=True)
    assert "No maps in this run" in page and "Traceback" not in page


def test_maps_page_shows_the_runs_pngs_and_nothing_else(run):
    from punctstyle.app.server import create_app

    write_maps(run, "all")
    client = create_app(api.open_results(run), max_upload_bytes=4096).test_client()
    page = client.get("/maps").get_data(as_text=True)
    assert 'src="/maps/all/pca.png"' in page and "all: PCA" in page and "2 books by 2 authors" in page
    assert page.count("<h2>") == 1  # the family written by this test only
    assert "Ward tree (Delta) cut into as many clusters as authors: 1.00." in page
    png = client.get("/maps/all/pca.png")
    assert png.status_code == 200 and png.data[:4] == b"\x89PNG"
    for path in ("/maps/all/dendrogram.png", "/maps/..%2Fcorpus/pca.png", "/maps/nothing/pca.png"):
        assert client.get(path).status_code == 404
