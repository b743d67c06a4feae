"""Foundations: definitions and basic properties of differential privacy.

Catalogue: ``foundations.md``. The mathematics is in :mod:`dpverify.theorems.formulas`
(``hockey_stick_exact``, ``laplace_calibration``, ``classic_gaussian``,
``exponential_mechanism``, ``adaptive_rr``, ``parallel_composition``, ``group_privacy``,
``bayes_posterior``, ``name_and_shame``, ``dp_lloyd``); the finite distributions engine in
:mod:`dpverify.theorems.numerics.finite`. The Theorem values, by file:

- ``definition.py``: DEF-DP, BLOG-DEF
- ``basic_mechanisms.py``: BLOG-LAP, DR-CLASSIC-GAUSS, BLOG-EXP
- ``composition.py``: SMITH-ADAPT-COMP, PAR, SMITH-LLOYD
- ``closure.py``: SMITH-POST, SMITH-GROUP
- ``semantics.py``: SMITH-BAYES, SMITH-NAME-SHAME
- ``terms.py``: constants and claim helpers shared by these files (no Theorem)

The registry (:mod:`dpverify.theorems`) collects the Theorem values of these files itself.
"""
