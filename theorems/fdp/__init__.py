"""Family ``fdp`` (catalogue ``fdp.md``): trade-off functions, f-DP, duality, composition,
the CLT (APPROX) and subsampling, and the trade-off curve of a PLD.

Which file holds which id (formulas live in :mod:`dpverify.theorems.formulas.tradeoff` and
:mod:`dpverify.theorems.formulas.tradeoff_composition`):

- ``curves``: DRS-TRADEOFF, DRS-DUALITY, DRS-LAPLACE-FDP
- ``composition``: DRS-TENSOR
- ``clt``: DRS-CLT
- ``subsample_pld``: DRS-SUBSAMPLE, FDP-PLD-CONV
- ``subsample_order``: DRS-SUBSAMPLE claim 4 (three bases, one part per base and conjunct)
- ``smt_forms``, ``smt_pairs``: the SMT problems (no entries)
- ``common``: the fpr parameter, random finite pairs, shared terms (no entries)

References
----------
- [DRS] J. Dong, A. Roth, W. J. Su, *Gaussian Differential Privacy*, arXiv 1905.02383. The
  theorem numbers are those the catalogue recalls (the paper text was not read for this
  encoding either); the formulas were checked against the public code the catalogue names.
"""
