"""Hypothesis DP: the choice of databases in DP composition (the generalized composition
experiment, GCE, and hypothesis differential privacy, HDP; [GCE] arXiv 2209.13697).

Catalogue: ``hypothesis_dp.md``. The mathematics is in :mod:`dpverify.theorems.formulas`
(``hdp_bounds``: Comp on index sets, the worst allowed pair, Thm 3 and its corollaries;
``hdp``: the HDP calculator behind ``dpverify hdp`` and the hospital series), the exact GCE
model in :mod:`dpverify.theorems.numerics.gce`. The Theorem values, by file:

- ``algorithms.py``: GCE-A1, GCE-A2, GCE-A3
- ``thm1.py``: GCE-T1
- ``worst_pair.py``: GCE-D4, GCE-V1, GCE-V2, GCE-V3
- ``parallel.py``: GCE-PARCMP, GCE-HDPCALC
- ``uniform.py``: GCE-E34, GCE-SUB
- ``thm3.py``: GCE-T3, GCE-C6, GCE-C7
- ``instances.py``: exact instances and terms shared by these files (no Theorem)
"""
