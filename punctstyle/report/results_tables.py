"""The markdown tables of docs/results.md (Tables 2, 3, 4, the word baselines on whole books and
the validation hold-out's author and genre rows) from the stored summaries
(``docs/evidence/default_run/`` and ``docs/evidence/protocol_rows/``), at the page's precision.

Every cell is a stored value rounded: ``mean ± sd`` over seeds at three decimals, the paper's
printed value (``paper_tables.csv``), the difference to the paper ``d = mean - paper`` at three
decimals and ``d / sd`` (the sd over seeds) at one (``paper_comparison.csv``). Training and test sizes
(means over seeds) are shown as stored: whole, or at one decimal (:func:`count_cell`). The page quotes
these tables verbatim; ``tests/unit/test_results_tables.py`` compares them row by row.
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from punctstyle.report.table_spec import rewrite_page

SETS = ("f1", "f3", "f4", "f5", "f1+f3+f4+f5", "all", "f7")
"""Feature sets of Tables 3-4, in the page's column order."""
KL_SETS = ("f1", "f3", "f4", "f5")
"""The paper's feature sets of KL nearest class (Table 2)."""
WORD_SIZES = (100, 500, 1000)
"""The vocabulary sizes k of the word baselines."""
WORD_METHODS = (
    ("delta", "words", "Burrows' Delta", ("kl", "f3", "KL nearest class f3")),
    ("mlp", "words", "network, words", ("mlp", "all", "network, all features")),
    ("mlp", "all+words", "network, words + all punctuation features", None),
)
"""(method, feature-set prefix, label, punctuation row shown beside it: method, set, label)."""
PAPER_GENRE_SIZES = (1930, 483)
"""The training and test documents of the paper's 32-genre row (Table 4)."""


def cell(line: pd.Series, name: str) -> str:
    """``mean ± sd`` of feature set ``name`` at three decimals; empty where not computed."""
    mean, sd = line.get(f"accuracy[{name}]"), line.get(f"accuracy_std[{name}]")
    if mean is None or pd.isna(mean):
        return ""
    return f"{mean:.3f}" + ("" if sd is None or pd.isna(sd) else f" ± {sd:.3f}")


def count_cell(value: float) -> str:
    """A count or a mean count over seeds as stored: whole (``310``) or at one decimal (``221.2``)."""
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.1f}"


def summary_row(summary: pd.DataFrame, task: str, method: str, classes: int) -> pd.Series:
    """The one summary line of (task, method, number of classes)."""
    found = summary[(summary["task"] == task) & (summary["method"] == method) & (summary["n_classes"] == classes)]
    if len(found) != 1:
        raise ValueError(f"no single {task} {method} {classes}-class row")
    return found.iloc[0]


def paper_number(value: float) -> str:
    """A paper value as printed there: at least two decimals (0.30, 0.094, 0.0079)."""
    text = format(value, "g")
    return f"{value:.2f}" if "." not in text or len(text.split(".")[-1]) < 2 else text


def paper_cells(paper: pd.DataFrame, task: str, method: str, classes: int, sets) -> list[str]:
    """The paper's printed values of ``sets`` (empty where the paper has none)."""
    cells = paper[(paper["task"] == task) & (paper["method"] == method) & (paper["classes"] == classes)]
    values = dict(zip(cells["feature set"], cells["paper"], strict=True))
    return [paper_number(values[s]) if s in values else "" for s in sets]


def difference_cells(comparison: pd.DataFrame, task: str, method: str, classes: int, sets) -> list[str]:
    """``d (d / sd)`` per feature set: ``d = mean - paper`` (three decimals), ``d / sd`` over seeds
    (one decimal); empty where the paper has no value."""
    found = comparison[
        (comparison["task"] == task) & (comparison["method"] == method) & (comparison["classes"] == classes)
    ]
    out = []
    for s in sets:
        line = found[found["feature set"] == s]
        if len(line) != 1:
            out.append("")
            continue
        diff, in_sd = float(line["difference"].iloc[0]), float(line["difference / sd"].iloc[0])
        out.append(f"{diff:+.3f}" + ("" if math.isnan(in_sd) else f" ({in_sd:+.1f})"))
    return out


