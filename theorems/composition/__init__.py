"""Composition of (eps, delta)-DP mechanisms: basic, advanced and optimal composition.

Catalogue: ``composition.md``. The mathematics is in :mod:`dpverify.theorems.formulas`
(``advanced_composition``: closed forms; ``kov_mv``: the exact KOV/MV optimum and its inverse),
the engines in :mod:`dpverify.theorems.numerics` (``binomial``, ``lattice``,
``composition_enum``). The Theorem values, by file:

- ``basic.py``: BASIC, STK-BASIC-OPT
- ``advanced.py``: DRV-ADV, STK-ADV-PURE, STK-ADV-APPROX, KOV-34
- ``optimal.py``: KOV-OPT, KOV-DELTA, KOV-EPS
- ``heterogeneous.py``: MV-OPT, MV-HARD, MV-APPROX
- ``asymptotic.py``: STK-ASYMP-OPT
- ``terms.py``: claim terms and regions shared by these files (no Theorem)
"""

