"""The app's pages: each is a function returning :func:`page` of :class:`Section` objects, and
one :class:`Route` entry in :data:`ROUTES`. A new view is one function here and one entry in
:data:`ROUTES` (``nav`` set when it belongs in the top bar); the generic
template ``page.html`` draws its sections (a heading, notes, a warning, a figure, a table, links).
"""

from __future__ import annotations

import base64
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd
from flask import Response, abort, current_app, render_template, request, send_file, url_for
from matplotlib.figure import Figure
from werkzeug.exceptions import RequestEntityTooLarge

from punctstyle.api.figures import author_figure, fingerprint_figure, rolling_figure, sequence_figure, text_figure
from punctstyle.api.results import Results
from punctstyle.api.text import EmptyText, decoded_text, too_large
from punctstyle.io import InputError

FIGURE_DPI = 80
NEAREST_AUTHORS = 2
UPLOAD_HINT = "start the app with a larger --max-mb"
ECHO_CHARACTERS = 20_000
"""A text up to this many characters is put back in the text box with its answer; a longer one
(a whole book) is not sent back: the page says so."""
WINDOW_HINT = "paste a longer text: a slice is the bundle's threshold, at least 800 marks"
NO_BUNDLE = ("{folder}: no attribution bundle here (models/attribution/ of the run): texts can be drawn, "
             "not {what}; build it with `snakemake attribution_model`, then restart the app")


@dataclass
class Section:
    """One block of a page; every field but ``heading`` is optional."""

    heading: str
    notes: list[str] = field(default_factory=list)
    warning: str | None = None
    figure: str | None = None  # a data: URI (PNG)
    figure_alt: str = ""
    table: str | None = None  # HTML of a DataFrame (escaped)
    links: list[tuple[str, str]] = field(default_factory=list)  # (href, label)


@dataclass(frozen=True)
class Route:
    """A page: ``nav`` puts it in the top bar; ``button`` makes it a submit button of the text
    form (a POST view that reads the form, as ``/text`` does); ``asks_author`` adds the form's
    author menu (the form field ``author``, e.g. for verification against a chosen author)."""

    rule: str
    endpoint: str
    view: Callable[..., Any]
    methods: tuple[str, ...] = ("GET",)
    nav: str | None = None
    button: str | None = None
    asks_author: bool = False


def opened() -> Results:
    return current_app.config["PUNCTSTYLE_RESULTS"]


def page(title: str, sections: Sequence[Section], text: str = "") -> str:
    """The page of ``sections``; ``text`` goes back into the text box unless it is longer than
    :data:`ECHO_CHARACTERS` (then a note says it was not sent back)."""
    sections = list(sections)
    if len(text) > ECHO_CHARACTERS:
        sections.append(Section("The text", notes=[f"The text ({len(text):,} characters) is not sent back into the "
                                                   "text box: paste or drop it again to ask another question."]))
        text = ""
    return render_template("page.html", title=title, sections=sections, text=text, refusal=None)


def bundle_opened(what: str) -> Results:
    """The opened results when they hold an attribution bundle; else the app's refusal."""
    results = opened()
    if not results.has_bundle:
        raise InputError(NO_BUNDLE.format(folder=results.folder.name, what=what))
    return results


