"""Tests of punctstyle.report.plots: exact mark colours, the midpoint window, every figure function."""

from __future__ import annotations

import functools
import re

import numpy as np
import pandas as pd
import pytest
from matplotlib.colors import PowerNorm, to_rgba, to_rgba_array
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.text import Text

from punctstyle.report import plots
from punctstyle.analyses import temporal
from punctstyle.analyses import temporal_tables
from punctstyle.marks import MARK_COLOURS, MARKS, N_GAP_BINS, N_MARKS, feature_column_names
from punctstyle.report.plots import sequence
from punctstyle.report.plots.base import fit_text, placeholder_figure, text_width, without_repeats

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


# ----------------------------------------------------------------------- synthetic inputs


def _rng() -> np.random.Generator:
    return np.random.default_rng(7)


def _f1_rows(n: int) -> np.ndarray:
    return _rng().dirichlet(np.arange(1, N_MARKS + 1, dtype=float), size=n)


def _features_table() -> pd.DataFrame:
    """Twelve books by four authors, dated 1800-1950, with f1, f5, n_words and n_marks."""
    rng = _rng()
    n = 12
    birth = pd.array([1800, 1800, 1800, 1850, 1850, 1850, 1900, 1900, 1900, None, 1700, 1700], dtype="Int64")
    death = pd.array([1860, 1860, 1860, 1910, 1910, None, 1960, 1960, 1960, 1990, 1760, 1760], dtype="Int64")
    meta = pd.DataFrame(
        {
            "book_id": np.arange(1, n + 1),
            "title": [f"Book {i}" for i in range(n)],
            "author": ["A", "A", "A", "B", "B", "B", "C", "C", "C", "D", "E", "E"],
            "birth": birth,
            "death": death,
            "bookshelves": [[] for _ in range(n)],
            "genre": [None] * n,
            "n_marks": rng.integers(100, 200, size=n),
        }
    )
    meta["n_words"] = meta["n_marks"] * rng.integers(3, 9, size=n)
    f1 = pd.DataFrame(_f1_rows(n), columns=feature_column_names("f1"))
    f5 = pd.DataFrame(rng.dirichlet(np.ones(N_GAP_BINS), size=n), columns=feature_column_names("f5"))
    return pd.concat([meta, f1, f5], axis=1)


def _accuracy_table() -> pd.DataFrame:
    rows = []
    for method in ("kl-nearest", "neural-net"):
        for n_classes in (10, 50, 200):
            for feature_set in ("f1", "f3", "all"):
                rows.append(dict(n_classes=n_classes, feature_set=feature_set, method=method,
                                 accuracy_mean=0.9 - n_classes / 400, accuracy_std=0.03,
                                 baseline_mean=1.0 / n_classes))
    return pd.DataFrame(rows)


def _kl_matrix(n: int = 9) -> np.ndarray:
    rng = _rng()
    m = rng.gamma(2.0, 0.1, size=(n, n))
    np.fill_diagonal(m, 0.0)
    return m


def _pixel_colours(fig: Figure, ax, points: np.ndarray) -> np.ndarray:
    """RGBA (0..255) of the rendered pixels at data points ``(x, y)`` of ``ax``."""
    fig.canvas.draw()
    buffer = np.asarray(fig.canvas.buffer_rgba())
    display = ax.transData.transform(points)
    cols = np.floor(display[:, 0]).astype(int)
    rows = buffer.shape[0] - 1 - np.floor(display[:, 1]).astype(int)
    return buffer[rows, cols]


# ----------------------------------------------------------------------- midpoint window


@pytest.mark.parametrize(
    ("n", "start"),
    [(0, 0), (1234, 0), (3000, 0), (3001, 1), (4000, 1000), (6000, 3000), (10001, 5000)],
)
def test_midpoint_window(n, start):
    codes = (np.arange(n) * 7 % N_MARKS).astype(np.uint8)
    window = sequence.midpoint_window(codes, 3000)
    assert window.dtype == np.uint8
    assert window.size == min(n, 3000)
    np.testing.assert_array_equal(window, codes[start:start + 3000])


def test_midpoint_window_starts_at_midpoint_when_enough_marks_follow():
    codes = np.zeros(9000, dtype=np.uint8)
    codes[4500] = 9  # the midpoint
    codes[4499] = 8
    window = sequence.midpoint_window(codes)
    assert window[0] == 9 and window.size == 3000 and 8 not in window


def test_sequence_grid_row_major_and_padding():
    codes = (np.arange(100) % N_MARKS).astype(np.uint8)
    grid = sequence.sequence_grid(codes, rows=5, cols=30)
    assert grid.shape == (5, 30)
    np.testing.assert_array_equal(grid.ravel()[:100], codes)  # shorter than 150: whole book
    assert (grid.ravel()[100:] == sequence.PAD_CODE).all()
    assert grid[1, 3] == codes[33]
    long = (np.arange(20000) * 3 % N_MARKS).astype(np.uint8)
    grid = sequence.sequence_grid(long)
    assert grid.shape == (50, 60)
    assert grid[2, 5] == long[10000 + 2 * 60 + 5]


