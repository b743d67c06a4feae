"""dp_accounting's delta-grid TPR bound and GDP estimate for a mu-GDP curve, replicated in
float64 as dp_accounting computes them (google/differential-privacy ``dp_accounting/pld/
privacy_loss_distribution.py``, ``get_true_positive_rates`` and ``get_gdp_parameter_estimate``,
commit b5b0286e), with ``eps(delta)`` the exact GDP inverse in place of the PLD's
``get_epsilon_for_delta`` (catalogue FDP-PLD-CONV claim 4; the dual-to-primal step of [DRS]
J. Dong, A. Roth, W. J. Su, arXiv 1905.02383, the proposition after Prop. 2.12, numbers
recalled).

This is an approximate route on purpose: it is the float64 algorithm whose output the claim
describes. Its rounding (about 1e-16 relative per term; the minimum and maximum add none) is
far below the 1e-13 to which the claim compares.

- ``TPR(fpr) = min_{delta in D} min{1, e^{eps(delta)} fpr + delta, 1 + (fpr + delta - 1)
  e^{-eps(delta)}}``, D = ``{0} ∪ numpy.logspace(-13, 0, 3000)``;
- ``mu_hat = max_{fpr in F} [Phi^{-1}(TPR(fpr)) - Phi^{-1}(fpr)]``, F =
  ``numpy.logspace(log10(1e-12), log10(0.5), 500)``.
"""

from __future__ import annotations

import functools
import math
from statistics import NormalDist

import numpy as np

from dpverify.theorems.formulas.tradeoff_composition import dp_accounting_fpr_grid

DELTA_GRID_SIZE = 3000


def _phi(x: float) -> float:
    return math.erfc(-x / math.sqrt(2)) / 2


def gdp_delta_float(mu: float, eps: float) -> float:
    """``Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)`` (DRS-GDP.delta) in float64."""
    return _phi(-eps / mu + mu / 2) - math.exp(eps) * _phi(-eps / mu - mu / 2)


def gdp_eps_float(mu: float, delta: float) -> float:
    """Least eps >= 0 with ``delta(eps) <= delta`` by float64 bisection (infinite at delta 0)."""
    if delta <= 0:
        return math.inf
    if gdp_delta_float(mu, 0.0) <= delta:
        return 0.0
    lo, hi = 0.0, 1.0
    while gdp_delta_float(mu, hi) > delta:
        lo, hi = hi, 2 * hi
    for _ in range(200):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        lo, hi = (mid, hi) if gdp_delta_float(mu, mid) > delta else (lo, mid)
    return hi


def dp_accounting_delta_grid() -> np.ndarray:
    """``{0} ∪ numpy.logspace(-13, 0, 3000)``."""
    return np.concatenate(([0.0], np.logspace(-13, 0, DELTA_GRID_SIZE)))


@functools.lru_cache(maxsize=8)
def _grid_eps(mu: float) -> np.ndarray:
    return np.array([gdp_eps_float(mu, float(d)) for d in dp_accounting_delta_grid()])


def gdp_tpr_bounds(mu: float, fprs: np.ndarray) -> np.ndarray:
    """dp_accounting's TPR upper bound of the mu-GDP curve at each fpr (float64)."""
    deltas = dp_accounting_delta_grid()
    x = np.exp(_grid_eps(mu))
    with np.errstate(over="ignore", invalid="ignore"):
        first = np.where(np.isinf(x), 1.0, x[None, :] * fprs[:, None] + deltas[None, :])
        second = 1 + (fprs[:, None] + deltas[None, :] - 1) / x[None, :]
    return np.minimum(1.0, np.minimum(first, second)).min(axis=1)


def gdp_mu_estimate(mu: float) -> float:
    """dp_accounting's ``get_gdp_parameter_estimate`` on the mu-GDP curve (float64)."""
    fprs = np.array([float(f) for f in dp_accounting_fpr_grid()])
    tprs = gdp_tpr_bounds(mu, fprs)
    nd = NormalDist()
    return max(nd.inv_cdf(float(t)) - nd.inv_cdf(float(f)) for t, f in zip(tprs, fprs,
                                                                           strict=True)
               if t < 1)
