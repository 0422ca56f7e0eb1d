# Functions and constants of beyond.smk (kept apart from the rules, as `snakemake --lint`
# asks): the targets (beyond_outputs()) and the report flags of "Beyond the paper", the
# paper's open questions of section 5 answered on the same corpus and splits.
from punctstyle.parts import PART_FEATURES

SECTION_BEYOND = "Beyond the paper"


def beyond_enabled(name):
    """Whether the analysis beyond.<name> (importance, parts) is switched on."""
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
    return outputs
