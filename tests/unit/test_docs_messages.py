"""The refusal tables of docs/api.md and docs/app.md say exactly what the code says: each
documented message is made here by the code, on tiny invented runs and bundles, and the two lists
are compared both ways (a message changed in the code, or in the docs, fails)."""

from __future__ import annotations

import html
import io
import json
import re
import shutil

import numpy as np
import pandas as pd
import pytest

from punctstyle import api
from punctstyle.api.text import MEGABYTE, too_large
from punctstyle.io import InputError
from tests.conftest import REPO
from tests.unit.test_api import refusal, tiny_run  # noqa: F401  (module-scoped run fixture)
from tests.unit.test_app_views import model, write_maps  # noqa: F401  (module-scoped model fixture)
from tests.unit.test_cli import tiny_bundle  # noqa: F401  (module-scoped bundle fixture)
from tests.unit.test_verify_command import bundle as verification_bundle  # noqa: F401
from tests.unit.test_verify_command import styled_text

CODE_SPAN = re.compile(r"``\s?(.+?)\s?``|`([^`]+)`")
ELLIPSIS = " (...)"
"""A documented message ending so stands for any detail in the parentheses (a library's words)."""


def documented(doc: str, header: str) -> list[str]:
    """The messages (the code spans of the last column) of the table under ``header`` in ``doc``."""
    lines = (REPO / "docs" / doc).read_text(encoding="utf-8").splitlines()
    start = lines.index(header)
    messages = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        cell = line.rstrip().rstrip("|").rsplit(" | ", 1)[-1]
        messages += [a or b for a, b in CODE_SPAN.findall(cell)]
    return messages


def same(documented_messages: list[str], made: list[str]) -> None:
    """Both lists hold the same messages; ``(...)`` at the end of a documented one matches any detail."""
    def key(message: str) -> str:
        return message.removesuffix(ELLIPSIS)

    cut = [m.split(" (", 1)[0] if any(d.endswith(ELLIPSIS) and m.startswith(key(d) + " (") for d in documented_messages)
           else m for m in made]
    assert sorted(key(m) for m in documented_messages) == sorted(cut)


def message(call) -> str:
    with pytest.raises((InputError, TypeError)) as caught:
        call()
    return str(caught.value)


@pytest.fixture()
def folders(tiny_run, model, tiny_bundle, tmp_path):  # noqa: F811
    """Copies a test may change: a run named ``results``, the bundle with verification files named
    ``attribution``, and a bundle without one author's signature."""
    run, bundle, broken = tmp_path / "results", tmp_path / "attribution", tmp_path / "broken" / "attribution"
    shutil.copytree(tiny_run, run)
    shutil.copytree(model, bundle)
    shutil.copytree(tiny_bundle[0], broken)
    signatures = pd.read_parquet(broken / "signatures.parquet")
    signatures[signatures["author"] != "Comma, Cid"].to_parquet(broken / "signatures.parquet", index=False)
    return run, bundle, broken


def test_the_apis_refusals_are_documented_word_for_word(folders):
    run, bundle, broken = folders
    text = styled_text("Quoting Writer", np.random.default_rng(6))
    books = "".join(f"*** START OF THE PROJECT GUTENBERG EBOOK {t} ***\nYes, no.\n*** END OF THE PROJECT GUTENBERG "
                    f"EBOOK {t} ***\n" for t in ("ONE", "TWO"))
    threshold = json.loads((bundle / "threshold.json").read_text())
    made = [
        message(lambda: api.features(" \n")),
        message(lambda: api.open_results(bundle).attribute(" ")),
        message(lambda: api.features("no marks here")),
        message(lambda: api.open_results(bundle).attribute("no marks here")),
        message(lambda: api.rolling("no marks here", bundle)),
        str(too_large("book.txt", 64 * MEGABYTE)),  # what read_text raises past the limit
        message(lambda: api.features("<!DOCTYPE html><html>Hi.</html>")),
        message(lambda: api.features("a, b.\x00")),
        message(lambda: api.features(books)),
        message(lambda: api.verify("Yes, no.", "Quoting Writer", bundle)),
        message(lambda: api.verify(text, " Quoting Writer ", bundle)).replace(str(bundle), "BUNDLE"),
        message(lambda: api.rolling("One, two. Three; four.", bundle, window=50)),
        message(lambda: api.rolling(text, bundle, window=0)),
    ]
    write_maps(run, "all")
    write_maps(run, "f3")
    made.append(message(lambda: api.open_results(run).maps("words")).replace(str(run), "RUN"))
    link = run / "sequences" / "10.parquet"
    shutil.move(link, run.parent / "10.parquet")
    link.symlink_to(run.parent / "10.parquet")
    made.append(message(lambda: api.open_results(run).sequence(10)))
    table = run / "corpus" / "f1.parquet"
    table.write_bytes(table.read_bytes()[:300])
    made.append(message(lambda: api.open_results(run).documents()).replace(str(run), "RUN"))
    made.append(message(lambda: api.attribute(text, broken)).replace(str(broken), "BUNDLE"))
    (bundle / "threshold.json").write_text(json.dumps({**threshold, "min_marks": "many"}))
    made.append(message(lambda: api.verify(text, "Quoting Writer", bundle)).replace(str(bundle), "BUNDLE"))
    same(documented("api.md", "| exception | when | message (a text handed over as a string is named `<text>`) |")
         + documented("api.md", "| call | when | message |"), made)


