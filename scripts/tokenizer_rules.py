"""Rule tokenizer_rules: export spaCy's tokenizer rules once per spaCy version and language.

The output's name says the language and the dialogue-dash setting
(punctstyle.text.languages.rules_file_variant): English without the dash is the paper's file.
"""

import sys

# Exporting only tokenises: keep thinc (spaCy's backend) from importing torch.
sys.modules.setdefault("torch", None)

from punctstyle.logs import configure_logging  # noqa: E402 - after the torch guard
from punctstyle.text.languages import rules_file_variant  # noqa: E402
from punctstyle.text.tokenizer_facts import export_extraction_rules  # noqa: E402

log = configure_logging(snakemake.log[0])
language, dialogue_dash = rules_file_variant(snakemake.output[0])
rules = export_extraction_rules(language=language, dialogue_dash=dialogue_dash)
rules.save(snakemake.output[0])
log.info(
    "spaCy %s (%s%s): %d special cases",
    rules.spacy_version,
    language,
    ", dialogue dash" if dialogue_dash else "",
    len(rules.specials),
)
