"""punctstyle.api: a tiny run of our own sentences (no bundle, so no torch), the refusals, the
figures, and the app's pages through Flask's test client (tests/workflow/test_app.py runs the
attribution, the notebook and the browser on the fixture run)."""

from __future__ import annotations

import io
import subprocess
import sys

import pandas as pd
import pytest

from punctstyle import api
from punctstyle.book.sequence_file import write_sequence
from punctstyle.features import compute_features
from punctstyle.io import InputError
from punctstyle.marks import FEATURES, feature_column_names
from tests.conftest import REPO

STYLES = {
    "Semicolon, Sam": "The tide came in; the boats rose; nobody spoke. ",
    "Comma, Cid": "Well, the road was long, dusty, and hot, and we walked on. ",
    "Bang, Bea": "Run! \"Now?\" she asked. Yes! Go... ",
}


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    """corpus/f1..f7.parquet and sequences/ of six books by three invented authors."""
    folder = tmp_path_factory.mktemp("run")
    rows = []
    for k, (author, sentence) in enumerate(STYLES.items()):
        for j in range(2):
            book_id = 10 * (k + 1) + j
            sequence = api.extract(sentence * (20 + j))
            write_sequence(folder / "sequences" / f"{book_id}.parquet", book_id, sequence)
            row = {"book_id": book_id, "title": f"Book {book_id}", "author": author, "genre": None,
                   "n_marks": len(sequence), "n_words": sequence.n_words}
            values = compute_features(sequence.marks, sequence.gaps)
            for name in FEATURES:
                row.update(zip(feature_column_names(name), values[name]))
            rows.append(row)
    frame = pd.DataFrame(rows)
    for name in FEATURES:
        columns = ["book_id", "title", "author", "genre", "n_marks", "n_words", *feature_column_names(name)]
        (folder / "corpus").mkdir(exist_ok=True)
        frame[columns].to_parquet(folder / "corpus" / f"{name}.parquet", index=False)
    (folder / "analysis" / "recognition").mkdir(parents=True)
    pd.DataFrame({"task": ["author"], "method": ["kl"], "n_classes": [3], "accuracy[f1]": [0.75],
                  "baseline": [1 / 3]}).to_csv(folder / "analysis/recognition/author_summary.csv", index=False)
    return folder


# --------------------------------------------------------------------------- one text


@pytest.mark.parametrize(
    ("text", "kind", "message"),
    [
        ("  \n ", api.EmptyText, "<text>: empty text, nothing to compute features of"),
        ("no marks in here", api.NoMarks, "<text>: no punctuation mark in the text, nothing to compute features of"),
        ("<!DOCTYPE html><html>Hi.</html>", api.HtmlText, "<text>: an HTML page, not a text (starts with <!doctype)"),
        ("a, b.\x00", api.BinaryText, "<text>: not a plain text file (binary content, NUL bytes)"),
    ],
)
def test_refusals_are_the_clis_one_line_messages(tmp_path, capsys, text, kind, message):
    with pytest.raises(kind) as caught:
        api.features(text)
    assert str(caught.value) == message and isinstance(caught.value, InputError)
    path = tmp_path / "t.txt"
    path.write_bytes(text.encode("utf-8"))
    from punctstyle import cli

    assert cli.main(["features", str(path)]) == 2
    assert capsys.readouterr().err == f"punctstyle: error: {message.replace('<text>', str(path))}\n"


def test_too_large_is_refused_by_the_reader(tmp_path):
    path = tmp_path / "big.txt"
    path.write_text("a, b. " * 400_000)
    with pytest.raises(api.TooLarge, match=r"big.txt: larger than 1 MB"):
        api.read_text(str(path), 1024 * 1024)


def test_extract_and_features_of_a_string():
    sequence = api.extract("Yes, no; maybe!")
    assert sequence.marks.tolist() == [4, 7, 0] and sequence.gaps.tolist() == [1, 1, 1]
    assert api.features("Yes, no; maybe!")["f1"].tolist() == pytest.approx([1 / 3, 0, 0, 0, 1 / 3, 0, 0, 1 / 3, 0, 0])
    assert len(api.extract("")) == 0  # extract does not refuse: the empty sequence