def figure_uri(fig: Figure) -> str:
    """A figure as an inline PNG (``data:image/png;base64,...``): no file, no second request."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=FIGURE_DPI)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def html_table(frame: pd.DataFrame, digits: int = 3) -> str:
    return frame.to_html(index=False, escape=True, border=0, classes="table", na_rep="n/a",
                         float_format=lambda v: f"{v:.{digits}f}")


# --------------------------------------------------------------------------- a text


def submitted_text() -> tuple[str, str]:
    """(name, text) of the form: an uploaded file (size-limited, decoded as the CLI decodes a
    file, HTML and binary refused) or else the pasted text."""
    limit = current_app.config["PUNCTSTYLE_MAX_BYTES"]
    upload = request.files.get("file")
    if upload is not None and upload.filename:
        name = upload.filename
        data = upload.stream.read(limit + 1)
        if len(data) > limit:
            raise too_large(name, limit, UPLOAD_HINT)
        return name, decoded_text(name, data)
    text = request.form.get("text", "")
    if len(text.encode("utf-8")) > limit:
        raise too_large("the pasted text", limit, UPLOAD_HINT)
    return "the pasted text", decoded_text("the pasted text", text.encode("utf-8"))


def attribution_sections(attribution: Any, results: Results) -> list[Section]:
    """The ranking with the length warning and the trusted method, the sequence, f1 and f3."""
    shown = attribution.shown(5).rename(columns={"probability": "P(author)"})
    shown = shown.rename(columns={c: f"KL {c[3:]}" for c in shown.columns if c.startswith("kl_")})
    notes = [f"Most likely author: {attribution.first_author}.",
             f"{attribution.n_marks} marks, {attribution.sequence.n_words} words; "
             f"{len(attribution.ranking)} authors in the model.",
             "P(author): MLP probability on features " + "+".join(attribution.bundle.model.feature_set)
             + "; KL: divergence from the author's signature to the text (smaller is closer)."]
    if attribution.disagreement is not None:
        notes.append("Note: " + attribution.disagreement.message())
    elif any(c.startswith("kl_") for c in attribution.ranking.columns):
        notes.append("The MLP and the KL-nearest author agree.")
    from punctstyle.api.attribution import answers_lines

    methods = answers_lines(attribution)
    return [
        Section("Who punctuates like this?", notes=notes, warning=attribution.warning, table=html_table(shown, 4)),
        *([Section("Every method", notes=methods)] if methods else []),
        Section("Its punctuation sequence", notes=["One cell per mark, in reading order (the middle of the text)."],
                figure=figure_uri(sequence_figure(attribution.sequence)), figure_alt="punctuation sequence"),
        Section("Its f1 and f3 beside the nearest authors'",
                figure=figure_uri(text_figure(attribution, results.signatures(), NEAREST_AUTHORS)),
                figure_alt="f1 and f3 of the text and its nearest authors"),
    ]


def home() -> str:
    results = opened()
    notes = [f"Opened {results.kind}: {results.folder.name}"]
    if results.kind == "run":
        documents = results.documents()
        notes.append(f"{len(documents)} books by {documents['author'].nunique()} authors.")
    if not results.has_bundle:
        notes.append("No attribution bundle here: texts can be drawn, not attributed.")
    return page("punctstyle", [Section("Paste or drop a text", notes=notes)])


def analyse_text() -> str:
    results = opened()
    name, text = submitted_text()
    if not text.strip():
        raise EmptyText(f"{name}: empty text, nothing to attribute")
    if not results.has_bundle:
        sequence = results_sequence(name, text)
        return page(name, [Section("Its punctuation sequence", figure=figure_uri(sequence_figure(sequence)),
                                   figure_alt="punctuation sequence")], text=text)
    method = chosen_method()
    return page(name, attribution_sections(results.attribute(text, name, method or "auto"), results), text=text)


APP_METHODS: tuple[str, ...] = ("punctuation", "words", "both")
"""The page's method menu (besides the default): the choices ``attribute`` and ``rolling`` share."""


def chosen_method() -> str | None:
    """The page's ``method`` field: None for the default (the trusted method of ``attribute``, the
    bundle's F1 choice of ``rolling``), else one of :data:`APP_METHODS`; another value is refused."""
    value = request.form.get("method", "").strip()
    if not value or value == "default":
        return None
    if value not in APP_METHODS:
        raise InputError(f"unknown method {value!r}: expected default or one of {', '.join(APP_METHODS)}")
    return value


def results_sequence(name: str, text: str) -> Any:
    from punctstyle.api.text import sequence_with_marks

    return sequence_with_marks(name, text, purpose="draw")


# --------------------------------------------------------------------------- the corpus


def authors() -> str:
    table = opened().authors()
    links = [(url_for("author", name=a), f"{a} ({n} books)") for a, n in zip(table["author"], table["n_books"], strict=True)]
    return page("Authors", [Section("Authors and their fingerprints", links=links,
                                    notes=["Each author's mean f1 and f3 over their books."])])


def author(name: str) -> str:
    results = opened()
    if name not in set(results.authors()["author"]):
        abort(404, description=f"{name}: no such author here")
    sections = [Section(name, figure=figure_uri(author_figure(results, name)), figure_alt=f"f1 and f3 of {name}")]
    if results.kind == "run":
        books = results.documents()
        books = books[books["author"] == name]
        sections.append(Section("Books", links=[(url_for("book", book_id=int(b)), f"{t} ({m} marks)")
                                                for b, t, m in zip(books["book_id"], books["title"], books["n_marks"], strict=True)]))
    return page(name, sections)


def books() -> str:
    results = opened()
    if results.kind != "run":
        raise InputError(f"{results.folder}: an attribution bundle holds no books (open a finished run)")
    documents = results.documents()
    links = [(url_for("book", book_id=int(b)), f"{t}, {a} ({m} marks)")
             for b, t, a, m in zip(documents["book_id"], documents["title"], documents["author"], documents["n_marks"], strict=True)]
    return page("Books", [Section("Books of the corpus", links=links)])


