"""From a raw text to marks and gaps: cleaning, the extraction definition, its fast cache, the tokenizer rules."""
