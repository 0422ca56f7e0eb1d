# Maps of the corpus (issue 23): PCA, classical MDS of Delta and KL distances, a Ward
# dendrogram and a bootstrap consensus tree per family of features (config maps.*);
# planning in punctstyle.plan.maps, logic in punctstyle.descriptive.maps.
from punctstyle.plan import maps as plan_maps


rule corpus_map:
    input:
        tables=lambda wildcards: plan_maps.map_tables(config, wildcards.family),
        words=lambda wildcards: plan_maps.map_words(config, wildcards.family),
    output:
        coordinates=out("analysis/maps/{family}_coordinates.csv"),
        edges=out("analysis/maps/{family}_consensus_edges.csv"),
        summary=out("analysis/maps/{family}_summary.json"),
        pca=report(
            out("figures/maps/{family}_pca.png"),
            caption=caption("maps_pca"),
            category=plan_maps.SECTION_MAPS,
            subcategory="{family}",
        ),
        pca_pdf=out("figures/maps/{family}_pca.pdf"),
        mds_delta=report(
            out("figures/maps/{family}_mds_delta.png"),
            caption=caption("maps_mds_delta"),
            category=plan_maps.SECTION_MAPS,
            subcategory="{family}",
        ),
        mds_delta_pdf=out("figures/maps/{family}_mds_delta.pdf"),
        dendrogram=report(
            out("figures/maps/{family}_dendrogram.png"),
            caption=caption("maps_dendrogram"),
            category=plan_maps.SECTION_MAPS,
            subcategory="{family}",
        ),
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
        **analysis_params(PLAN, "maps"),
        features=lambda wildcards: list(plan_maps.family_features(wildcards.family)),
        words_k=lambda wildcards: plan_maps.map_words_k(config, wildcards.family),
        family_name=lambda wildcards: plan_maps.map_family_name(
            config, wildcards.family
        ),
        label_policy=plan_maps.MAP_LABEL_POLICY,
    script:
        "../../scripts/maps.py"


# The KL map only where KL applies (one distribution feature): no placeholder for the others.
rule corpus_map_kl:
    input:
        coordinates=out("analysis/maps/{family}_coordinates.csv"),
    output:
        mds_kl=report(
            out("figures/maps/{family}_mds_kl.png"),
            caption=caption("maps_mds_kl"),
            category=plan_maps.SECTION_MAPS,
            subcategory="{family}",
        ),
        mds_kl_pdf=out("figures/maps/{family}_mds_kl.pdf"),
    log:
        log_path("maps/{family}_kl"),
    wildcard_constraints:
        family=plan_maps.KL_FAMILY_PATTERN,
    conda:
        "../../envs/figures.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        **analysis_params(PLAN, "maps"),
        family_name=lambda wildcards: plan_maps.map_family_name(
            config, wildcards.family
        ),
    script:
        "../../scripts/maps_kl.py"