def page_message(response) -> tuple[int, str]:
    if response.mimetype == "text/plain":
        return response.status_code, response.get_data(as_text=True).strip()
    return response.status_code, html.unescape(refusal(response))


def test_the_apps_refusals_are_documented_word_for_word(folders):
    from punctstyle.app.server import create_app

    run, bundle, _ = folders
    on_bundle = create_app(api.open_results(bundle), max_upload_bytes=1 << 20).test_client()
    on_run = create_app(api.open_results(run), max_upload_bytes=4096).test_client()

    def upload(client, data: bytes, name: str):
        return client.post("/text", data={"text": "", "file": (io.BytesIO(data), name)},
                           content_type="multipart/form-data")

    text = '"Yes," he said. ' * 40
    books = "".join(f"*** START OF THE PROJECT GUTENBERG EBOOK {t} ***\nYes, no.\n*** END OF THE PROJECT GUTENBERG "
                    f"EBOOK {t} ***\n" for t in ("ONE", "TWO"))
    responses = [
        upload(on_bundle, b"", "empty.txt"),
        on_bundle.post("/text", data={"text": "words only"}),
        on_run.post("/text", data={"text": "words only"}),
        upload(on_bundle, b"\x00\x01binary", "data.bin"),
        upload(on_bundle, b"<html><body>x.</body></html>", "page.html"),
        upload(on_bundle, books.encode(), "books.txt"),
        upload(on_run, b"a, b. " * 1000, "big.txt"),
        on_bundle.post("/verify", data={"text": text}),
        on_bundle.post("/verify", data={"text": styled_text("Quoting Writer", np.random.default_rng(6)),
                                        "author": " Quoting Writer "}),
        on_bundle.post("/verify", data={"text": "  ", "author": "Quoting Writer"}),
        on_bundle.post("/verify", data={"text": "Yes, no.", "author": "Quoting Writer"}),
        on_run.post("/verify", data={"text": text, "author": "Comma, Cid"}),
        on_bundle.post("/rolling", data={"text": "One, two. Three; four."}),
        on_run.post("/rolling", data={"text": text}),
        on_bundle.get("/books"),
        on_run.get("/books/99"),
        on_run.get("/authors/Nobody"),
    ]
    link = run / "sequences" / "10.parquet"
    shutil.move(link, run.parent / "10.parquet")
    link.symlink_to(run.parent / "10.parquet")
    responses.append(on_run.get("/books/10"))
    responses.append(on_run.get("/", headers={"Host": "attacker.example"}))
    table = run / "corpus" / "f1.parquet"
    table.write_bytes(table.read_bytes()[:300])
    responses.append(create_app(api.open_results(run), max_upload_bytes=4096).test_client().get("/"))  # read anew
    assert all(r.status_code >= 400 for r in responses), [i for i, r in enumerate(responses) if r.status_code < 400]
    made = [page_message(r) for r in responses]
    lines = (REPO / "docs" / "app.md").read_text(encoding="utf-8").splitlines()
    rows = lines[lines.index("| when | status | message |") + 2:]
    statuses = [int(row.split(" | ")[1]) for row in rows[: next(i for i, r in enumerate(rows) if not r.startswith("|"))]
                for _ in CODE_SPAN.findall(row.rstrip().rstrip("|").rsplit(" | ", 1)[-1])]
    same(documented("app.md", "| when | status | message |"), [m for _, m in made])
    assert sorted(statuses) == sorted(status for status, _ in made)
