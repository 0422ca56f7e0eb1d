# Functions and constants of beyond.smk (kept apart from the rules, as `snakemake --lint`
# asks): the targets (beyond_outputs()) and the report flags of "Beyond the paper", the
# paper's open questions of section 5 answered on the same corpus and splits.
from punctstyle.beyond.parts import PART_FEATURES

SECTION_BEYOND = "Beyond the paper"


def beyond_enabled(name):
    """Whether the analysis beyond.<name> (importance, parts, sequence) is switched on."""
    return bool(config["beyond"][name]["enabled"])


def importance_analysis_files():
    return plan_targets.importance_analysis_files(config)


def importance_row_files():
    return plan_targets.importance_row_files(config)


def parts_analysis_files():
    return plan_targets.parts_analysis_files(config)


def sequence_model_params():
    return plan_rows.sequence_model_params(config)


def sequence_class_sizes():
    return plan_rows.sequence_class_sizes(config)


def sequence_row_files(suffix=""):
    return plan_targets.sequence_row_files(config, suffix)


def sequence_excerpt_lengths():
    return plan_rows.sequence_excerpt_lengths(config)


def sequence_recognition_files():
    return plan_targets.sequence_recognition_files(config)


def sequence_analysis_files():
    return plan_targets.sequence_analysis_files(config)


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
