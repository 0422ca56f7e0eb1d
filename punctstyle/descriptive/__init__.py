"""Descriptive analyses beyond the paper, which train no classifier: the maps of the corpus
(``maps``), the parts of a book against the whole (``parts``) and the discrete Weibull shape of
the gaps (``gap_weibull``)."""
