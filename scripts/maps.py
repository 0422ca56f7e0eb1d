"""Rule corpus_map: the maps of one family of features (punctstyle.beyond.maps): coordinates,
consensus edges (Source,Target,Weight for Gephi), summary, and the PCA, MDS and dendrogram figures."""

import pandas as pd

from punctstyle.beyond.maps import MapSettings, corpus_maps, family_is_distribution, family_matrix
from punctstyle.corpus.words import read_word_matrix
from punctstyle.io import atomic_open, write_json_atomic
from punctstyle.logs import configure_logging
from punctstyle.report.plots.base import placeholder_figure, save_figure
from punctstyle.report.plots.maps import dendrogram_figure, scatter_map

log = configure_logging(snakemake.log[0])
inputs, output, params = snakemake.input, snakemake.output, snakemake.params
family = snakemake.wildcards.family
tables = {name: pd.read_parquet(path) for name, path in zip(params.features, inputs.tables, strict=True)}
words = read_word_matrix(inputs.words[0]) if params.words_k else None
first = tables[params.features[0]]
settings = MapSettings.from_config(params.settings)
kl = family_is_distribution(family)
X = family_matrix(family, tables, words, params.words_k or 0)
result = corpus_maps(X, first["book_id"], first["author"], first["title"], settings, kl)
result.summary.update(family=family, label_policy=params.label_policy)
for frame, path in ((result.coordinates, output.coordinates), (result.edges, output.edges)):
    with atomic_open(path, "w", newline="") as handle:
        frame.to_csv(handle, index=False)
write_json_atomic(output.summary, result.summary)
authors, top = result.coordinates["author"], settings.top_k_authors
name = params.family_name
pca = result.summary["pca_variance_share"] + [0.0, 0.0]
save_figure(scatter_map(result.coordinates[["pca1", "pca2"]].to_numpy(), authors, f"PCA of the documents, {name}",
                        f"PC1 ({pca[0]:.0%} of the variance)", f"PC2 ({pca[1]:.0%})", top), output.pca, output.pca_pdf)
save_figure(scatter_map(result.coordinates[["mds_delta1", "mds_delta2"]].to_numpy(), authors,
                        f"Classical MDS of Burrows' Delta distances, {name}", "MDS 1", "MDS 2", top),
            output.mds_delta, output.mds_delta_pdf)
kl_figure = (scatter_map(result.coordinates[["mds_kl1", "mds_kl2"]].to_numpy(), authors,
                         f"Classical MDS of symmetrised KL divergences, {name}", "MDS 1", "MDS 2", top) if kl else
             placeholder_figure(f"No KL map for {name}: KL divergence needs one distribution feature (f1, f3, f4, f5, f7)"))
save_figure(kl_figure, output.mds_kl, output.mds_kl_pdf)
save_figure(dendrogram_figure(result.tree, result.leaf_labels, result.leaf_authors,
                              f"Ward dendrogram of Burrows' Delta ({result.summary['tree_level']}), {name}", top,
                              authors),
            output.dendrogram, output.dendrogram_pdf)
log.info("maps of %s: %s", family, result.summary)