def test_sequence_rejects_bad_codes():
    with pytest.raises(ValueError):
        sequence.midpoint_window(np.array([0, 10]))
    with pytest.raises(ValueError):
        sequence.midpoint_window(np.array([0.5, 1.0]))
    with pytest.raises(ValueError):
        sequence.midpoint_window(np.zeros((2, 2), dtype=int))


# ----------------------------------------------------------------------- exact colours


def test_sequence_colormap_is_exact():
    cmap, norm = sequence.sequence_colormap()
    got = cmap(norm(np.arange(N_MARKS + 1)))
    np.testing.assert_array_equal(got[:N_MARKS], to_rgba_array(MARK_COLOURS))
    np.testing.assert_array_equal(got[N_MARKS], to_rgba("white"))


def test_sequence_image_pixels_have_the_mark_colours():
    rng = _rng()
    codes = rng.integers(0, N_MARKS, size=8000).astype(np.uint8)
    fig = plots.plot_punctuation_sequence(codes, title="synthetic")
    ax = fig.axes[0]
    grid = sequence.sequence_grid(codes)
    rows, cols = np.indices(grid.shape)
    centres = np.column_stack([cols.ravel(), rows.ravel()]).astype(float)
    got = _pixel_colours(fig, ax, centres)
    expected = np.round(to_rgba_array(MARK_COLOURS) * 255).astype(np.uint8)[grid.ravel()]
    np.testing.assert_array_equal(got, expected)
    # one named cell: row 0, column 0 is the mark at the midpoint, row 1 column 0 is 60 later
    assert tuple(_pixel_colours(fig, ax, np.array([[0.0, 0.0]]))[0]) == tuple(expected[0])
    assert grid[0, 0] == codes[4000] and grid[1, 0] == codes[4060]
    # the colour bar lists the marks in order
    bar_labels = [t.get_text() for t in fig.axes[1].get_yticklabels()]
    assert bar_labels == list(MARKS)


def test_sequence_image_pads_short_books_white():
    codes = np.full(10, 4, dtype=np.uint8)  # ten commas
    fig = plots.plot_punctuation_sequence(codes, rows=5, cols=6)
    got = _pixel_colours(fig, fig.axes[0], np.array([[3.0, 1.0], [4.0, 1.0], [5.0, 4.0]]))
    comma = np.round(np.array(to_rgba(MARK_COLOURS[4])) * 255).astype(np.uint8)
    assert tuple(got[0]) == tuple(comma)  # position 9
    assert tuple(got[1]) == (255, 255, 255, 255)  # position 10: padding
    assert tuple(got[2]) == (255, 255, 255, 255)


# ----------------------------------------------------------------------- figure contents


def test_f1_bars_and_scatter_use_mark_colours():
    f1 = _f1_rows(2)
    fig = plots.plot_f1_bars(f1[0])
    bars = fig.axes[0].patches
    assert [b.get_facecolor() for b in bars] == [to_rgba(c) for c in MARK_COLOURS]
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == list(MARKS)
    fig = plots.plot_f1_scatter(f1[0], f1[1], "x book", "y book")
    ax = fig.axes[0]
    faces = [tuple(c.get_facecolor()[0]) for c in ax.collections]
    assert faces == [to_rgba(c) for c in MARK_COLOURS]
    offsets = np.array([c.get_offsets()[0] for c in ax.collections])
    np.testing.assert_allclose(offsets, np.column_stack([f1[0], f1[1]]))
    identity = ax.lines[0]
    assert to_rgba(identity.get_color()) == to_rgba("grey")
    assert np.allclose(identity.get_xdata(), identity.get_ydata())


def test_f1_histograms_write_means():
    f1 = _f1_rows(30)
    fig = plots.plot_f1_histograms(f1)
    assert len(fig.axes) == N_MARKS
    for code, ax in enumerate(fig.axes):
        texts = [t.get_text() for t in ax.texts]
        assert texts == [f"mean = {f1[:, code].mean():.3f}"]
        (step,) = ax.patches
        values, edges, _ = step.get_data()
        np.testing.assert_allclose(np.diff(edges), 0.01)  # bins of 0.01 from 0
        assert edges[0] == 0.0
        assert step.get_facecolor() == to_rgba(MARK_COLOURS[code])
        assert values.sum() == 30
        expected, _ = np.histogram(f1[:, code], bins=edges)
        np.testing.assert_array_equal(values, expected)


def test_kl_heatmap_blocks_and_scale():
    m = _kl_matrix(9)
    fig = plots.plot_kl_heatmap(m, block_edges=[3, 7])
    ax = fig.axes[0]
    blocks = [p for p in ax.patches if isinstance(p, Rectangle)]
    assert [(p.get_x(), p.get_width()) for p in blocks] == [(-0.5, 3), (2.5, 4), (6.5, 2)]
    assert all(p.get_edgecolor() == to_rgba("black") for p in blocks)
    norm = ax.images[0].norm
    assert isinstance(norm, PowerNorm) and norm.vmin == 0.0 and norm.vmax == pytest.approx(m.max())


