"""punctstyle: stylometry without words, from punctuation sequences (Darmon et al.)."""

__version__ = "0.1.0"
