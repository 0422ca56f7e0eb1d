"""Issue 33: the entry points probed from outside. Each test reproduces one finding: the app and
the API read nothing outside the opened folder, the app answers only its own host names and
shows no absolute path, and every bad input is a one-line refusal (docs/app.md, docs/api.md)."""

from __future__ import annotations

import contextlib
import html
import io
import json
import os
import shutil
import socket
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from punctstyle import api
from punctstyle.io import InputError
from tests.unit.test_api import STYLES, refusal, tiny_run  # noqa: F401  (module-scoped run fixture)
from tests.unit.test_app_views import model, write_maps  # noqa: F401  (module-scoped model fixture)
from tests.unit.test_cli import sentences, tiny_bundle  # noqa: F401  (module-scoped bundle fixture)
from tests.unit.test_verify_command import bundle as verification_bundle  # noqa: F401
from tests.unit.test_verify_command import styled_text


@pytest.fixture()
def run(tiny_run, tmp_path):  # noqa: F811
    """A copy of the tiny run that a test may change (the module's run stays as it was)."""
    copy = tmp_path / "results"
    shutil.copytree(tiny_run, copy)
    return copy


@pytest.fixture()
def own_model(model, tmp_path):  # noqa: F811
    """A copy of the bundle with verification files that a test may change."""
    copy = tmp_path / "attribution"
    shutil.copytree(model, copy)
    return copy


def client_of(folder, **options):
    from punctstyle.app.server import create_app

    return create_app(api.open_results(folder), max_upload_bytes=options.pop("max_upload_bytes", 1 << 20),
                      **options).test_client()