def test_consistency_curve_order_and_styles():
    values = np.array([0.2, 0.5, 0.1, 0.3])
    fig = plots.plot_consistency(values, values - 0.05, values + 0.05, baseline=0.4, label="genre")
    ax = fig.axes[0]
    curve, baseline = ax.lines
    np.testing.assert_allclose(curve.get_ydata(), [0.5, 0.3, 0.2, 0.1])
    assert to_rgba(curve.get_color()) == to_rgba("black")
    assert baseline.get_linestyle() == ":" and np.allclose(baseline.get_ydata(), 0.4)
    assert "genres" in ax.get_xlabel()


def test_kl_distributions_title_and_legend():
    rng = _rng()
    within = rng.gamma(2.0, 0.04, size=200)
    cross = rng.gamma(2.0, 0.12, size=200)
    fig = plots.plot_kl_distributions(within, np.append(cross, np.inf), label="author")
    ax = fig.axes[0]
    assert re.search(r"KS statistic = 0\.\d{3}, p-value = ", ax.get_title())
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert f"mean {within.mean():.3g}" in legend[0] and f"mean {cross.mean():.3g}" in legend[1]
    assert "1 non-finite" in legend[1]


def test_accuracy_plot_has_error_bars_and_dashed_baseline():
    fig = plots.plot_accuracy_vs_classes(_accuracy_table(), label="authors")
    assert len(fig.axes) == 2
    ax = fig.axes[0]
    assert ax.get_xscale() == "log"
    assert len(ax.containers) == 3  # one errorbar container per feature set
    baseline = [line for line in ax.lines if line.get_linestyle() == "--"]
    assert len(baseline) == 1
    np.testing.assert_allclose(baseline[0].get_ydata(), [1 / 10, 1 / 50, 1 / 200])


def test_temporal_panels_use_the_papers_groups():
    table = temporal_tables.f1_by_decade(_features_table())
    fig = plots.plot_f1_by_decade_panels(table)
    colours = [[to_rgba(line.get_color()) for line in ax.lines] for ax in fig.axes]
    expected = [[to_rgba(MARK_COLOURS[c]) for c in group] for group in plots.temporal.F1_PANEL_GROUPS]
    assert colours == expected
    fig = plots.plot_f1_by_decade(table, start=1800)
    assert len(fig.axes[0].lines) == N_MARKS
    assert min(fig.axes[0].lines[0].get_xdata()) >= 1800


# ----------------------------------------------------------------------- every figure saves


def _figure_builders():
    frame = _features_table()
    rng = _rng()
    codes = rng.integers(0, N_MARKS, size=5000).astype(np.uint8)
    f1 = _f1_rows(20)
    years = pd.DataFrame({"book_id": [1, 2, 3, 7, 8], "year": [1830, 1830, 1840, 1920, 1925]})
    over_time, _ = temporal_tables.author_f1_over_time(frame, years, ["A", "C"])
    m = _kl_matrix(9)
    return {
        "sequence": lambda: plots.plot_punctuation_sequence(codes, title="Book $1"),
        "documents_per_author": lambda: plots.plot_documents_per_author(frame["author"]),
        "f1_histograms": lambda: plots.plot_f1_histograms(f1),
        "f1_bars": lambda: plots.plot_f1_bars(f1[0], title="Book"),
        "f5_bars": lambda: plots.plot_f5_bars(rng.dirichlet(np.ones(N_GAP_BINS))),
        "f1_scatter": lambda: plots.plot_f1_scatter(f1[0], f1[1], "a", "b"),
        "kl_heatmap": lambda: plots.plot_kl_heatmap(m, [3, 7], title="f3"),
        "consistency": lambda: plots.plot_consistency(m[0], m[0] - 0.1, m[0] + 0.1, 0.2, label="author"),
        "kl_distributions": lambda: plots.plot_kl_distributions(m[:4].ravel(), m[4:].ravel(), label="genre"),
        "author_dates": lambda: plots.plot_author_dates(frame),
        "f1_by_decade": lambda: plots.plot_f1_by_decade(temporal_tables.f1_by_decade(frame)),
        "f1_by_decade_panels": lambda: plots.plot_f1_by_decade_panels(temporal_tables.f1_by_decade(frame), start=1700),
        "rate_by_decade": lambda: plots.plot_rate_by_decade(temporal_tables.rate_by_decade(frame),
                                                            source=temporal.punctuation_rate_source(frame)),
        "author_over_time": lambda: plots.plot_author_f1_over_time(over_time),
        "accuracy": lambda: plots.plot_accuracy_vs_classes(_accuracy_table()),
    }


@pytest.mark.parametrize("name", list(_figure_builders()))
def test_every_figure_saves_png_and_pdf(name, tmp_path):
    fig = _figure_builders()[name]()
    assert isinstance(fig, Figure)
    png = tmp_path / "out" / f"{name}.png"
    pdf = tmp_path / "out" / f"{name}.pdf"
    plots.save_figure(fig, png, pdf)
    data = png.read_bytes()
    assert data[:8] == PNG_SIGNATURE and len(data) > 2000
    assert pdf.read_bytes()[:4] == b"%PDF" and pdf.stat().st_size > 1000
    assert sorted(p.name for p in png.parent.iterdir()) == sorted([png.name, pdf.name])  # no temp files
    assert fig.axes == []  # closed


