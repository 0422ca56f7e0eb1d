"""The table comments of docs pages (``punctstyle.report.table_spec``): exact worked examples of
the parser and the renderer, and a malformed comment's one-line error naming page and line."""

from __future__ import annotations

import pandas as pd
import pytest

from punctstyle.report.table_spec import (
    TableSpecError,
    combined_frame,
    format_cell,
    joined_frame,
    marked_tables,
    parse_spec,
    render_table,
    rewrite_page,
    short_exponents,
    split_columns,
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
            "p.md:3: unknown clause 'colums: \"a\" = {a}' (known: keyed, join, derive, where, append, sort, combine, "
            "labels, pivot, missing, rounding, exponent, layout, columns)",
        ),
        ("<!-- table: s.csv | where: a > 1 -->", "p.md:3: no 'columns:' clause"),
        ("<!-- table: s.csv | columns: a = {a} -->", "p.md:3: column 'a = {a}' is not \"HEADER\" = FORMAT"),
        ('<!-- table: | columns: "a" = {a} -->', "p.md:3: the comment does not start with 'table: PATH'"),
        ('<!-- table: s.csv | columns: "a" = {a}\n\n', "p.md:3: the table comment has no closing -->"),
        (
            '<!-- table: s.csv | rounding: half-even | columns: "a" = {a} -->',
            "p.md:3: unknown rounding 'half-even' (known: half-away)",
        ),
        (
            '<!-- table: s.csv | exponent: none | columns: "a" = {a} -->',
            "p.md:3: unknown exponent 'none' (known: short)",
        ),
        (
            '<!-- table: s.csv | join: b.csv | columns: "a" = {a} -->',
            "p.md:3: join 'b.csv' is not PATH on FIELD, ... [where QUERY]",
        ),
        (
            '<!-- table: s.csv | append: a > 1 | columns: "a" = {a} -->',
            "p.md:3: append 'a > 1' is not QUERY; NAME = FORMAT; ...",
        ),
        (
            '<!-- table: s.csv | derive: a b = {a} | columns: "a" = {a} -->',
            "p.md:3: derive 'a b = {a}' is not NAME = FORMAT",
        ),
        (
            '<!-- table: s.csv | layout: wide | columns: "a" = {a} -->',
            "p.md:3: unknown layout 'wide' (known: transposed)",
        ),
        ('<!-- table: s.csv | keyed: key | columns: "a" = {a} -->', "p.md:3: keyed 'key' is not KEY = VALUE, ..."),
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


def test_the_docstring_join_derive_rounding_and_append_examples_render_exactly():
    first = pd.DataFrame({"kind": ["A"], "method": ["kl"], "f1": [0.5]})
    second = pd.DataFrame({"kind": ["A"], "method": ["kl"], "n": [2]})
    spec = parse_spec('table: a.csv | join: b.csv on kind, method | columns: "m" = {method}; "f1 (n)" = {f1} ({n})')
    assert spec.join == ("b.csv", ("kind", "method"), "")
    assert render_table(spec, joined_frame(first, second, spec.join[1])) == [
        "| m | f1 (n) |",
        "|---|---|",
        "| kl | 0.5 (2) |",
    ]
    variants = pd.DataFrame(
        {"variant": ["nearest", "nearest"], "zscore_over": ["all", "training"], "acc": [0.8785, 0.9]}
    )
    spec = parse_spec(
        "table: v.csv | derive: v = {variant}/{zscore_over} | sort: v [nearest/training]\n"
        '  | labels: v: nearest/all = "nearest, all books" | rounding: half-away | columns: "v" = {v}; "acc" = {acc:.3f}'
    )
    assert spec.derive == (("v", "{variant}/{zscore_over}", ""),)
    assert render_table(spec, variants) == [
        "| v | acc |", "|---|---|", "| nearest/training | 0.900 |", "| nearest, all books | 0.879 |"
    ]  # fmt: skip
    spec = parse_spec('table: c.csv | derive: cell = {acc:.2f} | append: method == "kl"; method = short books; '
                      'cell = {n_short} | columns: "m" = {method}; "v" = {cell}')  # fmt: skip
    assert spec.append == (('method == "kl"', (("method", "short books"), ("cell", "{n_short}"))),)
    counts = pd.DataFrame({"method": ["kl", "mlp"], "acc": [0.5, 0.7], "n_short": [2, 3]})
    assert render_table(spec, counts) == [
        "| m | v |",
        "|---|---|",
        "| kl | 0.50 |",
        "| mlp | 0.70 |",
        "| short books | 2 |",
    ]


