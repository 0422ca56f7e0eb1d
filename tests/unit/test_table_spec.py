"""The table comments of docs pages (``punctstyle.report.table_spec``): exact worked examples of
the parser and the renderer, and a malformed comment's one-line error naming page and line."""

from __future__ import annotations

import pandas as pd
import pytest

from punctstyle.report.table_spec import (
    TableSpecError,
    marked_tables,
    parse_spec,
    render_table,
    rewrite_page,
)

FRAME = pd.DataFrame({"n_classes": [10, 50], "method": ["kl", "kl"], "mean": [0.5612, 0.45619],
                      "sd": [0.151, 0.0452]})  # fmt: skip


def test_the_docstring_example_renders_exactly():
    spec = parse_spec(
        'table: docs/evidence/x/summary.csv | where: method == "kl" | sort: -n_classes\n'
        "| labels: method: kl = KL nearest class\n"
        '| columns: "authors" = {n_classes}; "method" = {method}; "accuracy" = {mean:.3f} ± {sd:.3f}'
    )
    assert spec.source == "docs/evidence/x/summary.csv"
    assert spec.sort == ("-n_classes",)
    assert spec.columns[2] == ("accuracy", "{mean:.3f} ± {sd:.3f}")
    assert render_table(spec, FRAME) == [
        "| authors | method | accuracy |",
        "|---|---|---|",
        "| 50 | KL nearest class | 0.456 ± 0.045 |",
        "| 10 | KL nearest class | 0.561 ± 0.151 |",
    ]


def test_pivot_listed_sort_quoted_labels_missing_and_odd_field_names():
    frame = pd.DataFrame({"method": ["mlp", "kl", "kl", "mlp"], "k": [5, 5, 3200, 3200],
                          "accuracy[f3]": [0.9, 0.4, 0.6, float("nan")], "n": [1200, 1200, 1200, 1200]})  # fmt: skip
    spec = parse_spec(
        'table: x.csv | pivot: k | sort: method [kl mlp], -k | labels: k: 3200 = "3,200" | missing: n/a'
        '| columns: "method (n)" = {method} ({n:,}); "k = {k}" = {accuracy_f3_:+.2f}'
    )
    assert render_table(spec, frame) == [
        "| method (n) | k = 3,200 | k = 5 |",
        "|---|---|---|",
        "| kl (1,200) | +0.60 | +0.40 |",
        "| mlp (1,200) | n/a | +0.90 |",
    ]
    no_row = render_table(parse_spec('table: x.csv | pivot: k | where: not (method == "mlp" and k == 5)'
                                     '| columns: "m" = {method}; "{k}" = {n}'), frame)  # fmt: skip
    assert no_row == ["| m | 5 | 3200 |", "|---|---|---|", "| kl | 1200 | 1200 |", "| mlp | | 1200 |"]


def test_marked_tables_are_found_and_rewritten_in_place(tmp_path):
    (tmp_path / "s.csv").write_text("n_classes,method,mean,sd\n10,kl,0.5612,0.151\n", encoding="utf-8")
    page = ("# Page\n\ntext\n\n<!-- table: s.csv\n  | columns: \"authors\" = {n_classes}; \"f1\" = {mean:.3f} -->\n"
            "| authors | f1 |\n|---|---|\n| 10 | 0.500 |\n\nafter | x |\n")  # fmt: skip
    (table,) = marked_tables(page, "p.md")
    assert (table.comment_line, table.start, table.end) == (4, 6, 9)
    assert rewrite_page(page, tmp_path, "p.md") == page.replace("0.500", "0.561")


@pytest.mark.parametrize(
    ("comment", "message"),
    [
        (
            '<!-- table: s.csv | colums: "a" = {a} -->',
            "p.md:3: unknown clause 'colums: \"a\" = {a}' (known: where, sort, labels, pivot, missing, columns)",
        ),
        ("<!-- table: s.csv | where: a > 1 -->", "p.md:3: no 'columns:' clause"),
        ("<!-- table: s.csv | columns: a = {a} -->", "p.md:3: column 'a = {a}' is not \"HEADER\" = FORMAT"),
        ('<!-- table: | columns: "a" = {a} -->', "p.md:3: the comment does not start with 'table: PATH'"),
        ('<!-- table: s.csv | columns: "a" = {a}\n\n', "p.md:3: the table comment has no closing -->"),
    ],
)
def test_a_malformed_comment_is_one_line_naming_page_and_line(comment, message):
    page = f"# P\n\n{comment}\n| a |\n|---|\n| 1 |\n"
    with pytest.raises(TableSpecError) as error:
        marked_tables(page, "p.md")
    assert str(error.value) == message
    assert "\n" not in str(error.value)


def test_no_table_below_or_an_unknown_field_is_an_error(tmp_path):
    with pytest.raises(TableSpecError, match=r"^p\.md:1: no table right below"):
        marked_tables('<!-- table: s.csv | columns: "a" = {a} -->\n\n| a |\n', "p.md")
    (tmp_path / "s.csv").write_text("a,b\n1,2\n", encoding="utf-8")
    with pytest.raises(TableSpecError, match=r"^p\.md:2: KeyError: .*no field 'c'"):
        rewrite_page('x\n<!-- table: s.csv | columns: "a" = {c} -->\n| a |\n|---|\n| 1 |\n', tmp_path, "p.md")