def test_save_figure_png_only_and_replaces_atomically(tmp_path):
    png = tmp_path / "f.png"
    png.write_bytes(b"old")
    plots.save_figure(plots.plot_f1_bars(_f1_rows(1)[0]), png)
    assert png.read_bytes()[:8] == PNG_SIGNATURE
    assert [p.name for p in tmp_path.iterdir()] == ["f.png"]


def test_save_figure_failure_leaves_nothing(tmp_path):
    fig = plots.plot_f1_bars(_f1_rows(1)[0])

    def broken(path, **kwargs):
        with open(path, "wb") as handle:
            handle.write(b"partial")
        raise RuntimeError("disk full")

    fig.savefig = broken
    with pytest.raises(RuntimeError):
        plots.save_figure(fig, tmp_path / "f.png", tmp_path / "f.pdf")
    assert list(tmp_path.iterdir()) == []


def test_author_dates_counts():
    frame = _features_table()
    fig = plots.plot_author_dates(frame)
    left, right = fig.axes
    counts = temporal_tables.date_counts_by_decade(frame)
    assert len(left.patches) == 2 * len(counts) and len(right.patches) == 3 * len(counts)
    assert sum(p.get_height() for p in left.patches) == counts["birth"].sum() + counts["death"].sum()


# ----------------------------------------------------------------------- text fits the figure

LONG_WORDS = ("Bulwer-Lytton, Edward George Earle Lytton, Baron; The Last Days of Pompeii $1 "
              "and other tales ") * 3
LONG_TEXTS = {
    "words": LONG_WORDS[:200],
    "one_word": "W" * 200,
}


def _long_builders(text: str):
    """Every figure function, fed ``text`` (200 characters) wherever it takes a title or label."""
    frame = _features_table()
    frame["author"] = [f"{text} {a}" for a in frame["author"]]
    rng = _rng()
    codes = rng.integers(0, N_MARKS, size=5000).astype(np.uint8)
    f1 = _f1_rows(20)
    years = pd.DataFrame({"book_id": [1, 2, 3, 7, 8], "year": [1830, 1830, 1840, 1920, 1925]})
    over_time, _ = temporal_tables.author_f1_over_time(frame, years, [f"{text} A", f"{text} C"])
    accuracy = _accuracy_table()
    accuracy["feature_set"] = accuracy["feature_set"] + " " + text
    accuracy["method"] = accuracy["method"] + " " + text
    m = _kl_matrix(9)
    return {
        "sequence": lambda: plots.plot_punctuation_sequence(codes, title=text),
        "documents_per_author": lambda: plots.plot_documents_per_author(frame["author"], title=text),
        "f1_histograms": lambda: plots.plot_f1_histograms(f1, title=text),
        "f1_bars": lambda: plots.plot_f1_bars(f1[0], title=text),
        "f5_bars": lambda: plots.plot_f5_bars(rng.dirichlet(np.ones(N_GAP_BINS)), title=text),
        "f1_scatter": lambda: plots.plot_f1_scatter(f1[0], f1[1], text, text, title=text),
        "kl_heatmap": lambda: plots.plot_kl_heatmap(m, [3, 7], title=f"{text}\n({text})"),
        "consistency": lambda: plots.plot_consistency(m[0], m[0] - 0.1, m[0] + 0.1, 0.2, label=text, title=text),
        "kl_distributions": lambda: plots.plot_kl_distributions(m[:4].ravel(), m[4:].ravel(), label=text, title=text),
        "author_dates": lambda: plots.plot_author_dates(frame),
        "f1_by_decade": lambda: plots.plot_f1_by_decade(temporal_tables.f1_by_decade(frame), title=text),
        "f1_by_decade_panels": lambda: plots.plot_f1_by_decade_panels(temporal_tables.f1_by_decade(frame), start=1700),
        "rate_by_decade": lambda: plots.plot_rate_by_decade(temporal_tables.rate_by_decade(frame), source=text),
        "author_over_time": lambda: plots.plot_author_f1_over_time(over_time),
        "accuracy": lambda: plots.plot_accuracy_vs_classes(accuracy, label=text, title=text),
        "placeholder": lambda: placeholder_figure(f"{text}: {text}. {text}", title=text),
        "length_curve": lambda: _length_curve(text),
    }


def _length_curve(text: str):
    """The accuracy-vs-length figure (beyond the paper), every method's legend label ``text``-long."""
    from punctstyle.report.plots.length import plot_length_curve
    from tests.unit.test_length_curve import _summary_two_sizes

    return plot_length_curve(_summary_two_sizes(), lambda name: f"{text} {name}", title=text)


def _drawn_texts(fig: Figure, monkeypatch) -> list[Text]:
    """The non-empty Text artists that a draw of ``fig`` actually renders."""
    drawn: list[Text] = []
    original = Text.draw

    def recording(self, renderer):
        if self.get_visible() and self.get_text().strip():
            drawn.append(self)
        return original(self, renderer)

    monkeypatch.setattr(Text, "draw", recording)
    fig.canvas.draw()
    monkeypatch.setattr(Text, "draw", original)
    return drawn


