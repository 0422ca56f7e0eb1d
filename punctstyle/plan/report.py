"""Figure and report planning: the per-book figures' counts (pure functions of the config) and
the figure paths with their ``report()`` flags (:class:`ReportFlags`), used by the rule files."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from snakemake.io import report

from punctstyle.report.tables import read_document_choice

DEFAULT_SEQUENCE_BOOKS = 6  # two books each of the three authors with the most books


def n_sequence_books(config: dict[str, Any]) -> int:
    """Books of the per-book figures: figures.sequence_books, else the default six."""
    books = config["figures"]["sequence_books"]
    return DEFAULT_SEQUENCE_BOOKS if books is None else len(books)


def n_scatter_pairs(config: dict[str, Any]) -> int:
    """punctstyle.report.tables.scatter_pairs: (i, i + 1 mod n); one pair for two books."""
    n = n_sequence_books(config)
    return 0 if n < 2 else 1 if n == 2 else n


def consistency_feature(config: dict[str, Any]) -> str:
    """The appendix orders classes by f3 consistency (the first configured feature without f3)."""
    features = config["consistency"]["features"]
    return "f3" if "f3" in features else features[0]


# ------------------------------------------------------------------ report flags of the rules


PAPER_SECTIONS: tuple[tuple[str, str], ...] = (
    ("intro", "Introduction"),
    ("data", "Data and features"),
    ("authors", "Author analysis"),
    ("genres", "Genre analysis"),
    ("temporal", "Temporal analysis"),
)
"""The paper's sections that the report follows (key, title), in order."""


def section_names(genres: bool) -> dict[str, str]:
    """The report's category of each of :data:`PAPER_SECTIONS` and of the appendix, numbered by
    what ran (the report's menu sorts categories by name): without the genre analysis (``genres``
    false) the temporal analysis is section 4 and the appendix lists authors only."""
    kept = [(key, title) for key, title in PAPER_SECTIONS if genres or key != "genres"]
    names = {key: f"{number}. {title}" for number, (key, title) in enumerate(kept, 1)}
    names["appendix"] = "Appendix: author and genre lists" if genres else "Appendix: author lists"
    return names


def run_section(key: str, genres_ran: Callable[[], bool]) -> Callable[[Any], str]:
    """A ``report()`` category evaluated when the report is built (the corpus known by then):
    section ``key`` of :func:`section_names` for this run (``genres_ran``: whether its genre
    analysis ran)."""

    def category(wildcards: Any) -> str:
        return section_names(genres_ran())[key]

    return category


class Section:
    """The report's categories: the paper's sections (and the configuration, beyond the paper).
    The sections after the genre analysis are numbered by what ran: :meth:`ReportFlags.section`."""

    INTRO = section_names(True)["intro"]
    DATA = section_names(True)["data"]
    AUTHORS = section_names(True)["authors"]
    GENRES = section_names(True)["genres"]
    CONFIG = "Configuration"
    BEYOND = "Beyond the paper"
    TIME_SLOTS = "Time slot analysis (beyond the paper)"
    GENDERS = "Gender analysis (beyond the paper)"


TASK_SECTIONS = {
    "author": Section.AUTHORS, "genre": Section.GENRES, "time_slot": Section.TIME_SLOTS, "gender": Section.GENDERS,
}
"""The report category of each task's figures and tables (config metadata_tasks: time_slot and
gender have their own, after the paper's sections)."""
TASK_TITLES = {"author": "Authors", "genre": "Genres", "time_slot": "Time slots", "gender": "Genders"}


def task_section(wildcards: Any) -> str:
    """The report category of a task's figure (an input-function-style callable)."""
    return TASK_SECTIONS[wildcards.task]


def task_title(wildcards: Any) -> str:
    return TASK_TITLES[wildcards.task]


def caption(name: str) -> str:
    """A caption file of workflow/report (relative to the rule files in workflow/rules)."""
    return f"../report/{name}.rst"


