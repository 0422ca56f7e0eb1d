# Functions of maps.smk (kept apart from the rules, as `snakemake --lint` asks): the targets
# (maps_outputs()) and the report flags of the maps of the corpus.
from punctstyle.beyond.maps import WORDS, family_features
from punctstyle.marks import PAPER_FEATURES

SECTION_MAPS = "Maps of the corpus"
MAP_FIGURES = ["pca", "mds_delta", "mds_kl", "dendrogram"]
MAP_LABEL_POLICY = (
    "points and leaves coloured by author for the maps.top_k_authors authors with the most "
    "documents (legend), every other author grey; dendrogram leaves: surname and the title's "
    "first 18 characters, one leaf per author above maps.max_leaves documents"
)


def map_family_name(family):
    """How the figures name a family."""
    if family == WORDS:
        return f"the {config['maps']['words']} most frequent words"
    return f"punctuation {family}"


def map_tables(wildcards):
    return expand(
        out("corpus/{feature}.parquet"), feature=family_features(wildcards.family)
    )


def map_words(wildcards):
    return [out("corpus/words.npz")] if wildcards.family == WORDS else []


def map_report(name):
    return flag_for_report(
        out(f"figures/maps/{{family}}_{name}.png"),
        caption=caption(f"maps_{name}"),
        category=SECTION_MAPS,
        subcategory="{family}",
    )


def maps_outputs():
    """Every file of the maps (maps.enabled), for rule all."""
    if not config["maps"]["enabled"]:
        return []
    families = config["maps"]["families"]
    files = [
        out(f"analysis/maps/{{family}}_{kind}")
        for kind in ("coordinates.csv", "consensus_edges.csv", "summary.json")
    ]
    files += [
        out(f"figures/maps/{{family}}_{name}.{ext}")
        for name in MAP_FIGURES
        for ext in ("png", "pdf")
    ]
    return expand(files, family=families)


# ------------------------------------------------------------------ rolling attribution

SECTION_ROLLING = "Rolling attribution"
ROLLING_WORD_METHODS = ("delta_words", "delta_both")


def rolling_word_inputs(wildcards):
    """The word methods' inputs: the selected books' texts (re-tokenized on the run's tokenizer
    rules file into word streams) and the corpus word matrix; none without a word method.
    """
    if not set(config["rolling"]["methods"]) & set(ROLLING_WORD_METHODS):
        return {}
    return {
        "texts": expand(
            out("books/{book_id}.txt.gz"), book_id=selected_book_ids(wildcards)
        ),
        "words": out("corpus/words.npz"),
        "rules": out(f"extraction/tokenizer_rules-spacy{SPACY_VERSION}.json"),
    }


def rolling_outputs():
    """Files of the rolling check (rolling.enabled), for rule all."""
    if not config["rolling"]["enabled"]:
        return []
    return [
        out("analysis/rolling/collaborations.csv"),
        out("analysis/rolling/summary.csv"),
        png("rolling/collaborations"),
        pdf("rolling/collaborations"),
    ]
