"""The public API, the example notebook and `punctstyle app` in a real browser, on the shared
default fixture run (tests/workflow/conftest.py; read only).

The browser tests drive Debian's headless Chromium with selenium (tests/app_browser.py) and are
skipped, with the reason, where no chromium/chromedriver is installed; `.ci/run` installs them.
Every browser check writes a screenshot under the test's tmp folder and names it on failure.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.app_browser import (
    browser_missing,
    chromium,
    drawn_images,
    full_page_screenshot,
    paste_and_submit,
    served,
    upload_and_submit,
)
from tests.conftest import REPO
from tests.fixtures.mini_mirror import AUTHORS, book_ids, book_text

pytestmark = pytest.mark.workflow

NOTEBOOK = REPO / "docs" / "api_tour.ipynb"
KNOWN = (1, book_ids(1)[0])  # author index, a corpus book of that author (Comma, Barnaby, 201)


def test_api_on_the_fixture_run(default_fixture_run, tmp_path, capsys):
    from matplotlib.figure import Figure

    import punctstyle
    from punctstyle import api

    results = punctstyle.open_results(default_fixture_run["outdir"])
    assert results.kind == "run" and results.has_bundle
    documents = results.documents()
    assert dict(zip(documents["book_id"], documents["author"], strict=True)) == default_fixture_run["expected"]["corpus"]
    assert sorted(results.authors()["author"]) == sorted(a.corpus_name for a in AUTHORS)
    author_index, book = KNOWN
    attribution = api.attribute(book_text(AUTHORS[author_index], book), results)
    assert attribution.first_author == AUTHORS[author_index].corpus_name
    assert attribution.ranking["probability"].sum() == pytest.approx(1.0)
    assert isinstance(api.text_figure(attribution, results.signatures()), Figure)
    assert len(results.sequence(book)) == int(documents.set_index("book_id").loc[book, "n_marks"])
    summary = results.recognition("author")
    assert {"method", "n_classes", "accuracy[f1]"} <= set(summary.columns)
    bundle = api.open_results(default_fixture_run["outdir"] / "models" / "attribution")
    assert bundle.kind == "bundle" and list(bundle.authors()["author"]) == list(results.authors()["author"])
    text = book_text(AUTHORS[author_index], book)
    scores = {a.corpus_name: results.verify(text, a.corpus_name) for a in AUTHORS}
    own = scores[AUTHORS[author_index].corpus_name]
    assert own.decision == "same author", own.as_json()
    assert own.score > max(v.score for name, v in scores.items() if name != own.author), {n: v.score for n, v in scores.items()}
    path = tmp_path / "book.txt"
    path.write_text(text, encoding="utf-8")
    from punctstyle import cli

    assert cli.main(["verify", str(path), "--author", own.author, "--model", str(default_fixture_run["outdir"]), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {**own.as_json(), "file": str(path)}  # the API's answer is the CLI's
    for family in results.map_families():
        coordinates = results.maps(family).coordinates
        assert len(coordinates) and set(coordinates["book_id"]) <= set(documents["book_id"])


def test_the_example_notebook_runs_top_to_bottom(default_fixture_run, tmp_path, monkeypatch):
    import nbclient
    import nbformat

    monkeypatch.setenv("PUNCTSTYLE_RESULTS", str(default_fixture_run["outdir"]))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(notebook, timeout=180, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    assert any("image/png" in o.get("data", {}) for o in outputs), "the notebook draws no figure"
    from punctstyle import api

    opened = notebook.cells[1].outputs[0]["data"]["text/plain"]  # PUNCTSTYLE_RESULTS reached the kernel
    assert opened == repr(api.open_results(default_fixture_run["outdir"])), opened
    printed = "".join(o.get("text", "") for o in notebook.cells[-1].outputs)
    assert printed == ("EmptyText -> <text>: empty text, nothing to compute features of\n"
                       "NoMarks -> <text>: no punctuation mark in the text, nothing to compute features of\n"
                       "HtmlText -> <text>: an HTML page, not a text (starts with <!doctype)\n"), printed


# --------------------------------------------------------------------------- the browser


@pytest.fixture(scope="module")
def page(default_fixture_run):
    """(driver, base URL) of the app on the fixture run in headless Chromium."""
    reason = browser_missing()
    if reason:
        pytest.skip(reason)
    with served(default_fixture_run["outdir"]) as url, chromium() as driver:
        yield driver, url


@pytest.fixture()
def shot(tmp_path):
    """``shot(driver, name)``: a full-page screenshot under tmp_path; returns its path for the message."""
    return lambda driver, name: full_page_screenshot(driver, Path(tmp_path) / f"{name}.png")


def test_the_page_loads(page, shot):
    from selenium.webdriver.common.by import By

    driver, url = page
    driver.get(url + "/")
    picture = shot(driver, "home")
    assert "punctstyle" in driver.title, f"title {driver.title!r}; see {picture}"
    assert driver.find_element(By.ID, "text").is_displayed(), f"no text box; see {picture}"
    nav = [a.text for a in driver.find_elements(By.CSS_SELECTOR, "header nav a")]
    assert nav == ["Text", "Authors", "Books", "Recognition", "Maps"], f"{nav}; see {picture}"


def test_pasting_a_known_text_shows_its_author_first(page, shot):
    from selenium.webdriver.common.by import By

    driver, url = page
    author_index, book = KNOWN
    driver.get(url + "/")
    paste_and_submit(driver, book_text(AUTHORS[author_index], book))
    picture = shot(driver, "pasted_text")
    first = driver.find_element(By.CSS_SELECTOR, "table.table tbody tr td:nth-child(2)").text
    assert first == AUTHORS[author_index].corpus_name, f"first author {first!r}; see {picture}"
    images = drawn_images(driver)
    assert len(images) == 2 and all(i["width"] > 0 and i["height"] > 0 for i in images), f"{images}; see {picture}"


def test_uploading_an_empty_file_shows_the_refusal(page, shot, tmp_path):
    from selenium.webdriver.common.by import By

    driver, url = page
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    driver.get(url + "/")
    upload_and_submit(driver, empty)
    picture = shot(driver, "empty_upload")
    refusals = driver.find_elements(By.ID, "refusal")
    assert refusals and refusals[0].text == "empty.txt: empty text, nothing to attribute", f"see {picture}"
    assert "Traceback" not in driver.page_source, f"a stack trace in the page; see {picture}"


def test_the_corpus_view_draws_a_figure(page, shot):
    from selenium.webdriver.common.by import By

    driver, url = page
    driver.get(url + "/authors")
    links = driver.find_elements(By.CSS_SELECTOR, "ul.links a")
    assert len(links) == len(AUTHORS), f"see {shot(driver, 'authors')}"
    links[0].click()
    picture = shot(driver, "author")
    images = drawn_images(driver)
    assert images and images[0]["complete"] and images[0]["width"] > 100 and images[0]["height"] > 100, (
        f"no figure drawn: {images}; see {picture}")


def test_the_maps_view_draws_the_runs_maps(page, shot, default_fixture_run):
    from selenium.webdriver.common.by import By

    from punctstyle.api import open_results

    families = open_results(default_fixture_run["outdir"]).map_families()
    assert families, "the fixture run has no maps (rule corpus_map is part of the default DAG)"
    driver, url = page
    driver.get(url + "/maps")
    picture = shot(driver, "maps")
    headings = [h.text for h in driver.find_elements(By.CSS_SELECTOR, "section h2")]
    assert {h.split(":")[0] for h in headings} == set(families), f"{headings}; see {picture}"
    images = drawn_images(driver)
    assert images and all(i["complete"] and i["width"] > 100 and i["height"] > 100 for i in images), (
        f"a map not drawn: {images}; see {picture}")


# --------------------------------------------------------------------------- the boundaries (docs/app.md)


@pytest.fixture(scope="module")
def linked_out(default_fixture_run, tmp_path_factory):
    """A copy of the fixture run whose first map summary and first book's sequence are links to
    files outside it (what a shared results folder could hold): (the copy, the linked book)."""
    import shutil

    from punctstyle.api import open_results

    reason = browser_missing()
    if reason:  # before the copy: nothing to check it with
        pytest.skip(reason)
    root = tmp_path_factory.mktemp("linked_out")
    run = root / "results"
    shutil.copytree(default_fixture_run["outdir"], run, symlinks=True,
                    ignore=shutil.ignore_patterns("books", "words", "features", "logs", ".snakemake"))
    results = open_results(run)
    book = int(results.documents()["book_id"].iloc[0])
    family = results.map_families()[0]
    for path in (run / "analysis" / "maps" / f"{family}_summary.json", run / "sequences" / f"{book}.parquet"):
        target = root / path.name
        shutil.move(path, target)
        path.symlink_to(target)
    return run, book


def test_the_browser_is_refused_what_lies_outside_the_run_and_a_foreign_host(linked_out, shot):
    from selenium.webdriver.common.by import By

    run, book = linked_out
    with served(run) as url, chromium("--host-resolver-rules=MAP attacker.example 127.0.0.1") as driver:
        for path, file in (("/maps", "_summary.json"), (f"/books/{book}", f"sequences/{book}.parquet")):
            driver.get(url + path)
            picture = shot(driver, path.strip("/").replace("/", "_"))
            refusals = driver.find_elements(By.ID, "refusal")
            assert refusals and file in refusals[0].text and "a link out of the opened folder, not read" in refusals[0].text, (
                f"see {picture}")
            assert str(run.parent) not in driver.page_source, f"an absolute path in the page; see {picture}"
        driver.get(url.replace("127.0.0.1", "attacker.example") + "/authors")
        picture = shot(driver, "foreign_host")
        text = driver.find_element(By.TAG_NAME, "body").text
        assert text.startswith("attacker.example: not a host name this app answers"), f"{text!r}; see {picture}"
