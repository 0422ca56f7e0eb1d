"""The experiment core: a :class:`~punctstyle.experiments.row.Row` (labels, document ids and text
groups of one (task, class count, seed), which draws the row's class sample and split) and the
runner that fits and scores one classifier on a row's split (:mod:`punctstyle.experiments.runner`).

Only this package calls the split functions of :mod:`punctstyle.experiments.splits`, so that the excerpts of
one text (the groups) cannot be forgotten by a caller (tests/unit/test_experiments.py checks it).
"""