@pytest.mark.parametrize("kind", list(LONG_TEXTS))
@pytest.mark.parametrize("name", list(_long_builders("x")))
def test_every_text_stays_inside_the_figure_and_apart(name, kind, monkeypatch):
    fig = _long_builders(LONG_TEXTS[kind])[name]()
    texts = _drawn_texts(fig, monkeypatch)
    assert texts
    renderer = fig.canvas.get_renderer()
    width, height = fig.bbox.width, fig.bbox.height
    for text in texts:
        box = text.get_window_extent(renderer)
        assert box.x0 >= -1 and box.y0 >= -1 and box.x1 <= width + 1 and box.y1 <= height + 1, (
            f"{name}: text {text.get_text()[:40]!r} at {box.extents.round(1)} leaves the {width:.0f}x{height:.0f} figure")
    boxes = [(text.get_text()[:40], text.get_window_extent(renderer).padded(-1.0)) for text in texts]
    for i, (first, a) in enumerate(boxes):
        for second, b in boxes[i + 1:]:
            assert not a.overlaps(b), f"{name}: texts {first!r} and {second!r} overlap"


def test_long_text_is_wrapped_then_shortened_and_never_mathtext():
    fig, _ = plots.new_figure()
    fitted = fit_text(fig, LONG_WORDS, 3.0, 12, max_lines=3)
    lines = fitted.split("\n")
    assert len(lines) == 3 and lines[-1].endswith("\u2026")
    assert all(text_width(fig, line.replace(r"\$", "$"), 12) <= 3.0 for line in lines)
    assert r"\$1" in fitted  # the dollar is escaped, so the rest is not mathtext
    short = fit_text(fig, "Emma", 3.0, 12)
    assert short == "Emma"
    assert fit_text(fig, "W" * 200, 1.0, 12, max_lines=2).count("\n") == 1


def test_count_axes_have_integer_ticks():
    frame = _features_table()
    for fig in (plots.plot_documents_per_author(frame["author"]), plots.plot_author_dates(frame)):
        fig.canvas.draw()
        for ax in fig.axes:
            ticks = ax.get_yticks()
            np.testing.assert_array_equal(ticks, np.round(ticks))


def test_legends_leave_the_baseline_and_the_curves_free():
    m = _kl_matrix(9)
    renderer_boxes = []
    fig = plots.plot_consistency(m[0], m[0] - 0.1, m[0] + 0.1, 0.2, label="author")
    fig.canvas.draw()
    (legend,) = fig.legends
    assert "baseline (0.2)" in [t.get_text() for t in legend.get_texts()]
    renderer_boxes.append((legend.get_window_extent(), fig.axes[0].bbox))
    fig = plots.plot_accuracy_vs_classes(_accuracy_table())
    fig.canvas.draw()
    (legend,) = fig.legends
    assert [t.get_text() for t in legend.get_texts()][-1] == "baseline"
    renderer_boxes += [(legend.get_window_extent(), ax.bbox) for ax in fig.axes]
    for legend_box, axes_box in renderer_boxes:
        assert not legend_box.overlaps(axes_box)


def test_placeholder_says_its_message_once():
    fig = placeholder_figure("No genre recognition results: No genre recognition: the corpus has fewer "
                             "than 2 classes.")
    (text,) = fig.axes[0].texts
    assert text.get_text() == "No genre recognition results: the corpus has fewer than 2 classes."
    assert without_repeats("No heat map: too few authors", title="No heat map") == "too few authors"
    assert without_repeats("Nothing: to draw") == "Nothing: to draw"


def test_author_dates_title_counts_what_is_left_out():
    frame = _features_table()  # E is born in 1700 (two books), D has no birth year (one book)
    fig = plots.plot_author_dates(frame, start=1750)
    title = fig.get_suptitle().replace("\n", " ")
    assert "authors born in 1750 or later" in title
    assert "1 author born before 1750 (2 documents)" in title
    assert "1 author without a birth year (1 document)" in title


def test_decade_lines_break_where_no_decade_has_data():
    """rate_by_decade and f1_by_decade_panels: no straight line across decades without data."""
    frame = _features_table()  # middle years: 1730 (author E), then 1830 on: 1740..1820 empty
    rate = temporal_tables.rate_by_decade(frame)
    assert {1730, 1830} <= set(rate["decade"]) and 1780 not in set(rate["decade"])
    figures = [plots.plot_rate_by_decade(rate), plots.plot_f1_by_decade_panels(temporal_tables.f1_by_decade(frame))]
    for fig in figures:
        lines = [line for ax in fig.axes for line in ax.get_lines() if len(line.get_xdata())]
        assert lines
        for line in lines:
            x = np.asarray(line.get_xdata(), dtype=float)
            y = np.asarray(line.get_ydata(), dtype=float)
            assert np.all(np.diff(x) == 10)  # every decade, none skipped
            assert np.isnan(y[(x > 1730) & (x < 1830)]).all() and np.isfinite(y[x == 1730]).all()