def book(book_id: int) -> str:
    results = opened()
    rows = results.documents()
    rows = rows[rows["book_id"] == book_id]
    if rows.empty:
        abort(404, description=f"{book_id}: no such book here")
    row = rows.iloc[0]
    sequence = results.sequence(book_id)
    from punctstyle.features import compute_features

    values = compute_features(sequence.marks, sequence.gaps)
    return page(str(row["title"]), [
        Section(f"{row['title']} by {row['author']}", notes=[f"{len(sequence)} marks, {sequence.n_words} words."],
                figure=figure_uri(sequence_figure(sequence)), figure_alt="punctuation sequence"),
        Section("f1 and f3", figure=figure_uri(fingerprint_figure({str(row["title"]): values})), figure_alt="f1 and f3"),
    ])


def recognition() -> str:
    results = opened()
    tasks = results.recognition_tasks()
    if not tasks:
        return page("Recognition", [Section("Recognition", notes=["No recognition tables here (open a finished run)."])])
    sections = []
    for task in tasks:
        sections.append(Section(f"{task.capitalize()} recognition (accuracy, mean ± sd over seeds)",
                                table=html_table(mean_sd_table(results.recognition(task)))))
    return page("Recognition", sections)


def mean_sd_table(summary: pd.DataFrame) -> pd.DataFrame:
    """``method``, ``n_classes``, then ``mean ± sd`` of each ``accuracy[...]`` and of the baseline
    (the ``*_std`` columns of the summary; an empty cell where a feature set was not run)."""
    shown = summary[["method", "n_classes"]].copy()
    for column in [c for c in summary.columns if c.startswith("accuracy[")] + ["baseline"]:
        if column not in summary:
            continue
        std = column.replace("accuracy[", "accuracy_std[") if column != "baseline" else "baseline_std"
        sd = summary[std] if std in summary else pd.Series(float("nan"), index=summary.index)
        shown[column.removeprefix("accuracy[").removesuffix("]")] = [
            "" if pd.isna(m) else f"{m:.3f}" + ("" if pd.isna(d) else f" ± {d:.3f}")
            for m, d in zip(summary[column], sd, strict=True)]
    return shown


# --------------------------------------------------------------------------- verification, rolling


def verify_view() -> str:
    """A text and a chosen author: the General Imposters score, the decision and its band."""
    results = opened()
    name, text = submitted_text()
    chosen = request.form.get("author", "")
    if not chosen.strip():
        raise InputError("no author chosen: pick one in the author menu, then Verify")
    outcome = results.verify(text, chosen, name)
    band = "whole texts" if outcome.band_length == "whole" else f"excerpts of {outcome.band_length} marks"
    table = pd.DataFrame([{"author": outcome.author, "score": outcome.score, "decision": outcome.decision,
                           "undecided band": f"[{outcome.p1:.2f}, {outcome.p2:.2f}]", "band calibrated on": band}])
    notes = [f"Decision: {outcome.decision}.",
             f"Score {outcome.score:.2f}: the share of General Imposters iterations ({outcome.family}) in which "
             f"{outcome.author}'s texts are nearer to this text than every other author's.",
             f"Below {outcome.p1:.2f}: different author; above {outcome.p2:.2f}: same author; between: undecided.",
             f"{outcome.n_marks} marks, {outcome.n_words} words; {outcome.n_authors} authors in the verification reference."]
    return page(name, [Section(f"Is it by {outcome.author}?", notes=notes, warning=outcome.warning,
                               table=html_table(table, 2))], text=text)


def rolling_view() -> str:
    """A text: the slices' scores along it (the figure) and the change points and segments."""
    from punctstyle.api.language import bundle_language, document_extracted
    from punctstyle.api.results import rolling_sequence
    from punctstyle.api.text import checked_document

    results = bundle_opened("rolled over")
    name, text = submitted_text()
    method = chosen_method()
    # extracted with the bundle's language, as `punctstyle rolling` does (docs/languages.md)
    document = checked_document(text, name)
    sequence, stream, extractor, language_warning = document_extracted(document, bundle_language(results.bundle),
                                                                       None, name, purpose="roll over")
    outcome = rolling_sequence(name, sequence, results.bundle, hint=WINDOW_HINT, method=method, stream=stream,
                               text=document.text, extractor=extractor)
    chars = outcome.segment_chars() or [(None, None)] * len(outcome.segments)
    segments = pd.DataFrame([{"from mark": int(round(a)), "to mark": int(round(b)),
                              **({"from character": c, "to character": d} if c is not None else {}), "author": str(who)}
                             for (a, b, who), (c, d) in zip(outcome.segments, chars, strict=True)])
    changes = ", ".join(f"{c:.0f}" for c in outcome.change_marks) or "none"
    if outcome.has_chars:
        changes += f" (characters of the text: {', '.join(map(str, outcome.change_chars())) or 'none'})"
    notes = [f"{outcome.n_marks} marks; {len(outcome.starts)} slices of {outcome.window} marks every {outcome.step}; "
             f"method {outcome.scores.method} ({outcome.scores.kind}).",
             f"Change points (marks): {changes}."] + ([language_warning] if language_warning else [])
    return page(name, [
        Section("Where does the hand change?", notes=notes, table=html_table(segments)),
        Section("Along the text", notes=["Each slice's score for the authors that win a slice; the strip on top: "
                                         "each slice's author; dashed lines: the change points."],
                figure=figure_uri(rolling_figure(outcome, f"{name}: rolling attribution")),
                figure_alt="rolling attribution along the text"),
    ], text=text)


