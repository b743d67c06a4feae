"""Certified k-fold composition of the Laplace mechanism, randomized response and the discrete
mechanisms, optionally Poisson-subsampled, with the PLD engine of
:mod:`dpverify.theorems.numerics.pld`: rigorous enclosures ``[lo, hi]`` of delta(eps) and
eps(delta) ([S22] T. Steinke, arXiv 2210.00597v4, Sec. 4: composition is convolution of PLDs;
[DGKKM22] arXiv 2207.04380v1: the discretisation; [ZDW22] arXiv 2106.08567v3, Thm 10: the
add/remove dominating pairs of Poisson subsampling).

Pairs (catalogue README, scenario conventions; ``s`` the sensitivity):

- Laplace: ``(Lap(0, b), Lap(s, b))`` (STK-LAPLACE); symmetric, one order gives the two-order
  profile. Under replace-one with contributions of norm <= 1 take ``s = 2``.
- randomized response: RR(eps0) (catalogue README); its k-fold profile is KOV-DELTA.delta_pure.
- discrete Laplace / discrete Gaussian on the integers (integer s):
  :class:`~dpverify.theorems.numerics.pld.DiscreteLaplace`, ``DiscreteGaussian``.
- with ``q < 1``: the Poisson-subsampled pairs in the ``add`` and ``remove`` directions
  (add/remove relation), the profile being their maximum; both are attained for these
  symmetric bases, so the value is the exact profile, not only a bound.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from dpverify.theorems.formulas.subsampled_gaussian_pld import arb_only
from dpverify.theorems.numerics import pld
from dpverify.theorems.values import exact_params

DEFAULT_REL_WIDTH = 1e-3
# the refinement budget: within the 50 s of `dpverify eval` (a wider enclosure past it, never a
# wrong one; --rel-width and --timeout ask for more)
MAX_SECONDS = 30.0


def _exact(v: Any, name: str) -> Fraction:
    if isinstance(v, Fraction | int) and not isinstance(v, bool):
        return Fraction(v)
    if isinstance(v, str):
        return Fraction(v)
    raise TypeError(f"{name} must be an exact number for the PLD engine; got {v!r}")


def subsampled(base: pld.LossPair, q: Any) -> list[pld.LossPair]:
    """The directions of ``base`` on a Poisson sample of rate q (add/remove; ``[base]`` for
    q = 1, whose two orders have the same profile for the symmetric bases here)."""
    q = _exact(q, "q")
    if q == 1:
        return [base]
    return [pld.SubsampledPair(base, q, "add"), pld.SubsampledPair(base, q, "remove")]


def mechanism_pairs(mechanism: str, scale: Any, q: Any = 1,
                    sensitivity: Any = 1) -> list[pld.LossPair]:
    """The directions of one step of ``mechanism`` ("laplace" with scale b, "rr" with eps0,
    "discrete_laplace" with b, "discrete_gaussian" with sigma) on a Poisson sample of rate q."""
    x, s = _exact(scale, "scale"), _exact(sensitivity, "sensitivity")
    base: pld.LossPair
    if mechanism == "laplace":
        base = pld.Laplace(x, s)
    elif mechanism == "rr":
        base = pld.RandomizedResponse(x)
    elif mechanism == "discrete_laplace":
        base = pld.DiscreteLaplace(x, s)
    elif mechanism == "discrete_gaussian":
        base = pld.DiscreteGaussian(x, s)
    else:
        raise ValueError(f"unknown mechanism {mechanism!r}")
    return subsampled(base, q)


def delta_enclosure(pairs: list[pld.LossPair], k: int, eps: Any,
                    rel_width: float = DEFAULT_REL_WIDTH) -> pld.Enclosure:
    return pld.enclose_delta(pairs, k, _exact(eps, "eps"), rel_width, MAX_SECONDS)


def eps_enclosure(pairs: list[pld.LossPair], k: int, delta: Any,
                  rel_width: float = DEFAULT_REL_WIDTH) -> pld.Enclosure:
    return pld.enclose_eps(pairs, k, _exact(delta, "delta"), rel_width, MAX_SECONDS)


@exact_params("b", "eps", "q", "sensitivity")
def laplace_pld_delta(ctx: Any, b: Any, k: int, eps: Any, q: Any = 1, sensitivity: Any = 1,
                      rel_width: float = DEFAULT_REL_WIDTH) -> Any:
    """Certified delta(eps) of k Laplace(b) steps (sensitivity s), each on a Poisson sample of
    rate q (add/remove): the ball of :func:`dpverify.theorems.numerics.pld.enclose_delta`."""
    arb_only(ctx)
    return delta_enclosure(mechanism_pairs("laplace", b, q, sensitivity), k, eps,
                           rel_width).ball()


@exact_params("b", "delta", "q", "sensitivity")
def laplace_pld_eps(ctx: Any, b: Any, k: int, delta: Any, q: Any = 1, sensitivity: Any = 1,
                    rel_width: float = DEFAULT_REL_WIDTH) -> Any:
    """Certified eps(delta) (least eps >= 0) of k Laplace(b) steps on Poisson samples."""
    arb_only(ctx)
    return eps_enclosure(mechanism_pairs("laplace", b, q, sensitivity), k, delta,
                         rel_width).ball()


@exact_params("eps0", "eps", "q")
def rr_pld_delta(ctx: Any, eps0: Any, k: int, eps: Any, q: Any = 1,
                 rel_width: float = DEFAULT_REL_WIDTH) -> Any:
    """Certified delta(eps) of k RR(eps0) steps, each on a Poisson sample of rate q."""
    arb_only(ctx)
    return delta_enclosure(mechanism_pairs("rr", eps0, q), k, eps, rel_width).ball()


@exact_params("eps0", "delta", "q")
def rr_pld_eps(ctx: Any, eps0: Any, k: int, delta: Any, q: Any = 1,
               rel_width: float = DEFAULT_REL_WIDTH) -> Any:
    """Certified eps(delta) of k RR(eps0) steps, each on a Poisson sample of rate q."""
    arb_only(ctx)
    return eps_enclosure(mechanism_pairs("rr", eps0, q), k, delta, rel_width).ball()


@exact_params("scale", "eps", "q", "sensitivity")
def discrete_pld_delta(ctx: Any, mechanism: str, scale: Any, k: int, eps: Any, q: Any = 1,
                       sensitivity: Any = 1, rel_width: float = DEFAULT_REL_WIDTH) -> Any:
    """Certified delta(eps) of k steps of the discrete Laplace (``mechanism`` =
    "discrete_laplace", scale b) or discrete Gaussian ("discrete_gaussian", scale sigma) with
    integer sensitivity, each on a Poisson sample of rate q (for the catalogue's DLAP and
    CKS20-DGAUSS entries: wrap it with the mechanism fixed)."""
    arb_only(ctx)
    return delta_enclosure(mechanism_pairs(mechanism, scale, q, sensitivity), k, eps,
                           rel_width).ball()


@exact_params("scale", "delta", "q", "sensitivity")
def discrete_pld_eps(ctx: Any, mechanism: str, scale: Any, k: int, delta: Any, q: Any = 1,
                     sensitivity: Any = 1, rel_width: float = DEFAULT_REL_WIDTH) -> Any:
    """Certified eps(delta) of k discrete Laplace / Gaussian steps (see
    :func:`discrete_pld_delta`)."""
    arb_only(ctx)
    return eps_enclosure(mechanism_pairs(mechanism, scale, q, sensitivity), k, delta,
                         rel_width).ball()


__all__ = [
    "delta_enclosure",
    "discrete_pld_delta",
    "discrete_pld_eps",
    "eps_enclosure",
    "laplace_pld_delta",
    "laplace_pld_eps",
    "mechanism_pairs",
    "rr_pld_delta",
    "rr_pld_eps",
    "subsampled",
]
