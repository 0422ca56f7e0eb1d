"""Corpus tables: feature tables, word matrix, sequences by document, exclusions, summary."""