def test_parts_legends_sit_outside_the_axes():
    rows = pd.DataFrame([
        {"feature": f, "n_parts": p, "kl_to_own_book": v, "kl_to_own_author": v + 0.1, "kl_to_other_author": v + 0.3}
        for f in ("f3", "f5") for p in (2, 4) for v in np.linspace(0.1, 1.0, 6)
    ])
    from punctstyle.report.plots.parts import REFERENCE_LABELS, plot_part_distributions, plot_parts_by_size

    rows = rows.rename(columns=dict(zip(["kl_to_own_book", "kl_to_own_author", "kl_to_other_author"],
                                        REFERENCE_LABELS)))
    summary = pd.DataFrame([
        {"feature": f, "median_part_marks": m, "share_closer_to_own_book": s, "share_closer_to_own_author": s / 2}
        for f in ("f3", "f5") for m, s in ((100, 0.9), (1000, 0.95), (10000, 1.0))
    ])
    for fig in (plot_part_distributions(rows, ("f3", "f5"), "parts"), plot_parts_by_size(summary, "size")):
        fig.canvas.draw()
        legends = list(fig.legends) + [ax.get_legend() for ax in fig.axes if ax.get_legend() is not None]
        assert len(legends) == 1
        box = legends[0].get_window_extent()
        for ax in fig.axes:
            assert not box.overlaps(ax.bbox)


# ----------------------------------------------------------------------- figures beyond the paper


@functools.lru_cache(maxsize=4)
def _corpus_maps(author_prefix: str = ""):
    """Maps of 18 invented documents by three authors (distributions over 10 cells)."""
    from punctstyle.descriptive.maps import MapSettings, corpus_maps

    rng = _rng()
    X = np.vstack([rng.dirichlet(np.arange(1, 11) * (k + 1) % 7 + 1.0, size=6) for k in range(3)])
    authors = [f"{author_prefix}{name}" for name in ("Alpha", "Beta", "Gamma") for _ in range(6)]
    settings = MapSettings.from_config({"top_k_authors": 2, "max_leaves": 100})
    return corpus_maps(X, np.arange(18), authors, [f"Title {i}" for i in range(18)], settings, kl=True)


def _rolling_result(author_prefix: str = ""):
    from punctstyle.attribution.rolling import SliceScores, rolling_attribution, slice_starts

    starts = slice_starts(3000, 400, 100)
    first = np.arange(starts.size) < starts.size // 2
    values = np.column_stack([np.where(first, 0.8, 0.1), np.where(first, 0.1, 0.8), np.full(starts.size, 0.1)])
    authors = np.array([f"{author_prefix}{name}" for name in ("Alpha", "Beta", "Gamma")])
    scores = SliceScores("mlp_all", "probability", authors, values)
    return rolling_attribution(scores, starts, 400, 100, 3000)


def _collaboration_summary(method_suffix: str = "") -> pd.DataFrame:
    return pd.DataFrame([
        {"kind": kind, "method": method + method_suffix, "slice_accuracy_mean": 0.8, "slice_accuracy_sd": 0.05,
         "within_step_mean": 0.6, "within_step_sd": 0.1}
        for kind in ("A-B", "A-B-A", "A-B-C") for method in ("kl_f3", "delta_words")
    ])  # fmt: skip


def _cross_tables(label: str = "") -> dict[str, pd.DataFrame]:
    """rule cross_analyses' tables that the figures read, with ``label`` in every text column."""
    from punctstyle.descriptive import gap_weibull

    k = np.arange(1, 11)
    return {
        "cross_domain_summary": pd.DataFrame({"method": ["kl:f3", "delta:words100"], "within_mean": [0.6, 0.9],
                                              "within_sd": [0.1, 0.05], "cross_mean": [0.5, 0.6],
                                              "cross_sd": [0.1, 0.1]}),
        "gap_weibull_examples": pd.DataFrame({"which": "median beta", "title": f"t {label}", "p": 0.1, "beta": 1.2,
                                              "k": k, "observed_survival": gap_weibull.survival(k, 0.1, 1.2),
                                              "fitted_survival": gap_weibull.survival(k, 0.1, 1.2),
                                              "hazard": gap_weibull.hazard(k, 0.1, 1.2)}),
        "gap_weibull": pd.DataFrame({"p": [0.1, 0.2, 0.15], "beta": [1.1, 0.9, 1.3],
                                     "author": [f"{label}a", f"{label}b", f"{label}a"], "birth": [1800, 1850, 1800]}),
        "translator_recognition": pd.DataFrame({"label": ["original author", "translator"] * 2,
                                                "method": ["kl", "kl", "delta", "delta"],
                                                "accuracy": [0.6, 0.7, 0.8, 0.7], "baseline": [0.1, 0.2, 0.1, 0.2]}),
    }  # fmt: skip


def _verification_summary() -> pd.DataFrame:
    return pd.DataFrame([
        {"family": family, "length": length, "n_seeds": 2, "n_cases": 40,
         **{f"{m}_{s}": 0.7 + 0.05 * i for m in ("auc", "c_at_1", "f_05_u") for s, i in (("mean", 1), ("std", 0))}}
        for family in ("f3", "words") for length in ("200", "800", "whole")
    ])  # fmt: skip


