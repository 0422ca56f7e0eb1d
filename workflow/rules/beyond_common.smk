# Functions and constants of beyond.smk (kept apart from the rules, as `snakemake --lint`
# asks): the targets (beyond_outputs()) and the report flags of "Beyond the paper", the
# paper's open questions of section 5 answered on the same corpus and splits.
from punctstyle.parts import PART_FEATURES

SECTION_BEYOND = "Beyond the paper"


def beyond_enabled(name):
    """Whether the analysis beyond.<name> (importance, parts, sequence) is switched on."""
    return bool(config["beyond"][name]["enabled"])


def importance_analysis_files():
    return {
        "importance": out("analysis/beyond/f3_importance.csv"),
        "top_k": out("analysis/beyond/f3_top_k.csv"),
        "top_transitions": out("analysis/beyond/f3_top_transitions.md"),
        "summary": out("analysis/beyond/f3_importance.json"),
    }


def importance_row_files():
    """One file per (class size, seed) row of the f3 importance analysis."""
    return expand(
        out("analysis/beyond/f3_importance/{classes}_classes_seed{seed}.json"),
        classes=dict.fromkeys(config["beyond"]["importance"]["class_sizes"]),
        seed=config["recognition"]["seeds"],
    )


def parts_analysis_files():
    return {
        "parts": out("analysis/beyond/parts.csv"),
        "summary": out("analysis/beyond/parts_summary.csv"),
        "info": out("analysis/beyond/parts.json"),
    }


def sequence_model_params():
    return plan_rows.sequence_model_params(config)


def sequence_class_sizes():
    return plan_rows.sequence_class_sizes(config)


def sequence_row_files(suffix=""):
    """One file per (class size, seed) row of the sequence classifier (the seeds of recognition):
    its result row (suffix ""), or its accuracies on the length curve's excerpts ("_lengths").
    """
    return expand(
        out("analysis/beyond/sequence/author_{classes}_classes_seed{seed}{suffix}.csv"),
        classes=sequence_class_sizes(),
        seed=config["recognition"]["seeds"],
        suffix=suffix,
    )


def sequence_excerpt_lengths():
    return plan_rows.sequence_excerpt_lengths(config)


def sequence_recognition_files():
    """The recognition results of the same rows (and of the "all" row, where a size caps to it)."""
    sizes = sequence_class_sizes()
    if "all" in recognition_class_sizes():
        sizes.append("all")
    return recognition_row_files("author", "results.csv", class_sizes=sizes)


def sequence_analysis_files():
    return {
        "csv": out("analysis/beyond/sequence_model.csv"),
        "markdown": out("analysis/beyond/sequence_model.md"),
        "lengths": out("analysis/beyond/sequence_model_lengths.csv"),
        "table": out("tables/beyond_sequence_model.html"),
    }


IMPORTANCE_FIGURES = ["beyond/f3_importance", "beyond/f3_top_k"]
PARTS_FIGURES = ["beyond/parts_kl", "beyond/parts_by_size"]


def beyond_report(name, caption_name, subcategory):
    return flag_for_report(
        png(name),
        caption=caption(caption_name),
        category=SECTION_BEYOND,
        subcategory=subcategory,
    )


def beyond_outputs():
    """Files of the switched-on analyses beyond the paper (beyond.*.enabled)."""
    outputs = []
    if beyond_enabled("importance"):
        outputs += list(importance_analysis_files().values())
        outputs += [f(name) for name in IMPORTANCE_FIGURES for f in (png, pdf)]
        outputs.append(out("tables/beyond_f3_importance.html"))
    if beyond_enabled("parts"):
        outputs += list(parts_analysis_files().values())
        outputs += [f(name) for name in PARTS_FIGURES for f in (png, pdf)]
        outputs.append(out("tables/beyond_parts.html"))
    if beyond_enabled("sequence"):
        outputs += list(sequence_analysis_files().values())
    return outputs
