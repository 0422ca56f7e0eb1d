"""Analyses beyond the paper that train classifiers (each through
:func:`punctstyle.experiments.driver.run_experiments`): the length curve (``length_curve``, its
excerpt features ``length_features`` and its summary ``length_summary``), the f3 importance
(``importance``), the sequence network (``sequence_recognition``), recognition across genres with
text distortion (``cross_domain``, ``distortion``), the translators (``translators``) and the
cross-genre report that gathers them (``cross_report``)."""
