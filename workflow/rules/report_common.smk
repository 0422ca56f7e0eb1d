# Functions and constants of temporal.smk and figures.smk (kept apart from the rules, as
# `snakemake --lint` asks): the targets (temporal_outputs(), figure_outputs()), input
# functions, and the report flags (category = the paper's section, caption = workflow/report).
import os

from snakemake.exceptions import WorkflowError

from punctstyle.plan import report as plan_report
from punctstyle.report.tables import read_document_choice

SECTION_INTRO = "1. Introduction"
SECTION_DATA = "2. Data and features"
SECTION_AUTHORS = "3. Author analysis"
SECTION_GENRES = "4. Genre analysis"
SECTION_TEMPORAL = "5. Temporal analysis"
SECTION_APPENDIX = "Appendix: author and genre lists"
SECTION_CONFIG = "Configuration"
TASK_SECTIONS = {"author": SECTION_AUTHORS, "genre": SECTION_GENRES}
# report() at the start of a line reads as the `report:` keyword: use this alias in functions.
flag_for_report = report


def publication_years_csv():
    """The configured publication-year CSV (temporal.publication_years_csv), else a folder
    corpus' years from its metadata CSV (written by select_books), or None."""
    path = config["temporal"]["publication_years_csv"]
    if not path and SOURCE == "folder" and "year" in FOLDER_COLUMNS:
        return out("corpus/publication_years.csv")
    if path and not os.path.isfile(path):
        raise WorkflowError(
            f"config temporal.publication_years_csv: {path} is not a file "
            "(a CSV with columns book_id, year; null to skip the per-author figure)"
        )
    return path or None


def temporal_inputs(wildcards):
    inputs = {
        "f1": out("corpus/f1.parquet"),
        "f5": out("corpus/f5.parquet"),
    }
    if publication_years_csv():
        inputs["years"] = publication_years_csv()
    return inputs


def temporal_outputs():
    if analysis_skipped("temporal analysis"):
        return []
    return [
        out("analysis/temporal/summary.json"),
        out("analysis/temporal/f1_by_decade.csv"),
        out("analysis/temporal/rate_by_decade.csv"),
    ]


def caption(name):
    """A caption file of workflow/report (relative to the rule files in workflow/rules)."""
    return f"../report/{name}.rst"


def png(name):
    return out(f"figures/{name}.png")


def pdf(name):
    return out(f"figures/{name}.pdf")


def task_section(wildcards):
    return TASK_SECTIONS[wildcards.task]


def task_title(wildcards):
    return {"author": "Authors", "genre": "Genres"}[wildcards.task]


# ------------------------------------------------------------------ sequence books


def n_sequence_books():
    return plan_report.n_sequence_books(config)


def n_scatter_pairs():
    return plan_report.n_scatter_pairs(config)


def sequence_inputs(wildcards):
    """Sequence files of the configured books, or of every selected book (chosen at run time)."""
    books = config["figures"]["sequence_books"]
    ids = selected_book_ids(wildcards) if books is None else books
    return expand(out("sequences/{book_id}.parquet"), book_id=ids)


def _chosen(path):
    """figures/documents/books.json, read by its owner in the package."""
    return read_document_choice(path)


def document_labels(index, **fixed):
    """Report labels of a per-book figure (read when the report is built): the book in slot
    ``index`` (or, with ``pair=True``, the books of pair ``index`` and their relation).
    """
    pair = fixed.pop("pair", False)

    def labels(wildcards, output):
        chosen = _chosen(output.books)
        if pair:
            pairs = chosen["pairs"]
            found = (
                pairs[index]
                if index < len(pairs)
                else {"books": "no pair", "relation": ""}
            )
            letter = chr(ord("a") + index) if index < 26 else str(index + 1)
            return {
                "pair": letter,
                "books": found["books"],
                "authors": found["relation"],
            }
        books = chosen["books"]
        return {
            **fixed,
            "book": books[index]["label"] if index < len(books) else "no book",
        }

    return labels