def test_half_away_rounds_the_printed_decimal_where_python_rounds_the_binary_float():
    values = {"a": 0.8785, "b": -0.1285, "c": 0.0005, "d": 0.1284999, "n": 1234, "s": "x"}
    fmt = "{a:.3f} {b:+.3f} {c:.3f} {d:.3f} {n:,} {s}"
    assert format_cell(fmt, values) == "0.878 -0.129 0.001 0.128 1,234 x"
    assert format_cell(fmt, values, rounding="half-away") == "0.879 -0.129 0.001 0.128 1,234 x"
    assert format_cell("{a:.2f}", {"a": 2.675}, rounding="half-away") == "2.68"
    assert format_cell("{a:.2f}", {"a": 2.675}) == "2.67"
    assert format_cell("{a:.1f}", {"a": float("nan")}, "n/a", "half-away") == "n/a"


def test_join_keeps_the_rows_in_order_suffixes_a_shared_field_and_refuses_two_matches(tmp_path):
    first = pd.DataFrame({"k": [2, 1, 3], "base": [0.1, 0.2, 0.3]})
    second = pd.DataFrame({"k": [1, 2], "base": [9.0, 8.0], "x": ["a", "b"]})
    joined = joined_frame(first, second, ("k",))
    assert joined["x"].tolist()[:2] == ["b", "a"] and pd.isna(joined["x"].iloc[2])
    assert joined["base"].tolist() == [0.1, 0.2, 0.3] and joined["base_joined"].tolist()[:2] == [8.0, 9.0]
    with pytest.raises(ValueError):
        joined_frame(first, pd.concat([second, second]), ("k",))
    (tmp_path / "a.csv").write_text("k,base\n1,0.5\n2,0.6\n", encoding="utf-8")
    (tmp_path / "b.csv").write_text("k,task,n\n1,author,10\n1,genre,11\n2,author,20\n", encoding="utf-8")
    page = ('<!-- table: a.csv | join: b.csv on k where task == "author" | columns: "k" = {k}; "n" = {n} -->\n'
            "| k | n |\n|---|---|\n| 1 | 0 |\n| 2 | 20 |\n")  # fmt: skip
    assert rewrite_page(page, tmp_path, "p.md") == page.replace("| 1 | 0 |", "| 1 | 10 |")
    with pytest.raises(TableSpecError, match=r"^p\.md:1: MergeError|^p\.md:1: ValueError"):
        rewrite_page(page.replace(' where task == "author"', ""), tmp_path, "p.md")


def test_the_docstring_keyed_derive_where_example_and_a_transposed_layout_render_exactly(tmp_path):
    (tmp_path / "s.csv").write_text(
        "key,value,text\nconsensus,,sweep\ncolumns.0,10,\ncolumns.1,20,\n", encoding="utf-8"
    )
    (tmp_path / "r.csv").write_text("key,value,text\nconsensus,,random\ncolumns.0,50,\n", encoding="utf-8")
    comment = (
        "<!-- table: s.csv, r.csv | keyed: key = value, text | derive: c = {columns_0:.0f}\n"
        '  | derive: c = {columns_0:.0f}, ..., {columns_1:.0f} where consensus == "sweep"\n'
        '  | columns: "kind" = {consensus}; "columns" = {c} -->\n'
    )
    page = comment + "| kind | columns |\n|---|---|\n| x | y |\n"
    (table,) = marked_tables(page, "p.md")
    assert table.spec.sources == ("s.csv", "r.csv") and table.spec.keyed == ("key", ("value", "text"))
    assert table.spec.derive[1] == ("c", "{columns_0:.0f}, ..., {columns_1:.0f}", 'consensus == "sweep"')
    expected = comment + "| kind | columns |\n|---|---|\n| sweep | 10, ..., 20 |\n| random | 50 |\n"
    assert rewrite_page(page, tmp_path, "p.md") == expected
    transposed = comment.replace("| columns:", '| layout: transposed | columns: "" = the run;')
    assert rewrite_page(transposed + "| x |\n", tmp_path, "p.md") == transposed + (
        "| | the run | the run |\n|---|---|---|\n| kind | sweep | random |\n| columns | 10, ..., 20 | 50 |\n"
    )
    (tmp_path / "d.csv").write_text("key,value,text\na,1,\na,2,\n", encoding="utf-8")
    with pytest.raises(TableSpecError, match=r"^p\.md:1: ValueError: key 'a' repeats"):
        rewrite_page('<!-- table: d.csv | keyed: key = value | columns: "a" = {a} -->\n| a |\n', tmp_path, "p.md")