def document_labels(index: int, pair: bool = False, **fixed: str) -> Callable[[Any, Any], dict[str, str]]:
    """Report labels of a per-book figure (read when the report is built, from the rule's
    ``figures/documents/books.json`` output): the book in slot ``index`` (or, with ``pair=True``,
    the books of pair ``index`` and their relation)."""

    def labels(wildcards: Any, output: Any) -> dict[str, str]:
        chosen = read_document_choice(output.books)
        if pair:
            pairs = chosen["pairs"]
            found = pairs[index] if index < len(pairs) else {"books": "no pair", "relation": ""}
            letter = chr(ord("a") + index) if index < 26 else str(index + 1)
            return {"pair": letter, "books": found["books"], "authors": found["relation"]}
        books = chosen["books"]
        return {**fixed, "book": books[index]["label"] if index < len(books) else "no book"}

    return labels


@dataclass(frozen=True)
class ReportFlags:
    """Figure paths under ``outdir`` and their ``report()`` flags (category: the paper's section,
    caption: the text in workflow/report)."""

    outdir: str
    genres_ran: Callable[[], bool] | None = None
    """Whether the run's genre analysis ran (asked when the report is built); None: it did."""

    def with_genre_check(self, genres_ran: Callable[[], bool]) -> ReportFlags:
        return ReportFlags(self.outdir, genres_ran)

    def section(self, key: str) -> Any:
        """The report category of paper section ``key`` (or ``"appendix"``), numbered by what ran."""
        if self.genres_ran is None:
            return section_names(True)[key]
        return run_section(key, self.genres_ran)

    def png(self, name: str) -> str:
        return f"{self.outdir}/figures/{name}.png"

    def pdf(self, name: str) -> str:
        return f"{self.outdir}/figures/{name}.pdf"

    def flag(self, path: str, caption_name: str, category: Any, subcategory: Any, labels: Any = None) -> Any:
        """``path`` flagged for the report."""
        return report(path, caption=caption(caption_name), category=category, subcategory=subcategory, labels=labels)

    def document_figures(self, name: str, count: int, subcategory: str, section: str = Section.DATA, **labels: Any) -> list:
        """PNGs (flagged for the report) of one per-book figure, one per slot."""
        return [
            self.flag(self.png(f"documents/{name}_{i + 1}"), name, section, subcategory, document_labels(i, **labels))
            for i in range(count)
        ]

    def document_pdfs(self, name: str, count: int) -> list[str]:
        return [self.pdf(f"documents/{name}_{i + 1}") for i in range(count)]

    def heatmaps(self, features: list[str], top_k: list[int]) -> list:
        """The KL heat maps of the ``top_k`` most consistent authors, per feature (rule
        figures_kl_heatmaps: every feature in one job; the labels name the feature)."""
        return [
            self.flag(
                self.png(f"kl/heatmap_{feature}_top{k}"),
                "heatmap",
                Section.AUTHORS,
                "KL heat maps",
                {"feature": feature, "authors": f"{k} most consistent"},
            )
            for feature in features
            for k in top_k
        ]

    def heatmap_pdfs(self, features: list[str], top_k: list[int]) -> list[str]:
        return [self.pdf(f"kl/heatmap_{feature}_top{k}") for feature in features for k in top_k]

    def consistency_figures(self, kind: str, features: list[str]) -> list:
        """The consistency curves or KL distributions of one task (wildcard ``{task}``), one per
        feature (rule figures_kl: every feature in one job; the label names the feature)."""
        subcategory = {"consistency": "Consistency", "kl_distribution": "KL distributions"}[kind]
        return [
            self.flag(self.png(f"kl/{kind}_{{task}}_{feature}"), kind, task_section, subcategory, {"feature": feature})
            for feature in features
        ]

    def consistency_pdfs(self, kind: str, features: list[str]) -> list[str]:
        return [self.pdf(f"kl/{kind}_{{task}}_{feature}") for feature in features]

    def temporal_figure(self, name: str, subcategory: str) -> Any:
        return self.flag(self.png(f"temporal/{name}"), name, self.section("temporal"), subcategory)

    def over_time(self, publication_years_csv: str | None) -> dict[str, Any]:
        """The per-author figure, which exists only with a publication-year CSV."""
        if not publication_years_csv:
            return {}
        return {
            "over_time": self.temporal_figure("authors_over_time", "Authors over publication years"),
            "over_time_pdf": self.pdf("temporal/authors_over_time"),
        }

    def beyond(self, name: str, caption_name: str, subcategory: str) -> Any:
        return self.flag(self.png(name), caption_name, Section.BEYOND, subcategory)
