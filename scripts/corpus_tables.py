"""Rule corpus_tables: gather per-book rows into one Parquet table per feature."""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(snakemake.scriptdir).resolve().parent))  # noqa: F821 - this checkout's package

import pandas as pd  # noqa: E402

from punctstyle.corpus import build_corpus, corpus_summary, feature_table, read_feature_rows  # noqa: E402
from punctstyle.io import atomic_path, write_json_atomic, write_parquet_atomic  # noqa: E402
from punctstyle.logs import configure_logging  # noqa: E402
from punctstyle.marks import FEATURES  # noqa: E402

log = configure_logging(snakemake.log[0])  # noqa: F821
genres = snakemake.params.genres  # noqa: F821
selection = pd.read_parquet(snakemake.input.selection)  # noqa: F821
rows = read_feature_rows(list(snakemake.input.rows))  # noqa: F821
corpus, exclusions = build_corpus(
    selection,
    rows,
    min_docs_per_author=snakemake.params.min_docs_per_author,  # noqa: F821
    genre_shelves=genres["shelves"],
    genre_min_docs=genres["min_docs"],
    genre_multi_shelf_rule=genres["multi_shelf_rule"],
)
for feature, path in zip(FEATURES, snakemake.output.tables):  # noqa: F821
    write_parquet_atomic(feature_table(corpus, feature), path)
with atomic_path(snakemake.output.exclusions) as tmp:  # noqa: F821
    exclusions.to_csv(tmp, index=False)
summary = corpus_summary(selection, corpus, exclusions)
write_json_atomic(snakemake.output.summary, summary)  # noqa: F821
log.info("corpus: %s", json.dumps(summary))