def outside_copy(path: Path, tmp_path: Path) -> Path:
    """``path`` moved out of the run and replaced by a link to it."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(exist_ok=True)
    target = elsewhere / path.name
    shutil.move(path, target)
    path.symlink_to(target)
    return target


# --------------------------------------------------------------------------- reads outside the folder


def test_a_map_summary_linked_out_of_the_run_is_not_read(run, tmp_path):
    write_maps(run, "f3")
    target = outside_copy(run / "analysis" / "maps" / "f3_summary.json", tmp_path)
    target.write_text(json.dumps({"n_documents": 4242, "secret": "outside"}), encoding="utf-8")
    with pytest.raises(InputError, match=r"^analysis/maps/f3_summary.json: a link out of the opened folder, not read$"):
        api.open_results(run).maps("f3")
    response = client_of(run).get("/maps")
    assert response.status_code == 400 and "4242" not in response.get_data(as_text=True)
    assert refusal(response) == "analysis/maps/f3_summary.json: a link out of the opened folder, not read"


def test_a_sequence_linked_out_of_the_run_is_not_read(run, tmp_path):
    outside_copy(run / "sequences" / "10.parquet", tmp_path)
    with pytest.raises(InputError, match=r"^sequences/10.parquet: a link out of the opened folder, not read$"):
        api.open_results(run).sequence(10)
    response = client_of(run).get("/books/10")
    assert response.status_code == 400 and "a link out of the opened folder" in refusal(response)
    assert client_of(run).get("/books/11").status_code == 200  # a book of the run itself


def test_a_link_inside_the_run_is_read(run):
    (run / "sequences" / "10.parquet").unlink()
    (run / "sequences" / "10.parquet").symlink_to(run / "sequences" / "11.parquet")
    assert len(api.open_results(run).sequence(10)) == len(api.open_results(run).sequence(11))


# --------------------------------------------------------------------------- hosts and paths


@pytest.mark.parametrize("host", ["attacker.example:8050", "attacker.example", "127.0.0.1.nip.io:8050", "10.0.0.7"])
def test_a_foreign_host_is_refused_before_any_page(run, host):
    response = client_of(run).get("/authors", headers={"Host": host})
    body = response.get_data(as_text=True)
    assert response.status_code == 421 and response.mimetype == "text/plain"
    assert body.startswith(f"{host.rsplit(':', 1)[0] if host.count(':') == 1 else host}: not a host name this app answers")
    assert "Comma, Cid" not in body and str(run) not in body


@pytest.mark.parametrize("host", ["localhost:8050", "127.0.0.1:8050", "[::1]:8050", "LOCALHOST", "127.0.0.1"])
def test_the_local_names_are_answered(run, host):
    assert client_of(run).get("/authors", headers={"Host": host}).status_code == 200


def test_the_host_it_was_started_on_is_answered():
    from punctstyle.app.server import allowed_hosts, host_name

    assert allowed_hosts("192.168.1.5") == {"127.0.0.1", "localhost", "::1", "192.168.1.5"}
    assert socket.gethostname().lower() in allowed_hosts("0.0.0.0")
    assert [host_name(h) for h in ("[::1]:80", "Box.lan:8050", "box.lan", "::1")] == ["::1", "box.lan", "box.lan", "::1"]


def test_no_page_shows_the_servers_paths(run, model):  # noqa: F811
    client = client_of(run)
    pages = [client.get(p) for p in ("/", "/authors", "/books", "/books/10", "/recognition", "/maps", "/books/99")]
    pages.append(client.get("/books/10", headers={"Host": "evil.example"}))
    (run / "analysis" / "recognition" / "author_summary.csv").unlink()
    pages.append(client.get("/recognition"))
    bundle = client_of(model)
    pages += [bundle.get("/"), bundle.get("/books"), bundle.post("/verify", data={"text": "a, b. " * 40, "author": "X"})]
    for response in pages:
        body = response.get_data(as_text=True)
        assert str(run.parent) not in body and str(model.parent) not in body, body
    assert "Opened run: results" in pages[0].get_data(as_text=True)
    assert "attribution: an attribution bundle holds no books" in refusal(pages[-2])


# --------------------------------------------------------------------------- the app's refusals


def test_a_corrupt_corpus_table_is_a_refusal_in_every_page(run):
    table = run / "corpus" / "f1.parquet"
    table.write_bytes(table.read_bytes()[:300])
    with pytest.raises(InputError, match=r"f1.parquet: not a readable table \("):
        api.open_results(run).documents()
    client = client_of(run)
    for path in ("/", "/authors", "/books"):
        response = client.get(path)
        assert response.status_code == 400, path
        assert refusal(response).startswith("results/corpus/f1.parquet: not a readable table (")


def test_an_author_with_a_slash_has_a_page(run):
    for table in (run / "corpus").glob("*.parquet"):
        frame = pd.read_parquet(table)
        frame["author"] = frame["author"].replace("Comma, Cid", "AC/DC, Band")
        frame.to_parquet(table, index=False)
    client = client_of(run)
    page = client.get("/authors").get_data(as_text=True)
    assert 'href="/authors/AC/DC,%20Band"' in page
    response = client.get("/authors/AC/DC,%20Band")
    assert response.status_code == 200 and "Book 20" in response.get_data(as_text=True)


def test_app_refusals_name_no_command_line_flag(run, model):  # noqa: F811
    short = client_of(model).post("/rolling", data={"text": "One, two. Three; four."})
    # the window: the bundle's threshold (10 marks here), at least 800 (attribution.rolling.rolling_window)
    assert html.unescape(refusal(short)) == ("the pasted text: 4 marks, shorter than one window of 800 "
                              "(paste a longer text: a slice is the bundle's threshold, at least 800 marks)")
    for path in ("/rolling", "/verify"):
        response = client_of(run).post(path, data={"text": "One, two. Three; four.", "author": "Comma, Cid"})
        assert response.status_code == 400 and "--" not in refusal(response), refusal(response)


def test_the_app_on_a_port_in_use_is_one_line(run, capsys):
    from punctstyle import cli

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert cli.main(["app", str(run), "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"punctstyle: error: 127.0.0.1:{port}: cannot listen there (") and err.count("\n") == 1
    assert err.endswith("; choose another --port (0: any free port)\n")


def test_a_whole_book_is_not_sent_back_into_the_text_box(run):
    from punctstyle.app.views import ECHO_CHARACTERS

    client = client_of(run)
    short = STYLES["Bang, Bea"] * 5
    assert f">{short}</textarea>" in html.unescape(client.post("/text", data={"text": short}).get_data(as_text=True))
    book = STYLES["Bang, Bea"] * (ECHO_CHARACTERS // len(STYLES["Bang, Bea"]) + 1)
    page = client.post("/text", data={"text": book}).get_data(as_text=True)
    assert "></textarea>" in page and STYLES["Bang, Bea"] * 3 not in html.unescape(page)
    assert f"The text ({len(book):,} characters) is not sent back into the text box" in page


# --------------------------------------------------------------------------- verify


def test_an_author_name_is_matched_exactly_everywhere_and_the_nearest_suggested(model, tmp_path, capsys):  # noqa: F811
    from punctstyle import cli

    text = styled_text("Quoting Writer", np.random.default_rng(6))
    message = ("' Quoting Writer ': not an author of the verification reference in attribution "
               "(3 authors; did you mean 'Quoting Writer'?)")
    response = client_of(model).post("/verify", data={"text": text, "author": " Quoting Writer "})
    assert response.status_code == 400 and html.unescape(refusal(response)) == message
    with pytest.raises(InputError) as caught:
        api.verify(text, " Quoting Writer ", model)
    assert str(caught.value) == message.replace(" in attribution ", f" in {model} ")
    path = tmp_path / "t.txt"
    path.write_text(text, encoding="utf-8")
    assert cli.main(["verify", str(path), "--author", " Quoting Writer ", "--model", str(model)]) == 2
    assert capsys.readouterr().err == f"punctstyle: error: {message.replace(' in attribution ', f' in {model} ')}\n"
    with pytest.raises(InputError, match=r"\(3 authors; did you mean 'Semicolon Writer'\?\)"):
        api.verify(text, "Semicolon Writter", model)


def test_a_bad_threshold_field_is_refused_by_verify_in_one_line(own_model, tmp_path, capsys):
    from punctstyle import cli

    threshold = json.loads((own_model / "threshold.json").read_text())
    (own_model / "threshold.json").write_text(json.dumps({**threshold, "min_marks": "many"}))
    message = f"{own_model}/threshold.json: field min_marks: expected null or a positive integer, got 'many'; rebuild the bundle"
    text = styled_text("Quoting Writer", np.random.default_rng(6))
    with pytest.raises(InputError) as caught:
        api.verify(text, "Quoting Writer", own_model)
    assert str(caught.value) == message
    path = tmp_path / "t.txt"
    path.write_text(text, encoding="utf-8")
    assert cli.main(["verify", str(path), "--author", "Quoting Writer", "--model", str(own_model)]) == 2
    assert capsys.readouterr().err == f"punctstyle: error: {message}\n"


# --------------------------------------------------------------------------- the bundle, rolling, the CLI


def test_a_signatures_table_missing_an_author_is_refused(tiny_bundle, tmp_path):  # noqa: F811
    from punctstyle.attribution.bundle import load_attribution_bundle

    folder = tmp_path / "attribution"
    shutil.copytree(tiny_bundle[0], folder)
    signatures = pd.read_parquet(folder / "signatures.parquet")
    signatures[signatures["author"] != "Comma, Cid"].to_parquet(folder / "signatures.parquet", index=False)
    with pytest.raises(InputError) as caught:
        load_attribution_bundle(folder)
    assert str(caught.value) == (f"{folder}/signatures.parquet: field author: 1 of the model's 3 authors have no "
                                 "signature (first: 'Comma, Cid'); rebuild the bundle")


@pytest.mark.parametrize(
    ("figure", "message"),
    [
        ("{tmp}/no/such/folder/r.png", "{tmp}/no/such/folder/r.png: no such folder {tmp}/no/such/folder (create it first)"),
        ("/proc/rolling.png", "/proc/rolling.png: cannot write in /proc ("),
        ("{tmp}/r.txt", "{tmp}/r.txt: figure file must end in .png, .pdf or .svg"),
    ],
)
def test_a_figure_path_that_cannot_be_written_is_refused_before_the_work(model, tmp_path, capsys, monkeypatch,  # noqa: F811
                                                                          figure, message):
    from punctstyle import cli
    from punctstyle.api import results

    def no_work(*args, **kwargs):
        raise AssertionError("the rolling attribution ran before the figure path was checked")

    monkeypatch.setattr(results, "rolling_sequence", no_work)
    text = tmp_path / "t.txt"
    text.write_text(sentences(0, 100, 1), encoding="utf-8")
    figure = figure.format(tmp=tmp_path)
    assert cli.main(["rolling", str(text), "--model", str(model), "--figure", figure]) == 2
    err = capsys.readouterr().err
    assert err.startswith("punctstyle: error: " + message.format(tmp=tmp_path)) and err.count("\n") == 1
    assert not (tmp_path / "no").exists()  # no parent folder made


def test_the_default_model_is_found_from_another_working_folder(tiny_bundle, tmp_path, monkeypatch, capsys):  # noqa: F811
    from punctstyle import cli

    project = tmp_path / "project"
    shutil.copytree(tiny_bundle[0], project / "results" / "models" / "attribution")
    text = tmp_path / "t.txt"
    text.write_text(sentences(1, 60, 3), encoding="utf-8")
    (project / "notes" / "deeper").mkdir(parents=True)
    monkeypatch.chdir(project / "notes" / "deeper")
    assert cli.main(["attribute", str(text), "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["authors"][0]["author"] == "Comma, Cid"
    assert found["model"] == str(project / "results" / "models" / "attribution")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    capsys.readouterr()
    assert cli.main(["attribute", str(text)]) == 2
    assert capsys.readouterr().err == (
        f"punctstyle: error: {elsewhere}/results/models/attribution: model folder does not exist (looked for "
        f"results/models/attribution in {elsewhere} and the folders above it; point --model at a run's outdir "
        "or an attribution bundle folder)\n")


# --------------------------------------------------------------------------- the API's arguments


@pytest.mark.parametrize("value", [None, b"a, b.", Path("book.txt"), ["a, b."]])
@pytest.mark.parametrize("call", ["extract", "features", "attribute", "verify", "rolling"])
def test_a_text_that_is_not_a_string_is_a_type_error_naming_the_argument(run, model, call, value):  # noqa: F811
    calls = {
        "extract": lambda: api.extract(value),
        "features": lambda: api.features(value),
        "attribute": lambda: api.open_results(model).attribute(value),
        "verify": lambda: api.verify(value, "Quoting Writer", model),
        "rolling": lambda: api.rolling(value, model),
    }
    with pytest.raises(TypeError, match=rf"^text: expected a str \(the text itself; .*\), got {type(value).__name__}$"):
        calls[call]()


def test_an_author_that_is_not_a_string_is_a_type_error(model):  # noqa: F811
    with pytest.raises(TypeError, match="^author: expected a str"):
        api.verify("a, b. " * 40, None, model)


@pytest.mark.parametrize(("options", "message"), [({"window": 0}, "window=0: expected a positive number of marks"),
                                                   ({"window": 60, "step": -2}, "step=-2: expected a positive number of marks")])
def test_rolling_refuses_a_window_or_step_below_one(model, options, message):  # noqa: F811
    with pytest.raises(InputError) as caught:
        api.rolling(sentences(0, 100, 1), model, **options)
    assert str(caught.value) == message


def gutenberg_book(title: str, body: str) -> str:
    return (f"The Project Gutenberg eBook of {title}\n\n*** START OF THE PROJECT GUTENBERG EBOOK {title} ***\n\n"
            f"{body}\n\n*** END OF THE PROJECT GUTENBERG EBOOK {title} ***\n\nlicence text.\n")


def test_concatenated_gutenberg_books_are_refused_not_cut_to_the_first(run, tmp_path, capsys):
    from punctstyle import cli

    one = gutenberg_book("ONE", STYLES["Comma, Cid"] * 20)
    assert len(api.extract(one)) > 0
    repeated_start = one.replace("*** START OF", "*** START OF THIS EBOOK ONE\n\n*** START OF", 1)  # as ebook 148
    assert len(api.features(repeated_start)["f1"]) == 10  # one book
    both = one + gutenberg_book("TWO", STYLES["Bang, Bea"] * 20)
    message = ("2 Project Gutenberg books in one text (a '*** START OF' line after an '*** END OF' line); only the "
               "first would be read: give one book at a time")
    with pytest.raises(api.ManyBooks) as caught:
        api.features(both)
    assert str(caught.value) == f"<text>: {message}"
    path = tmp_path / "books.txt"
    path.write_text(both, encoding="utf-8")
    assert cli.main(["features", str(path)]) == 2
    assert capsys.readouterr().err == f"punctstyle: error: {path}: {message}\n"
    response = client_of(run).post("/text", data={"text": "", "file": (io.BytesIO(both.encode()), "books.txt")},
                                   content_type="multipart/form-data")
    assert response.status_code == 400 and html.unescape(refusal(response)) == f"books.txt: {message}"


# --------------------------------------------------------------------------- the folder corpus


def test_a_metadata_csv_with_only_a_header_is_one_line(tmp_path):
    from punctstyle.sources.folder import folder_selection, read_metadata

    (tmp_path / "metadata.csv").write_text("file,author\n", encoding="utf-8")
    metadata, _ = read_metadata(tmp_path / "metadata.csv")
    with pytest.raises(InputError) as caught:
        folder_selection(metadata, tmp_path, metadata_path="metadata.csv", min_docs_per_author=1)
    assert str(caught.value) == "metadata.csv: no document row, only a header (one row per document: file, author, ...)"


def test_the_same_file_twice_enters_the_corpus_once_with_a_reason(tmp_path):
    from punctstyle.sources.folder import folder_selection, read_metadata

    for name in ("a.txt", "b.txt"):
        (tmp_path / name).write_text("Yes, no; maybe.\n", encoding="utf-8")
    os.symlink("a.txt", tmp_path / "link.txt")
    (tmp_path / "metadata.csv").write_text("file,author,id\na.txt,Ann,one\na.txt,Ann,two\nlink.txt,Ann,\nb.txt,Ann,\n",
                                           encoding="utf-8")
    metadata, _ = read_metadata(tmp_path / "metadata.csv")
    selection, exclusions, log = folder_selection(metadata, tmp_path, metadata_path="m.csv", min_docs_per_author=1)
    assert sorted(selection["doc_id"]) == ["b", "one"]
    assert list(exclusions["reason"]) == ["m.csv: row 3 (a.txt): same file as row 2 (a.txt), read once",
                                          "m.csv: row 4 (link.txt): same file as row 2 (a.txt), read once"]
    assert log[1] == {"filter": "duplicate_ids", "removed": 2, "remaining": 2}


# --------------------------------------------------------------------------- over HTTP (waitress, a real socket)


def http_get(url: str, path: str, host: str | None = None) -> tuple[int, str]:
    import http.client
    from urllib.parse import urlsplit

    address = urlsplit(url)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=60)
    try:
        connection.putrequest("GET", path, skip_host=host is not None)
        if host is not None:
            connection.putheader("Host", host)
        connection.endheaders()
        response = connection.getresponse()
        return response.status, response.read().decode("utf-8")
    finally:
        connection.close()


@contextlib.contextmanager
def app_command(folder: Path):
    """``punctstyle app FOLDER --port 0`` in a process of its own; yields its address."""
    import subprocess
    import sys

    from tests.conftest import REPO

    server = subprocess.Popen([sys.executable, "-m", "punctstyle", "app", str(folder), "--port", "0"],
                              stderr=subprocess.PIPE, text=True, cwd=REPO,
                              env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"})
    try:
        line = server.stderr.readline()
        assert " on http://127.0.0.1:" in line, line
        yield line.split(" on ", 1)[1].split()[0].rstrip("/")
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_over_http_a_foreign_host_and_links_out_of_the_run_are_refused(run, tmp_path):
    write_maps(run, "f3")
    outside_copy(run / "analysis" / "maps" / "f3_summary.json", tmp_path)
    outside_copy(run / "sequences" / "10.parquet", tmp_path)
    with app_command(run) as url:
        status, body = http_get(url, "/authors", host=f"attacker.example:{url.rsplit(':', 1)[1]}")
        assert status == 421 and body.startswith("attacker.example: not a host name this app answers")
        assert "Comma, Cid" not in body
        assert http_get(url, "/authors")[0] == 200  # Host: 127.0.0.1:<port>
        for path, file in (("/maps", "analysis/maps/f3_summary.json"), ("/books/10", "sequences/10.parquet")):
            status, body = http_get(url, path)
            assert status == 400 and f"{file}: a link out of the opened folder, not read" in body, body
            assert str(tmp_path) not in body