def document_figures(name, count, subcategory, section=SECTION_DATA, **labels):
    """PNGs (flagged for the report) of one per-book figure, one per slot."""
    return [
        flag_for_report(
            png(f"documents/{name}_{i + 1}"),
            caption=caption(name),
            category=section,
            subcategory=subcategory,
            labels=document_labels(i, **labels),
        )
        for i in range(count)
    ]


def document_pdfs(name, count):
    return [pdf(f"documents/{name}_{i + 1}") for i in range(count)]


# ------------------------------------------------------------------ targets


def figure_rule_wildcards():
    """Each figure and report-table rule with the wildcard values it is run for (the genre
    task only when the corpus tables hold two genres: call from input functions)."""
    features = config["consistency"]["features"]
    tasks = consistency_tasks()
    return {
        "figures_corpus": {},
        "figures_documents": {},
        "figures_kl_heatmaps": {"feature": features if "author" in tasks else []},
        "figures_kl": {"task": tasks, "feature": features},
        "figures_recognition": {"task": recognition_tasks()},
        "recognition_word_tables": {
            "task": [task for task in word_tasks() if task in recognition_tasks()]
        },
        **({} if analysis_skipped("temporal analysis") else {"figures_temporal": {}}),
        "appendix_table": {"task": tasks},
        "config_used": {},
    }


def figure_outputs(wildcards):
    """Every figure (PNG and PDF) and report table: every output of the figure rules, so a
    figure added to a rule's outputs is a target with no other edit (an input function of
    rule all, which runs after the rules are defined and after the corpus tables)."""
    return [
        path
        for name, values in figure_rule_wildcards().items()
        for path in expand(list(getattr(rules, name).output), **values)
    ]


# ------------------------------------------ sections 3.1, 4.1: KL heat maps, consistency


def kl_report(name, caption_name, section, subcategory, labels):
    return flag_for_report(
        png(f"kl/{name}"),
        caption=caption(caption_name),
        category=section,
        subcategory=subcategory,
        labels=labels,
    )


def heatmap_outputs():
    return [
        kl_report(
            f"heatmap_{{feature}}_top{k}",
            "heatmap",
            SECTION_AUTHORS,
            "KL heat maps",
            {"feature": "{feature}", "authors": f"{k} most consistent"},
        )
        for k in config["consistency"]["top_k"]
    ]


def consistency_figure(kind):
    """The consistency curve or KL distributions of one task and feature (rule figures_kl)."""
    subcategory = {"consistency": "Consistency", "kl_distribution": "KL distributions"}
    return kl_report(
        f"{kind}_{{task}}_{{feature}}",
        kind,
        task_section,
        subcategory[kind],
        {"feature": "{feature}"},
    )


# ------------------------------------------------------------ section 5: temporal analysis


def temporal_figure(name, subcategory):
    return flag_for_report(
        png(f"temporal/{name}"),
        caption=caption(name),
        category=SECTION_TEMPORAL,
        subcategory=subcategory,
    )


def over_time_outputs():
    """The per-author figure exists only with a publication-year CSV."""
    if not publication_years_csv():
        return {}
    return {
        "over_time": temporal_figure(
            "authors_over_time", "Authors over publication years"
        ),
        "over_time_pdf": pdf("temporal/authors_over_time"),
    }


# ------------------------------------------------------- appendix: author and genre lists


def consistency_feature():
    return plan_report.consistency_feature(config)


def appendix_inputs(wildcards):
    inputs = {
        "consistency": out(
            f"analysis/consistency/{wildcards.task}_{consistency_feature()}.csv"
        )
    }
    if wildcards.task in configured_recognition_tasks():
        # the full-corpus rows: class size "all", else every size (one may cap to all)
        sizes = ["all"] if "all" in recognition_class_sizes() else None
        inputs["per_class"] = recognition_row_files(
            wildcards.task, "per_class.csv", sizes
        )
    return inputs
