"""Certified trade-off values of the Poisson-subsampled Gaussian composition from the PLD engine
(catalogue FDP-PLD-CONV): the TPR at a given FPR and the GDP estimate on dp_accounting's FPR
grid, as rigorous enclosures (:mod:`dpverify.theorems.numerics.pld.tradeoff`).

Definitions (stated exactly; [DRS] J. Dong, A. Roth, W. Su, arXiv 1905.02383, Def. 2.1, the
dual-to-primal conversion after Prop. 2.12, Def. 2.6):

- ``tpr = 1 - f(fpr)``, ``f = sup_{eps >= 0} f_{eps, delta(eps)}`` with ``delta`` the
  two-order privacy profile of the k-fold composition: the largest power of a test of type-I
  error ``fpr`` between neighbouring outputs (the tightest f-DP curve). dp_accounting's
  ``get_true_positive_rates`` (google/differential-privacy, ``dp_accounting/pld/
  privacy_loss_distribution.py``) computes an upper bound of it on a finite delta grid;
- ``mu_estimate = max_{a in F} [Phi^{-1}(tpr(a)) - Phi^{-1}(a)]`` with F dp_accounting's default
  grid ``numpy.logspace(log10(1e-12), log10(0.5), 500)``: the computation of dp_accounting's
  ``get_gdp_parameter_estimate`` with the exact TPR curve in place of its delta-grid bound (its
  docstring: neither an upper nor a lower bound of the GDP parameter; the lower end of this
  enclosure is a certified lower bound of the GDP parameter, since F is a subset of (0, 1)).
  Opacus reports no PLD-based mu: its ``gdp`` accountant is the CLT formula DRS-GDP.mu_clt.
"""

from __future__ import annotations

from typing import Any

from dpverify.theorems.formulas.mechanism_pld import mechanism_pairs
from dpverify.theorems.formulas.subsampled_gaussian_pld import arb_only, arb_param
from dpverify.theorems.numerics import pld
from dpverify.theorems.numerics.pld import tradeoff
from dpverify.theorems.values import exact_params

DEFAULT_REL_WIDTH = 1e-3
# the refinement budget: within the 50 s of `dpverify eval` (a wider enclosure past it, never a
# wrong one; --rel-width and --timeout ask for more)
MAX_SECONDS = 30.0


def _directions(q: Any, sigma: Any, k: int, neighboring: str) -> list[list[pld.Part]]:
    return [[(p, k)] for p in pld.sgm_pairs(arb_param(q), arb_param(sigma), neighboring)]


@exact_params("q", "sigma", "fpr")
def sgm_tpr(ctx: Any, q: Any, sigma: Any, k: int, fpr: Any, neighboring: str = "add_remove",
            rel_width: float = DEFAULT_REL_WIDTH) -> Any:
    """Certified TPR at type-I error fpr of k steps of the Poisson-subsampled Gaussian (see the
    module for the definition): the ball of :func:`tradeoff.enclose_tpr`."""
    arb_only(ctx)
    return tradeoff.enclose_tpr(_directions(q, sigma, k, neighboring), fpr, rel_width,
                                MAX_SECONDS).ball()


@exact_params("q", "sigma")
def sgm_mu_estimate(ctx: Any, q: Any, sigma: Any, k: int, neighboring: str = "add_remove",
                    rel_width: float = DEFAULT_REL_WIDTH) -> Any:
    """Certified enclosure of dp_accounting's GDP estimate computed on the exact TPR curve of k
    steps of the Poisson-subsampled Gaussian (default FPR grid; see the module)."""
    arb_only(ctx)
    return tradeoff.enclose_mu(_directions(q, sigma, k, neighboring), None, rel_width,
                               MAX_SECONDS).ball()


@exact_params("b", "fpr", "q", "sensitivity")
def laplace_tpr(ctx: Any, b: Any, k: int, fpr: Any, q: Any = 1, sensitivity: Any = 1,
                rel_width: float = DEFAULT_REL_WIDTH) -> Any:
    """Certified TPR at type-I error fpr of k Laplace(b) steps, each on a Poisson sample of rate
    q (add/remove), by the same definition (the two-order profile of the composition)."""
    arb_only(ctx)
    dirs = [[(p, k)] for p in mechanism_pairs("laplace", b, q, sensitivity)]
    return tradeoff.enclose_tpr(dirs, fpr, rel_width, MAX_SECONDS).ball()


@exact_params("eps0", "fpr", "q")
def rr_tpr(ctx: Any, eps0: Any, k: int, fpr: Any, q: Any = 1,
           rel_width: float = DEFAULT_REL_WIDTH) -> Any:
    """Certified TPR at type-I error fpr of k RR(eps0) steps on Poisson samples of rate q
    (q = 1: ``1 - DRS-TENSOR.f_rr_hom(eps0, k, fpr)``)."""
    arb_only(ctx)
    dirs = [[(p, k)] for p in mechanism_pairs("rr", eps0, q)]
    return tradeoff.enclose_tpr(dirs, fpr, rel_width, MAX_SECONDS).ball()


__all__ = ["laplace_tpr", "rr_tpr", "sgm_mu_estimate", "sgm_tpr"]