def test_import_punctstyle_stays_light_and_exports_the_api(tiny_run):
    code = ("import sys, punctstyle\nlight = not {'matplotlib', 'torch', 'flask'} & set(sys.modules)\n"
            f"results = punctstyle.open_results({str(tiny_run)!r})\n"
            "print(light, results.kind, 'torch' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=120,
                          env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["True", "run", "False"]


# --------------------------------------------------------------------------- a run


def test_open_results_refuses_what_is_neither(tmp_path):
    with pytest.raises(InputError, match="no such folder"):
        api.open_results(tmp_path / "absent")
    with pytest.raises(InputError, match="neither a finished run .* nor an attribution bundle"):
        api.open_results(tmp_path)


def test_tables_of_a_run(tiny_run):
    results = api.open_results(tiny_run)
    assert results.kind == "run" and not results.has_bundle
    assert results.authors().to_dict("list") == {"author": sorted(STYLES), "n_books": [2, 2, 2]}
    assert results.documents()["book_id"].tolist() == [10, 11, 20, 21, 30, 31]
    assert results.corpus("f3").shape == (6, 6 + 100)
    signatures = results.signatures()  # no bundle: the class means of the corpus tables
    f1 = results.corpus("f1")
    expected = f1[f1["author"] == "Comma, Cid"][feature_column_names("f1")].mean().to_numpy()
    assert results.fingerprint("Comma, Cid")["f1"] == pytest.approx(expected)
    assert signatures.set_index("author").loc["Comma, Cid", "n_books"] == 2
    assert results.recognition("author")["accuracy[f1]"].tolist() == [0.75]
    assert results.recognition_tasks() == ["author"]
    assert len(results.sequence(20)) == int(f1.set_index("book_id").loc[20, "n_marks"])


@pytest.mark.parametrize("book", [99, "../../etc/passwd", "20/../10"])
def test_a_book_outside_the_corpus_is_refused(tiny_run, book):
    with pytest.raises(InputError):
        api.open_results(tiny_run).sequence(book)


def test_refusals_of_a_run(tiny_run):
    results = api.open_results(tiny_run)
    with pytest.raises(InputError, match="f9: not a feature"):
        results.corpus("f9")
    with pytest.raises(InputError, match="Nobody: no such author"):
        results.fingerprint("Nobody")
    with pytest.raises(InputError, match="no such recognition table"):
        results.recognition("../author")
    with pytest.raises(InputError, match="genre_summary.csv: no such file in this run"):
        results.recognition("genre")


def test_figures_are_matplotlib_figures(tiny_run):
    from matplotlib.figure import Figure

    results = api.open_results(tiny_run)
    sequence = results.sequence(10)
    figure = api.sequence_figure(sequence)
    assert isinstance(figure, Figure)
    assert figure.axes[0].images[0].get_array().shape == (-(-len(sequence) // 40), 40)  # rows by length
    fingerprint = api.author_figure(results, "Bang, Bea")
    assert len(fingerprint.axes) == 3  # f1 bars, f3 heat map, colour bar
    assert fingerprint.axes[1].images[0].get_array().shape == (10, 10)
    three = api.fingerprint_figure({a: results.fingerprint(a) for a in STYLES})
    assert len(three.axes) == 3 * 2 + 1
    compared = api.comparison_figure({a: results.fingerprint(a) for a in STYLES})
    assert len(compared.axes) == 1 + 3 + 1  # grouped f1 bars, three f3 heat maps, colour bar
    assert len(compared.axes[0].patches) == 3 * 10
    with pytest.raises(ValueError, match="compare 1 to 5"):
        api.comparison_figure({})


# --------------------------------------------------------------------------- the app (Flask's test client)


@pytest.fixture(scope="module")
def client(tiny_run):
    from punctstyle.app.server import create_app

    return create_app(api.open_results(tiny_run), max_upload_bytes=4096).test_client()


def refusal(response) -> str:
    page = response.get_data(as_text=True)
    assert "Traceback" not in page
    start = page.index('id="refusal"')
    return page[page.index(">", start) + 1: page.index("</p>", start)]


@pytest.mark.parametrize("path", ["/", "/authors", "/authors/Comma, Cid", "/books", "/books/21", "/recognition"])
def test_every_page_answers(client, path):
    response = client.get(path)
    assert response.status_code == 200
    assert "punctstyle" in response.get_data(as_text=True)


def test_recognition_page_shows_mean_and_sd():
    from punctstyle.app.views import mean_sd_table

    summary = pd.DataFrame({"method": ["kl"], "n_classes": [2], "accuracy[f1]": [0.75], "accuracy_std[f1]": [0.25],
                            "accuracy[all]": [float("nan")], "baseline": [0.5]})
    shown = mean_sd_table(summary)
    assert shown.to_dict("records") == [{"method": "kl", "n_classes": 2, "f1": "0.750 ± 0.250", "all": "",
                                          "baseline": "0.500"}]


def test_corpus_pages_draw_inline_figures(client):
    page = client.get("/authors/Comma, Cid").get_data(as_text=True)
    assert page.count('src="data:image/png;base64,') == 1 and "Book 20" in page
    assert client.get("/books/21").get_data(as_text=True).count('src="data:image/png;base64,') == 2


@pytest.mark.parametrize(
    ("upload", "status", "message"),
    [
        ((b"", "empty.txt"), 400, "empty.txt: empty text, nothing to attribute"),
        ((b"\x00\x01\x02binary", "data.bin"), 400, "data.bin: not a plain text file (binary content, NUL bytes)"),
        ((b"<html><body>x.</body></html>", "page.html"), 400, "page.html: an HTML page, not a text (starts with &lt;html)"),
        ((b"a, b. " * 1000, "big.txt"), 413, "larger than 0.003906 MB"),
    ],
)
def test_bad_uploads_are_messages_in_the_page(client, upload, status, message):
    data, name = upload
    response = client.post("/text", data={"text": "", "file": (io.BytesIO(data), name)},
                           content_type="multipart/form-data")
    assert response.status_code == status
    assert message in refusal(response)


def test_a_text_without_a_bundle_is_drawn_not_attributed(client):
    response = client.post("/text", data={"text": STYLES["Bang, Bea"] * 5})
    page = response.get_data(as_text=True)
    assert response.status_code == 200 and page.count("data:image/png;base64,") == 1
    assert refusal(client.post("/text", data={"text": "words only"})) == (
        "the pasted text: no punctuation mark in the text, nothing to draw")


@pytest.mark.parametrize("path", ["/books/99", "/authors/Nobody", "/static/../../pyproject.toml", "/elsewhere"])
def test_unknown_pages_are_404_pages(client, path):
    response = client.get(path)
    assert response.status_code == 404 and "Traceback" not in response.get_data(as_text=True)


def test_static_files_are_the_packages(client):
    assert client.get("/static/style.css").status_code == 200
    page = client.get("/").get_data(as_text=True)
    assert "http://" not in page and "https://" not in page  # nothing from the internet


def test_a_new_view_is_one_function_and_one_route(tiny_run, monkeypatch):
    """What `verify` and `rolling` will do: a view function and a Route entry, nothing else."""
    from flask import request

    from punctstyle.app import server, views

    def count_marks() -> str:
        name, text = views.submitted_text()
        return views.page(name, [views.Section(f"{request.form['author']}: {len(api.extract(text))} marks")])

    routes = views.ROUTES + (views.Route("/count", "count", count_marks, methods=("POST",), button="Count",
                                         asks_author=True),)
    monkeypatch.setattr(views, "ROUTES", routes)
    monkeypatch.setattr(server, "ROUTES", routes)
    client = server.create_app(api.open_results(tiny_run), max_upload_bytes=4096).test_client()
    home = client.get("/").get_data(as_text=True)
    assert 'formaction="/count"' in home and "<option>Comma, Cid</option>" in home
    answer = client.post("/count", data={"text": "Yes, no; maybe!", "author": "Comma, Cid"}).get_data(as_text=True)
    assert "Comma, Cid: 3 marks" in answer


def test_the_app_command_serves_on_localhost(tiny_run):
    import urllib.request

    from punctstyle import cli

    args = cli.build_parser().parse_args(["app", str(tiny_run)])
    assert (args.host, args.port) == ("127.0.0.1", 8050)
    with pytest.raises(SystemExit):
        cli.build_parser().parse_args(["app", str(tiny_run), "--port", "70000"])
    server = subprocess.Popen([sys.executable, "-m", "punctstyle", "app", str(tiny_run), "--port", "0"],
                              stderr=subprocess.PIPE, text=True, cwd=REPO, env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"})
    try:
        line = server.stderr.readline()
        assert " on http://127.0.0.1:" in line, line
        url = line.split(" on ", 1)[1].split()[0]
        with urllib.request.urlopen(url + "authors", timeout=60) as response:
            assert response.status == 200 and "Comma, Cid" in response.read().decode("utf-8")
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_the_app_command_refuses_a_folder_that_is_no_run(tmp_path, capsys):
    from punctstyle import cli

    assert cli.main(["app", str(tmp_path)]) == 2
    assert capsys.readouterr().err == (f"punctstyle: error: {tmp_path}: neither a finished run (no corpus/f1.parquet) "
                                       "nor an attribution bundle (no manifest.json and mlp.pt)\n")
