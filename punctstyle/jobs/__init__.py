"""The job floor: the bodies of the analysis rules, one module per rule family.

A rule's script (``scripts/``) maps ``snakemake.input/output/params`` to one function here, and
the benchmarks call the same function. A module here wires files to the science below it
(``analyses/``, ``attribution/``, ``descriptive/``, ``training/``, ``classifiers/``) and, for a job that draws its
figure, to ``report/``; nothing below imports it (docs/CONVENTIONS.md, "Floors").
"""