def markdown(header: list[str], rows: list[list[str]]) -> list[str]:
    """The lines of a markdown table (header, rule, rows)."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return lines + ["| " + " | ".join(r) + " |" for r in rows]


def class_label(classes: int, largest: int) -> str:
    """``52 (all)`` for the largest class size, else the number."""
    return f"{classes} (all)" if classes == largest else str(classes)


def table2(author: pd.DataFrame, comparison: pd.DataFrame, paper: pd.DataFrame) -> list[str]:
    """Table 2: KL nearest class on authors, paper / ours / difference per class size."""
    largest = int(author["n_classes"].max())
    rows = []
    for classes in (10, 50, largest):
        line, label = summary_row(author, "author", "kl", classes), class_label(classes, largest)
        if classes != largest:
            printed = paper_cells(paper, "author", "kl", classes, (*KL_SETS, "baseline"))
            rows.append([label, "", "", "paper", *printed[:4], "", printed[4]])
        rows.append([label, count_cell(line["n_train"]), count_cell(line["n_test"]), "ours",
                     *[cell(line, s) for s in (*KL_SETS, "f7")], f"{line['baseline']:.3f}"])  # fmt: skip
        if classes != largest:
            rows.append([label, "", "", "difference (sd over seeds)",
                         *difference_cells(comparison, "author", "kl", classes, KL_SETS), "", ""])  # fmt: skip
    header = ["authors", "train", "test", "", *KL_SETS, "f7 (beyond the paper)", "baseline"]
    return markdown(header, rows)


def table3(author: pd.DataFrame, comparison: pd.DataFrame, paper: pd.DataFrame) -> list[str]:
    """Table 3: the network on authors (the paper's protocol), paper / ours / difference."""
    largest = int(author["n_classes"].max())
    rows = []
    for classes in (10, 50, largest):
        line, label = summary_row(author, "author", "mlp", classes), class_label(classes, largest)
        if classes != largest:
            printed = paper_cells(paper, "author", "mlp", classes, (*SETS[:6], "baseline"))
            rows.append([label, "paper", *printed[:6], "", printed[6]])
        rows.append([label, "ours, paper's protocol", *[cell(line, s) for s in SETS], f"{line['baseline']:.3f}"])
        if classes != largest:
            rows.append([label, "difference (sd over seeds)",
                         *difference_cells(comparison, "author", "mlp", classes, SETS[:6]), "", ""])  # fmt: skip
    return markdown(["authors", "", "f1", "f3", "f4", "f5", "{f1,f3,f4,f5}", "all", "f7", "baseline"], rows)


def table4(genre: pd.DataFrame, paper: pd.DataFrame) -> list[str]:
    """Table 4: genres, the paper's 32-genre network row beside ours (network and KL)."""
    largest = int(genre["n_classes"].max())
    rows = [["32", "paper (network)", *map(str, PAPER_GENRE_SIZES), *paper_cells(paper, "genre", "mlp", 32, (*SETS[:6], "")),
             paper_cells(paper, "genre", "mlp", 32, ("baseline",))[0]]]  # fmt: skip
    for classes in (largest, 10):
        for method, name in (("mlp", "ours, network, paper's protocol"), ("kl", "ours, KL nearest class")):
            line = summary_row(genre, "genre", method, classes)
            rows.append([class_label(classes, largest), name, count_cell(line["n_train"]), count_cell(line["n_test"]),
                         *[cell(line, s) for s in SETS], f"{line['baseline']:.3f}" if method == "mlp" else ""])  # fmt: skip
    header = ["genres", "", "train", "test", "f1", "f3", "f4", "f5", "{f1,f3,f4,f5}", "all", "f7", "baseline"]
    return markdown(header, rows)


def words_table(words: pd.DataFrame, author: pd.DataFrame) -> list[str]:
    """The word baselines on whole books (Burrows' Delta, the network on words, alone and beside
    all punctuation features) at k = 100, 500, 1000, with the punctuation row of the same splits."""
    largest = int(words["n_classes"].max())
    rows = []
    for classes in (10, 50, largest):
        for method, prefix, label, beside in WORD_METHODS:
            line = summary_row(words, "author", method, classes)
            punctuation = ""
            if beside is not None:
                shown = summary_row(author, "author", beside[0], classes)
                punctuation = f"{beside[2]} {cell(shown, beside[1])}"
            rows.append([class_label(classes, largest), label, *[cell(line, f"{prefix}{k}") for k in WORD_SIZES],
                         punctuation])  # fmt: skip
    header = ["authors", "method", *[f"k = {k}" for k in WORD_SIZES], "punctuation, same splits (Tables 2-3)"]
    return markdown(header, rows)


def effect_cell(effect: pd.DataFrame, task: str, classes: int, name: str) -> str:
    """``+d ± sd (k of n)``: the paper's protocol minus the validation hold-out, paired by seed
    (``d`` the mean of the per-seed differences, ``sd`` their sd), and the seeds in which the
    paper's protocol is at least as good."""
    found = effect[(effect["task"] == task) & (effect["n_classes"] == classes) & (effect["feature_set"] == name)]
    if len(found) != 1:
        raise ValueError(f"no single {task} {classes}-class {name} protocol effect")
    line = found.iloc[0]
    return f"{line['effect']:+.3f} ± {line['effect_sd']:.3f} ({line['seeds_paper_at_least']:.0f} of {line['seeds']:.0f})"


EFFECT_LABEL = "protocol effect (paper's minus validation; seeds with paper's >=)"


def validation_table(summary: pd.DataFrame, effect: pd.DataFrame, task: str, sizes: tuple[int | None, ...]) -> list[str]:
    """The network with the validation hold-out (mean ± sd over seeds) and the protocol effect,
    one pair of rows per class size of ``sizes``, in the page's order (``None``: the largest);
    genre rows carry the train and test sizes."""
    largest = int(summary["n_classes"].max())
    genre = task == "genre"
    rows = []
    for classes in (largest if size is None else size for size in sizes):
        line, label = summary_row(summary, task, "mlp", classes), class_label(classes, largest)
        counts = [count_cell(line["n_train"]), count_cell(line["n_test"])] if genre else []
        name = "ours, network, validation hold-out" if genre else "ours, validation hold-out"
        rows.append([label, name, *counts, *[cell(line, s) for s in SETS]])
        rows.append([label, EFFECT_LABEL, *([""] * len(counts)), *[effect_cell(effect, task, classes, s) for s in SETS]])
    first = ["genres", "", "train", "test"] if genre else ["authors", ""]
    return markdown([*first, *SETS[:4], "{f1,f3,f4,f5}", "all", "f7"], rows)


def results_tables(folder: Path, protocol: Path | None = None) -> dict[str, list[str]]:
    """Name -> markdown lines of every table results.md quotes from the stored run ``folder``
    and the validation hold-out's rows ``protocol`` (default: ``protocol_rows`` beside it)."""
    read = {name: pd.read_csv(folder / f"{name}.csv") for name in
            ("author_summary", "author_words_summary", "genre_summary", "paper_comparison", "paper_tables")}  # fmt: skip
    author, comparison, paper = read["author_summary"], read["paper_comparison"], read["paper_tables"]
    protocol = folder.parent / "protocol_rows" if protocol is None else protocol
    effect = pd.read_csv(protocol / "protocol_effect.csv")
    validation = {task: pd.read_csv(protocol / f"{task}_validation_summary.csv") for task in ("author", "genre")}
    return {
        "Table 2": table2(author, comparison, paper),
        "Table 3": table3(author, comparison, paper),
        "Table 4": table4(read["genre_summary"], paper),
        "Words": words_table(read["author_words_summary"], author),
        "Author validation": validation_table(validation["author"], effect, "author", (10, 50, None)),
        "Genre validation": validation_table(validation["genre"], effect, "genre", (None, 10)),
    }


PAGE_HEADINGS = {
    "Table 2": "## Author recognition, KL nearest class (Table 2)",
    "Table 3": "## Author recognition, neural network (Table 3)",
    "Table 4": "## Genre recognition (Table 4)",
    "Words": "## Beyond the paper: punctuation against words on whole books",
    "Author validation": "## Author recognition with the validation hold-out",
    "Genre validation": "## Genre recognition with the validation hold-out",
}
"""Name of a generated table -> the start of the docs/results.md heading it stands under."""


def table_span(lines: list[str], heading: str) -> tuple[int, int]:
    """[start, end) of the first markdown table (consecutive lines starting with ``|``) under
    the one ``##`` heading of ``lines`` that starts with ``heading``, before the next ``##``
    (an empty span where there is none)."""
    starts = [i for i, line in enumerate(lines) if line.startswith(heading)]
    if len(starts) != 1:
        raise ValueError(f"{len(starts)} headings start with {heading!r}")
    start = starts[0] + 1
    while start < len(lines) and not lines[start].startswith(("|", "## ")):
        start += 1
    end = start
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    return start, end


def page_table(text: str, heading: str) -> list[str]:
    """The lines of the first markdown table under the ``##`` heading starting with
    ``heading`` (``table_span``)."""
    lines = text.splitlines()
    start, end = table_span(lines, heading)
    return [line.rstrip() for line in lines[start:end]]


def rewrite_results(text: str, folder: Path, root: Path, page: str = "docs/results.md") -> str:
    """``text`` (docs/results.md) with the tables of ``results_tables(folder)`` under their
    headings (``PAGE_HEADINGS``) and every table marked by a ``<!-- table: ... -->`` comment
    (``punctstyle.report.table_spec``, CSV paths relative to ``root``) rendered anew."""
    lines = rewrite_page(text, root, page).splitlines()
    for name, generated in results_tables(folder).items():
        start, end = table_span(lines, PAGE_HEADINGS[name])
        if start == end:
            raise ValueError(f"{page}: no table under {PAGE_HEADINGS[name]!r}")
        lines[start:end] = generated
    return "\n".join(lines) + ("\n" if text.endswith("\n") else "")


def rewrite_docs_page(text: str, folder: Path, root: Path, page: str) -> str:
    """``text`` of the docs page ``page`` with its generated tables rendered anew: docs/results.md
    (a page named ``results.md``) by ``rewrite_results``, which also fills ``PAGE_HEADINGS``'
    tables, any other page (docs/performance.md) only its marked tables (``rewrite_page``)."""
    if Path(page).name == "results.md":
        return rewrite_results(text, folder, root, page)
    return rewrite_page(text, root, page)


def table_differences(page: list[str], generated: list[str]) -> list[str]:
    """Row by row, ``row i: page '...' != generated '...'`` for each row that differs, and one
    line for rows only one side has."""
    out = [f"row {i}: page {a!r} != generated {b!r}" for i, (a, b) in enumerate(zip(page, generated)) if a != b]
    if len(page) != len(generated):
        out.append(f"page has {len(page)} rows, generated {len(generated)}")
    return out
