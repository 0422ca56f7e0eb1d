"""Analyses beyond the paper: length curve, f3 importance, parts, sequence recognition."""