# --------------------------------------------------------------------------- maps of the corpus

MAP_TITLES = {"pca": "PCA", "mds_delta": "MDS of Delta distances", "mds_kl": "MDS of KL divergences",
              "dendrogram": "Ward dendrogram (Delta)"}


def maps() -> str:
    """Each family's maps (rule corpus_map): its summary and PNG figures, read from the run."""
    results = opened()
    families = results.map_families()
    if not families:
        return page("Maps", [Section("Maps of the corpus", notes=["No maps in this run (open a finished run made "
                                                                  "with maps.enabled)."])])
    sections = []
    for family in families:
        corpus_map = results.maps(family)
        notes = map_notes(corpus_map.summary)
        if not corpus_map.figures:
            sections.append(Section(f"{family}", notes=notes + ["No figure of this family in figures/maps."]))
        for index, name in enumerate(corpus_map.figures):
            sections.append(Section(f"{family}: {MAP_TITLES.get(name, name)}", notes=notes if index == 0 else [],
                                    figure=url_for("map_figure", family=family, name=name),
                                    figure_alt=f"{family} {MAP_TITLES.get(name, name)}"))
    return page("Maps", sections)


def map_notes(summary: dict[str, Any]) -> list[str]:
    """The summary's counts and agreements, in words (absent fields are left out)."""
    notes = []
    if "n_documents" in summary:
        notes.append(f"{summary['n_documents']} books by {summary.get('n_authors', '?')} authors, "
                     f"{summary.get('n_columns', '?')} columns.")
    agreement = [f"{float(summary[key]):.2f} ({label})" for key, label in (
        ("nearest_neighbour_same_author_delta", "Delta"), ("nearest_neighbour_same_author_kl", "KL"))
        if isinstance(summary.get(key), (int, float))]
    if agreement:
        notes.append("Share of books whose nearest neighbour is by the same author: " + ", ".join(agreement) + ".")
    if isinstance(summary.get("ward_delta_purity"), (int, float)):
        notes.append(f"Purity of the Ward tree (Delta) cut into as many clusters as authors: "
                     f"{float(summary['ward_delta_purity']):.2f}.")
    return notes


def map_figure(family: str, name: str) -> Response:
    """One map's PNG: only a file that :meth:`Results.maps` lists, inside the opened folder."""
    results = opened()
    if family not in results.map_families():
        abort(404, description=f"{family}: no maps of this family here")
    path = results.maps(family).figures.get(name)
    if path is None or not path.resolve().is_relative_to(results.folder):
        abort(404, description=f"{family} {name}: no such map here")
    return send_file(path, mimetype="image/png")


ROUTES: tuple[Route, ...] = (
    Route("/", "home", home, nav="Text"),
    Route("/text", "text", analyse_text, methods=("POST",), button="Attribute"),
    Route("/authors", "authors", authors, nav="Authors"),
    Route("/authors/<path:name>", "author", author),
    Route("/books", "books", books, nav="Books"),
    Route("/books/<int:book_id>", "book", book),
    Route("/recognition", "recognition", recognition, nav="Recognition"),
    Route("/maps", "maps", maps, nav="Maps"),
    Route("/maps/<family>/<name>.png", "map_figure", map_figure),
    Route("/verify", "verify", verify_view, methods=("POST",), button="Verify", asks_author=True),
    Route("/rolling", "rolling", rolling_view, methods=("POST",), button="Rolling"),
)
"""Every page of the app: a new view is one function above and one entry here."""


def nav_links() -> list[tuple[str, str]]:
    return [(url_for(route.endpoint), route.nav) for route in ROUTES if route.nav]


def form_context(results: Results) -> dict[str, Any]:
    """The text form's submit buttons ``(url, label)`` and its author menu (empty: none)."""
    buttons = [(url_for(route.endpoint), route.button) for route in ROUTES if route.button]
    asks = any(route.asks_author for route in ROUTES)
    try:
        chosen = request.form.get("author", "") if request.method == "POST" else ""
    except RequestEntityTooLarge:  # the refusal page of a request over the limit: no form to read
        chosen = ""
    try:
        authors = list(results.authors()["author"]) if asks else []
    except InputError:  # an unreadable corpus table: its refusal is the page's message, the menu is empty
        authors = []
    return {"buttons": buttons, "form_authors": authors, "chosen_author": chosen}
