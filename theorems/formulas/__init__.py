"""Pure mathematics of the catalogue, one module per mathematical object.

Formulas take a context (``ctx``) and parameters and return numbers of that context; they import
only the model layer (core, params, values, errors, refs), ``ctx``, ``numerics`` and other
formulas, never a family package.

- ``gaussian``: the Gaussian mechanism (exact profile, inverse, calibration, PLD tail, RDP curve,
  quadrature and Neyman–Pearson routes, k-fold composition, zCDP parameter).
- ``laplace``: the Laplace mechanism (profile, inverse, PLD, quadratures, RDP curve, moments).
- ``gdp``: Gaussian DP (profile, inverse, composition, rho, the CLT approximation).
- ``rr``: randomized response and pure DP (sharp RDP curve, zCDP of pure DP, RR moments).
- ``conversions``: zCDP/RDP to (eps, delta)-DP ([BS16], [S22] Remark 15, [CKS20], [Mir17],
  [BBGHS20]) and zCDP composition.
- ``amplification``: amplification by subsampling ([BBG] Thms 8-9, neighbouring relations,
  subsampling then composition, the binomial RDP bound).
- ``subsampled_gaussian``: the Poisson-subsampled Gaussian (exact one-step profile, RDP curve,
  RDP-based eps).
- ``subsampled_gaussian_pld``: its certified k-fold PLD accounting.
"""