def _beyond_builders(text: str):
    """The figures of the maps, rolling, cross and verification analyses; ``text`` in their titles
    and names (the same builders with "" for plain names)."""
    from punctstyle.report.plots.cross import CROSS_FIGURE_SPECS, cross_figure
    from punctstyle.report.plots.maps import kl_map, map_figures
    from punctstyle.report.plots.rolling import collaborations_report_figure, rolling_figure
    from punctstyle.report.plots.verification import plot_verification

    prefix = f"{text} " if text else ""
    builders = {f"maps_{name}": (lambda name=name: map_figures(_corpus_maps(prefix), f"f3 {text}")[name])
                for name in ("pca", "dendrogram")}
    builders["maps_mds_kl"] = lambda: kl_map(_corpus_maps(prefix).coordinates, f"f3 {text}")
    builders["rolling"] = lambda: rolling_figure(_rolling_result(prefix), f"rolling {text}", true_changes=(1500.0,))
    builders["rolling_collaborations"] = lambda: collaborations_report_figure(_collaboration_summary(), 400, 100, (0, 1))
    builders["rolling_collaborations_empty"] = lambda: collaborations_report_figure(
        _collaboration_summary().iloc[:0], 400, 100, (0,))
    for name in CROSS_FIGURE_SPECS:
        builders[f"cross_{name}"] = lambda name=name: cross_figure(name, _cross_tables(prefix))
    builders["cross_translators_empty"] = lambda: cross_figure(
        "translators", {key: frame.iloc[:0] for key, frame in _cross_tables().items()})
    builders["verification"] = lambda: plot_verification(
        _verification_summary(), {"f3": f"{prefix}f3", "words": f"{prefix}words"}, title=f"verification {text}")
    return builders


@pytest.mark.parametrize("name", list(_beyond_builders("")))
def test_beyond_figures_save_png_and_pdf_with_their_content(name, tmp_path):
    fig = _beyond_builders("")[name]()
    assert isinstance(fig, Figure)
    drawn = [artist for ax in fig.axes for artist in (*ax.lines, *ax.collections, *ax.patches, *ax.texts)]
    assert drawn, f"{name}: nothing drawn"
    if name.endswith(("_empty", "_placeholder")):
        assert len(fig.axes) == 1 and fig.axes[0].texts and not fig.axes[0].lines
    png, pdf = tmp_path / f"{name}.png", tmp_path / f"{name}.pdf"
    plots.save_figure(fig, png, pdf)
    assert png.read_bytes()[:8] == PNG_SIGNATURE and png.stat().st_size > 2000
    assert pdf.read_bytes()[:4] == b"%PDF"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([png.name, pdf.name])


def test_map_figures_follow_the_label_policy_and_the_variance_shares():
    from punctstyle.report.plots.maps import map_figures

    maps = _corpus_maps()
    figures = map_figures(maps, "f3", top_k=2)
    labels = [t.get_text() for t in figures["pca"].axes[0].get_legend().get_texts()]
    assert labels == ["other authors (1)", "Alpha", "Beta"]  # two coloured (six documents each: by name)
    share = maps.summary["pca_variance_share"][0]
    assert figures["pca"].axes[0].get_xlabel() == f"PC1 ({share:.0%} of the variance)"
    assert len(figures["dendrogram"].axes[0].get_yticklabels()) == 18
    assert sorted(figures) == ["dendrogram", "mds_delta", "pca"]  # the KL map: rule corpus_map_kl


def test_no_kl_map_is_drawn_where_kl_does_not_apply():
    """Issue 38: a family without KL had a placeholder image "No KL map for ..." that the report
    and the app showed as a figure; now the KL map is neither planned nor drawn for it."""
    from punctstyle.plan.maps import family_map_figures
    from punctstyle.report.plots.maps import kl_map

    maps = _corpus_maps()
    fig = kl_map(maps.coordinates, "f3")
    assert fig.axes[0].collections and not fig.axes[0].texts
    with pytest.raises(KeyError, match="KL does not apply to punctuation all"):
        kl_map(maps.coordinates.drop(columns=["mds_kl1", "mds_kl2"]), "punctuation all")
    assert "mds_kl" in family_map_figures("f3") and "mds_kl" in family_map_figures("f7")
    for family in ("all", "words", "f3+words", "f1+f3", "f2"):
        assert family_map_figures(family) == ("pca", "mds_delta", "dendrogram")


@pytest.mark.parametrize("kind", list(LONG_TEXTS))
@pytest.mark.parametrize("name", ["maps_pca", "maps_mds_kl",
                                  "rolling", "rolling_collaborations"])
def test_beyond_figures_keep_long_text_inside_the_figure(name, kind, monkeypatch):
    """(The cross and verification figures' long texts: tests/unit/test_cross.py, test_verification.py.)"""
    fig = _beyond_builders(LONG_TEXTS[kind])[name]()
    texts = _drawn_texts(fig, monkeypatch)
    assert texts
    renderer = fig.canvas.get_renderer()
    width, height = fig.bbox.width, fig.bbox.height
    for text in texts:
        box = text.get_window_extent(renderer)
        assert box.x0 >= -1 and box.y0 >= -1 and box.x1 <= width + 1 and box.y1 <= height + 1, (
            f"{name}: text {text.get_text()[:40]!r} at {box.extents.round(1)} leaves the {width:.0f}x{height:.0f} figure")


