# Maps of the corpus (issue 23): PCA, classical MDS of Delta and KL distances, a Ward
# dendrogram and a bootstrap consensus tree per family of features (config maps.*);
# functions and targets in maps_common.smk, logic in punctstyle.beyond.maps.


rule corpus_map:
    input:
        tables=map_tables,
        words=map_words,
    output:
        coordinates=out("analysis/maps/{family}_coordinates.csv"),
        edges=out("analysis/maps/{family}_consensus_edges.csv"),
        summary=out("analysis/maps/{family}_summary.json"),
        pca=map_report("pca"),
        pca_pdf=out("figures/maps/{family}_pca.pdf"),
        mds_delta=map_report("mds_delta"),
        mds_delta_pdf=out("figures/maps/{family}_mds_delta.pdf"),
        mds_kl=map_report("mds_kl"),
        mds_kl_pdf=out("figures/maps/{family}_mds_kl.pdf"),
        dendrogram=map_report("dendrogram"),
        dendrogram_pdf=out("figures/maps/{family}_dendrogram.pdf"),
    log:
        log_path("maps/{family}"),
    benchmark:
        out("benchmarks/maps/{family}.tsv")
    wildcard_constraints:
        family=r"words|all|f[1-7](\+f[1-7])*",
    conda:
        "../../envs/figures.yaml"
    threads: 1
    resources:
        mem_mb=4000,
        runtime=60,
    params:
        features=lambda wildcards: list(family_features(wildcards.family)),
        words_k=lambda wildcards: (
            config["maps"]["words"] if wildcards.family == WORDS else 0
        ),
        family_name=lambda wildcards: map_family_name(wildcards.family),
        settings=config["maps"],
        label_policy=MAP_LABEL_POLICY,
    script:
        "../../scripts/maps.py"
