"""Bounded-range (BR) mechanisms: exponential-mechanism composition and the cost of adaptivity.

Catalogue ``bounded_range.md``; [DDR] is Dong, Durfee & Rogers, arXiv 1909.13830. Where each id
is encoded:

- :mod:`.definitions`: DDR-D22, DDR-C21, DDR-L21, DDR-T1, DDR-P1, DDR-P2, DDR-L21-LAPLACE
- :mod:`.grr`: DDR-D24, DDR-F1, DDR-D26, DDR-L41, DDR-L44
- :mod:`.nonadaptive`: DDR-L31, DDR-T2, DDR-T3
- :mod:`.adaptive`: DDR-L32, DDR-T4
- :mod:`.bounds`: DDR-C31, DDR-T5, DR19-BR
- :mod:`.figure1`: DDR-FIG1
- :mod:`.terms`: the family's shared parameters and claim terms

The mathematics lives in :mod:`dpverify.theorems.formulas` (``bounded_range`` for GRR and the
BR/DP parameters of finite pairs, ``ddr_candidates`` and ``ddr_composition`` for [DDR] Thm 3,
``ddr_adaptive`` for Lemma 3.2, ``br_bounds`` for OptKL, MGF and DR19, ``br_figure1`` for
Figure 1) and the engines in :mod:`dpverify.theorems.numerics` (``branch_bound``, ``search``).
Evaluators use ``eps0`` for the per-mechanism BR parameter and ``eps`` for the global one (the
paper's eps and eps_g).

Paper text. Only the opening of [DDR] (abstract and table of contents) could be read through
the search tool; the statements follow the catalogue's reconstruction, each checked by an
independent route. The OptKL expression matches public code that cites it as "Proposition 4"
of the ICML version (http://proceedings.mlr.press/v119/dong20a).
"""
