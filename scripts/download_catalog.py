"""Rule download_catalog: fetch pg_catalog.csv from the catalog host (or copy the local one)."""

import shutil
from pathlib import Path

from punctstyle.sources.download import DEFAULT_USER_AGENT, fetch_catalog
from punctstyle.io import InputError, atomic_path
from punctstyle.logs import configure_logging

log = configure_logging(snakemake.log[0])
params = snakemake.params
policy = snakemake.config["mirror"]
dest = snakemake.output[0]

if params.catalog_file:
    source = Path(params.catalog_file)
    if not source.is_file():
        raise InputError(f"{source}: mirror.catalog_file does not exist")
    with atomic_path(dest) as tmp:
        shutil.copyfile(source, tmp)
    log.info("copied local catalog %s to %s", source, dest)
else:
    result = fetch_catalog(
        params.base_url,
        dest,
        catalog_path=params.catalog_path,
        timeout=policy["timeout_s"],
        attempt_deadline=policy["attempt_deadline_s"],
        retries=policy["retries"],
        backoff=policy["backoff_s"],
        user_agent=policy["user_agent"] or DEFAULT_USER_AGENT,
    )
    log.info("downloaded %s (%d bytes, sha256 %s)", result.url, result.n_bytes, result.sha256)
