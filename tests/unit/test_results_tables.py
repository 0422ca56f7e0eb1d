"""docs/results.md's Tables 2, 3, 4, the word-baseline table and the validation tables equal the
tables generated from the stored default run (``punctstyle.report.results_tables``, printed by
``benchmarks/results_tables.py docs/evidence/default_run``), and every table the page marks with a
``<!-- table: ... -->`` comment equals its rendering from the stored CSV it names
(``punctstyle.report.table_spec``), row by row; so does every marked table of
docs/performance.md (issue 35 item 1)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from punctstyle.report.table_spec import marked_tables, render_marked
from punctstyle.report.results_tables import (
    PAGE_HEADINGS,
    PAPER_GENRE_SIZES,
    count_cell,
    effect_cell,
    page_table,
    paper_number,
    results_tables,
    rewrite_docs_page,
    rewrite_results,
    table2,
    table4,
    table_differences,
)

REPO = Path(__file__).resolve().parents[2]
RUN = REPO / "docs" / "evidence" / "default_run"
PAGE = (REPO / "docs" / "results.md").read_text(encoding="utf-8")
GENERATED = results_tables(RUN)
MARKED = marked_tables(PAGE, "docs/results.md")
PERFORMANCE = (REPO / "docs" / "performance.md").read_text(encoding="utf-8")
PAGES = {"docs/results.md": PAGE, "docs/performance.md": PERFORMANCE}
ALL_MARKED = [(name, t) for name, text in PAGES.items() for t in marked_tables(text, name)]


@pytest.mark.parametrize("name", sorted(PAGE_HEADINGS))
def test_the_page_quotes_the_generated_table(name):
    page = page_table(PAGE, PAGE_HEADINGS[name])
    assert page, f"no table under {PAGE_HEADINGS[name]!r}"
    assert table_differences(page, GENERATED[name]) == []


@pytest.mark.parametrize(("name", "table"), ALL_MARKED, ids=[f"{n}:{t.comment_line + 1}" for n, t in ALL_MARKED])
def test_a_marked_table_equals_its_rendering_from_the_stored_csv(name, table):
    page = [line.rstrip() for line in PAGES[name].splitlines()[table.start : table.end]]
    generated = render_marked(table, REPO, name)
    assert table_differences(page, generated) == [], f"{name}:{table.comment_line + 1} ({table.spec.source})"


def test_performance_marks_its_stored_tables_and_the_command_leaves_it_unchanged():
    marked = marked_tables(PERFORMANCE, "docs/performance.md")
    assert len(marked) == 21
    sources = [p for t in marked for p in t.spec.sources]
    assert len(sources) == 31 and all((REPO / p).is_file() and p.startswith("docs/evidence/") for p in sources)
    assert rewrite_docs_page(PERFORMANCE, RUN, REPO, "docs/performance.md") == PERFORMANCE
    row = "| 50 authors | 24.8 CPU s, store file 6.10 MB | 17.9 -> **1.1** CPU s (16.31x), results equal |"
    wrong = PERFORMANCE.replace(row, row.replace("16.31x", "16.30x"))
    assert wrong != PERFORMANCE and rewrite_docs_page(wrong, RUN, REPO, "docs/performance.md") == PERFORMANCE
    assert rewrite_docs_page(PAGE, RUN, REPO, "docs/results.md") == PAGE


def test_the_page_marks_its_csv_tables_and_the_command_leaves_it_unchanged():
    assert len(MARKED) == 19
    sources = [p for t in MARKED for p in t.spec.sources]
    assert len(sources) == 26 and all((REPO / p).is_file() and p.startswith("docs/evidence/") for p in sources)
    joins = [t.spec.join[0] for t in MARKED if t.spec.join is not None]
    assert len(joins) == 3 and all((REPO / j).is_file() and j.startswith("docs/evidence/") for j in joins)
    assert rewrite_results(PAGE, RUN, REPO) == PAGE
    wrong = PAGE.replace(
        "| 10 of 52 | KL nearest class f3 | 40 x 4 | 0.717 ± 0.099 |",
        "| 10 of 52 | KL nearest class f3 | 40 x 4 | 0.700 ± 0.099 |",
    ).replace("| 10 |  |  | paper | 0.69 | 0.74 |", "| 10 |  |  | paper | 0.70 | 0.74 |")
    assert wrong.count("0.70 | 0.74 |") == 1
    assert wrong != PAGE and rewrite_results(wrong, RUN, REPO) == PAGE
    assert rewrite_docs_page(wrong, RUN, REPO, "docs/results.md") == PAGE


def test_a_changed_or_missing_row_is_reported():
    text = "## Table X (stored)\n\nintro\n\n| a | b |\n|---|---|\n| 1 | 0.500 |\n\nafter\n| z |\n## Next\n| y |\n"
    page = page_table(text, "## Table X")
    assert page == ["| a | b |", "|---|---|", "| 1 | 0.500 |"]
    assert table_differences(page, ["| a | b |", "|---|---|", "| 1 | 0.501 |"]) == [
        "row 2: page '| 1 | 0.500 |' != generated '| 1 | 0.501 |'"
    ]
    assert table_differences(page[:2], page) == ["page has 2 rows, generated 3"]
    with pytest.raises(ValueError, match="0 headings"):
        page_table(text, "## Table Y")


def test_cells_are_the_stored_values_rounded():
    author = pd.read_csv(RUN / "author_summary.csv")
    comparison = pd.read_csv(RUN / "paper_comparison.csv")
    paper = pd.read_csv(RUN / "paper_tables.csv")
    rows = {
        tuple(c.strip() for c in line.strip("|").split("|")[:4]): line for line in table2(author, comparison, paper)
    }
    kl50 = author[(author["method"] == "kl") & (author["n_classes"] == 50)].iloc[0]
    assert (kl50["n_train"], kl50["n_test"]) == (606.4, 138.6)  # means over seeds, shown as stored
    ours = rows[("50", "606.4", "138.6", "ours")]
    assert f"{kl50['accuracy[f3]']:.3f} ± {kl50['accuracy_std[f3]']:.3f}" in ours
    line = comparison[
        (comparison["method"] == "kl") & (comparison["classes"] == 50) & (comparison["feature set"] == "f3")
    ]
    diff, in_sd = float(line["difference"].iloc[0]), float(line["difference / sd"].iloc[0])
    assert diff == pytest.approx(kl50["accuracy[f3]"] - 0.66, abs=1e-6)
    assert in_sd == pytest.approx(diff / kl50["accuracy_std[f3]"], rel=1e-4)
    assert f"{diff:+.3f} ({in_sd:+.1f})" in rows[("50", "", "", "difference (sd over seeds)")]
    assert [paper_number(v) for v in (0.3, 0.029, 0.8, 0.0079)] == ["0.30", "0.029", "0.80", "0.0079"]


def test_counts_are_shown_as_stored_and_the_papers_genre_row_with_its_sizes():
    assert [count_cell(v) for v in (310.0, 27, 221.2, 54.8, 0.0)] == ["310", "27", "221.2", "54.8", "0"]
    genre, paper = pd.read_csv(RUN / "genre_summary.csv"), pd.read_csv(RUN / "paper_tables.csv")
    first = [c.strip() for c in table4(genre, paper)[2].strip("|").split("|")]
    assert first[:4] == ["32", "paper (network)", *map(str, PAPER_GENRE_SIZES)]
    stored = pd.read_csv(RUN / "paper.csv")  # benchmarks/store_counts.py
    assert stored.set_index("quantity")["paper"].to_dict() == dict(zip(("train", "test"), PAPER_GENRE_SIZES))


def test_the_protocol_effect_cell_is_the_paired_mean_sd_and_seed_count():
    effect = pd.DataFrame([{"task": "genre", "n_classes": 10, "feature_set": "f5", "seeds": 5, "effect": -0.0614,
                            "effect_sd": 0.05449, "seeds_paper_at_least": 1}])  # fmt: skip
    assert effect_cell(effect, "genre", 10, "f5") == "-0.061 ± 0.054 (1 of 5)"
    with pytest.raises(ValueError, match="no single genre 14-class f5"):
        effect_cell(effect, "genre", 14, "f5")