def test_translators_legend_sits_off_the_bars_and_names_the_chance_level():
    """Issue 38: the legend was inside the axes, its red swatch on the red bar, and the black
    baseline dashes had no entry."""
    from matplotlib.patches import Rectangle

    from punctstyle.report.plots.cross import cross_figure

    tables = _cross_tables()
    tables["translator_recognition"]["accuracy"] = 0.95  # bars up to the top of the axes
    fig = cross_figure("translators", tables)
    fig.canvas.draw()
    (ax,) = fig.axes
    assert ax.get_legend() is None
    (legend,) = fig.legends
    assert [t.get_text() for t in legend.get_texts()] == ["by original author", "by translator", "chance level"]
    box = legend.get_window_extent()
    assert not box.overlaps(ax.bbox)
    bars = [p for p in ax.patches if isinstance(p, Rectangle)]
    assert bars and not any(box.overlaps(bar.get_window_extent()) for bar in bars)
    assert "\n" not in ax.get_ylabel()  # one line, as the length curve's


def test_accuracy_curves_of_the_usual_feature_sets_are_told_apart():
    """Issue 38: f3 and f7 were two near-identical oranges; every pair of fixed feature-set colours
    is now far apart, and each set has its own marker."""
    from matplotlib.colors import to_rgb

    from punctstyle.report.plots.classification import FEATURE_SET_COLOURS, FEATURE_SET_MARKERS

    names = list(FEATURE_SET_COLOURS)
    rgb = {name: np.array(to_rgb(FEATURE_SET_COLOURS[name])) for name in names}
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            assert np.linalg.norm(rgb[a] - rgb[b]) > 0.2, (a, b)
    assert np.linalg.norm(rgb["f3"] - rgb["f7"]) > 0.5
    singles = [name for name in names if name != "all"]
    assert len({FEATURE_SET_MARKERS[name] for name in singles}) == len(singles)
    table = _accuracy_table()
    table = pd.concat([table.assign(feature_set="f3"), table.assign(feature_set="f7")], ignore_index=True)
    fig = plots.plot_accuracy_vs_classes(table)
    lines = {bars.get_label(): bars.lines[0] for ax in fig.axes for bars in ax.containers}
    assert lines["f3"].get_marker() != lines["f7"].get_marker()
    assert lines["f3"].get_color() != lines["f7"].get_color()


def test_length_curve_y_label_takes_one_line():
    """Issue 38: the y label wrapped ("... +-1 / sd)")."""
    from punctstyle.report.plots.length import plot_length_curve
    from tests.unit.test_length_curve import _summary_two_sizes

    fig = plot_length_curve(_summary_two_sizes(), str, title="Accuracy against excerpt length")
    fig.canvas.draw()
    labels = [ax.get_ylabel() for ax in fig.axes if ax.get_ylabel()]
    assert labels and all("\n" not in label and "sd" in label for label in labels)


def test_by_decade_figures_say_which_decades_they_leave_out():
    """Issue 38: decades before temporal.decade_start were neither drawn nor mentioned."""
    frame = _features_table()  # author E: middle year 1730, two documents
    f1, rate = temporal_tables.f1_by_decade(frame), temporal_tables.rate_by_decade(frame)
    expected = "Not drawn: 2 documents of the decades before 1800 (1730: 2; temporal.decade_start)"
    figures = [plots.plot_f1_by_decade(f1, start=1800, title="mean f1"), plots.plot_f1_by_decade_panels(f1, start=1800),
               plots.plot_rate_by_decade(rate, start=1800)]
    for fig in figures:
        texts = " ".join([fig.get_suptitle(), *(ax.get_title() for ax in fig.axes)]).replace("\n", " ")
        assert expected in texts
        assert min(min(line.get_xdata(), default=9999) for ax in fig.axes for line in ax.get_lines()) >= 1800
    assert figures[0].axes[0].get_title().replace("\n", " ").startswith("mean f1. Not drawn")
    for fig in (plots.plot_f1_by_decade(f1, start=1700), plots.plot_f1_by_decade_panels(f1, start=1700),
                plots.plot_rate_by_decade(rate, start=1700), plots.plot_f1_by_decade(f1)):
        texts = " ".join([fig.get_suptitle(), *(ax.get_title() for ax in fig.axes)])
        assert "Not drawn" not in texts


def test_gap_fit_survival_axis_stays_at_probabilities():
    """Seen on the fixture run: the fitted tails' log-scale margins took the S(k) axis to 1e14."""
    from punctstyle.descriptive import gap_weibull
    from punctstyle.report.plots.cross import cross_figure

    tables = _cross_tables()
    k = np.arange(1, 61)
    tables["gap_weibull_examples"] = pd.DataFrame({
        "which": "median beta", "title": "t", "p": 0.001, "beta": 3.8, "k": k,
        "observed_survival": np.where(k < 8, gap_weibull.survival(k, 0.001, 3.8), 0.0),
        "fitted_survival": gap_weibull.survival(k, 0.001, 3.8), "hazard": gap_weibull.hazard(k, 0.001, 3.8)})
    fig = cross_figure("gap_weibull_fit", tables)
    fig.canvas.draw()
    low, high = fig.axes[0].get_ylim()
    assert 0 < low < 1 <= high <= 2