def test_the_docstring_json_source_and_combine_example_renders_exactly(tmp_path):
    (tmp_path / "c.csv").write_text("family,cpu_s\na/10,1.25\nb,7\na/50,2.5\na/all,4\n", encoding="utf-8")
    (tmp_path / "run.json").write_text('{"cost": {"rest": 9.5}}', encoding="utf-8")
    comment = (
        '<!-- table: c.csv, run.json | derive: g = {family} | derive: g = a where family in ["a/10", "a/50", "a/all"]\n'
        '| derive: g = rest where family != family | where: g != "b" | derive: sep = /\n'
        '| derive: sep = + where family == "a/all" | derive: v = {cpu_s:.1f}\n'
        '| derive: v = {cost_rest:.1f} where family != family | combine: g; v = " {sep} "\n'
        '| columns: "part" = {g}; "CPU s" = {v} -->\n'
    )
    page = comment + "| part | CPU s |\n|---|---|\n| x | y |\n"
    (table,) = marked_tables(page, "p.md")
    assert table.spec.sources == ("c.csv", "run.json") and table.spec.combine == ("g", (("v", " {sep} "),))
    expected = comment + "| part | CPU s |\n|---|---|\n| a | 1.2 / 2.5 + 4.0 |\n| rest | 9.5 |\n"
    assert rewrite_page(page, tmp_path, "p.md") == expected
    rows = pd.DataFrame({"k": ["x", None, "x", "y", None, "x"], "v": ["1", "2", "3", "4", "5", None],
                         "w": [None, "a", "b", None, None, "c"], "s": ["-", "-", "+", "-", "-", ":"]})  # fmt: skip
    combined = combined_frame(rows, "k", (("v", "{s}"), ("w", ", {s}")))
    assert combined["v"].tolist() == ["1+3", "2", "4", "5"] and combined["s"].tolist() == ["-"] * 4
    assert combined["w"].tolist()[:2] == ["b, :c", "a"] and combined["w"].isna().tolist() == [False, False, True, True]
    assert combined["k"].isna().tolist() == [False, True, False, True]
    assert split_columns('"a; b" = {a}; "c" = {c:.1f}') == (("a; b", "{a}"), ("c", "{c:.1f}"))
    assert parse_spec('table: c.csv | derive: s = "; " | derive: t = ", {a} " | derive: u = "x | columns: "a" = {a}').derive == (
        ("s", "; ", ""), ("t", ", {a} ", ""), ("u", '"x', "")
    )
    with pytest.raises(TableSpecError, match=r"^p\.md:1: combine 'g; v = /' is not KEY; FIELD = \"SEP\"; \.\.\."):
        marked_tables('<!-- table: c.csv | combine: g; v = / | columns: "a" = {a} -->\n| a |\n', "p.md")


def test_short_exponents_drop_the_exponents_leading_zeros_only():
    assert short_exponents("1.6e-04, 1.3E+03, 2.0e+10, 1e+00, 0.05, e-05, 10-04") == (
        "1.6e-4, 1.3E+3, 2.0e+10, 1e+0, 0.05, e-05, 10-04"
    )


def test_the_docstring_exponent_example_renders_exactly():
    frame = pd.DataFrame({"d": [0.000158966, 1270.0]})
    spec = parse_spec('table: e.csv | exponent: short | columns: "d" = {d:.1e}')
    assert spec.exponent == "short"
    assert render_table(spec, frame) == ["| d |", "|---|", "| 1.6e-4 |", "| 1.3e+3 |"]
    plain = parse_spec('table: e.csv | columns: "d" = {d:.1e}')
    assert render_table(plain, frame)[2:] == ["| 1.6e-04 |", "| 1.3e+03 |"]
    assert format_cell("{d:.1e}", {"d": 0.000158966}, exponent="short") == "1.6e-4"
