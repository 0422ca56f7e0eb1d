"""Rule tokenizer_rules: export spaCy's English tokenizer rules once per spaCy version."""

import sys

# Exporting only tokenises: keep thinc (spaCy's backend) from importing torch.
sys.modules.setdefault("torch", None)

from punctstyle.logs import configure_logging  # noqa: E402 - after the torch guard
from punctstyle.text.tokenizer_facts import export_extraction_rules  # noqa: E402

log = configure_logging(snakemake.log[0])
rules = export_extraction_rules()
rules.save(snakemake.output[0])
log.info("spaCy %s: %d special cases", rules.spacy_version, len(rules.specials))
