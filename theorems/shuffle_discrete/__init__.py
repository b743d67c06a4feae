"""Family ``shuffle_discrete`` (catalogue ``shuffle_discrete.md``): amplification by shuffling
and the exact shuffled randomized response; the discrete Laplace and discrete Gaussian
mechanisms; subsampled RDP without replacement.

Which file holds which id (formulas live in :mod:`dpverify.theorems.formulas`):

- ``shuffle_bounds``: EFMRTT19, BBGN19-BLANKET, FMT21-CLONES (terms, SMT problems and
  cross-route terms in ``bounds_checks``, no entries)
- ``shuffle_exact``: FMT21-NUM, SHUFFLE-RR-EXACT (shared terms, exact predicates and SMT
  problems in ``exact_checks``, no entries)
- ``discrete``: DLAP
- ``discrete_gaussian``: CKS20-DGAUSS
- ``subsampled_rdp``: WBK19-SUBRDP
- ``discrete_common``: the family name and shared terms of ``discrete``,
  ``discrete_gaussian`` and ``subsampled_rdp`` (no entries)
"""
