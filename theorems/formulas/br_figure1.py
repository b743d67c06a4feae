"""[DDR] Figure 1: how many eps0-BR queries fit in a global budget (eps, delta).

Each curve (``FIG1_KINDS``) is the largest k whose bound stays within the budget: basic
composition, DP optimal composition ([KOV] arXiv 1311.0776v4, Thm 3.3 at eps0 and eps0/2), DR19,
OptKL, MGF and the exact BR optimum ([DDR] Thm 3). :func:`figure1_series` gives the curves for
plots (reports/html.py).

References
----------
- [DDR] J. Dong, D. Durfee, R. Rogers, *Optimal Differential Privacy Composition for Exponential
  Mechanisms and the Cost of Adaptivity*, arXiv 1909.13830 (version not verified; ICML 2020,
  PMLR 119), Fig. 1.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from dpverify.theorems.core import InvalidParameter
from dpverify.theorems.ctx import FloatCtx, PrecisionExhausted, Unsupported
from dpverify.theorems.formulas.bounded_range import _exact_value, _rigorous
from dpverify.theorems.formulas.br_bounds import dr19_eps, dr19_eps_kovkl, mgf_eps, optkl_eps
from dpverify.theorems.formulas.ddr_composition import _t3_point, t3_delta
from dpverify.theorems.formulas.kov_mv import kov_delta_pure
from dpverify.theorems.numerics.search import largest_satisfying
from dpverify.theorems.values import exact_params

# DDR-FIG1: in a rigorous context the boundary (k, k+1) of k_br_optcomp is re-checked with the
# exact DDR-T3 value only up to this k (beyond, the double-precision search stands alone).
FIG1_RECHECK_BR_K = 3000


def _k_basic_exact(eps0: Fraction, eps: Fraction) -> int:
    return math.floor(eps / eps0)


_FP = FloatCtx()


@functools.lru_cache(maxsize=512)
def _fig1_search(kind: str, eps0: Fraction, eps: Fraction, delta: Fraction) -> int:
    """The double-precision search of one column of [DDR] Fig. 1 (cached)."""
    e0, B, d = float(eps0), float(eps), float(delta)
    start = _k_basic_exact(eps0, eps)  # every bound allows the basic-composition count
    if kind == "dp_optcomp":
        return largest_satisfying(lambda k: kov_delta_pure(_FP, e0, k, B) <= d, start)
    if kind == "dp_optcomp_half":
        # k-fold RR(eps0/2) allows about 4 times the queries of RR(eps0): a starting guess
        guess = 4 * _fig1_search("dp_optcomp", eps0, eps, delta)
        return largest_satisfying(lambda k: kov_delta_pure(_FP, e0 / 2, k, B) <= d, 2 * start,
                                  guess)
    if kind == "dr19":
        return largest_satisfying(lambda k: dr19_eps(_FP, e0, k, d) <= B, start)
    if kind == "dr19_kovkl":
        return largest_satisfying(lambda k: dr19_eps_kovkl(_FP, e0, k, d) <= B, start)
    if kind == "optkl":
        return largest_satisfying(lambda k: optkl_eps(_FP, e0, k, d) <= B, start)
    if kind == "mgf":
        guess = _fig1_search("optkl", eps0, eps, delta)
        return largest_satisfying(lambda k: _FP.run(mgf_eps, eps0=eps0, k=k, delta=delta) <= B,
                          start, guess)
    if kind == "br_optcomp":
        guess = _fig1_search("dp_optcomp_half", eps0, eps, delta)
        return largest_satisfying(lambda k: _t3_point(_FP, eps0, k, eps) <= d, start, guess)
    raise ValueError(kind)


def _fig1_ok(ctx: Any, kind: str, eps0: Fraction, eps: Fraction, delta: Fraction,
             k: int) -> bool | None:
    """The same decision as the search, in ``ctx`` (certified in arb)."""
    if k <= _k_basic_exact(eps0, eps) and kind != "dp_optcomp_half":
        return True
    E0, B, D = ctx.num(eps0), ctx.num(eps), ctx.num(delta)
    if kind == "dp_optcomp":
        return ctx.le(kov_delta_pure(ctx, eps0, k, eps), D)
    if kind == "dp_optcomp_half":
        return ctx.le(kov_delta_pure(ctx, eps0 / 2, k, eps), D)
    if kind == "dr19":
        return ctx.le(dr19_eps(ctx, E0, k, D), B)
    if kind == "dr19_kovkl":
        return ctx.le(dr19_eps_kovkl(ctx, E0, k, D), B)
    if kind == "optkl":
        return ctx.le(optkl_eps(ctx, E0, k, D), B)
    if kind == "mgf":
        return ctx.le(mgf_eps(ctx, eps0, k, delta), B)
    if kind == "br_optcomp":
        return ctx.le(t3_delta(ctx, eps0, k, eps), D)
    raise ValueError(kind)


def _fig1_k(ctx: Any, kind: str, eps0: Any, eps: Any, delta: Any) -> int:
    """The largest k meeting the budget for one bound: a double-precision search (doubling and
    bisection, assuming monotonicity in k: DDR-FIG1 claim 6), then, in a rigorous context, the
    boundary ``(k, k+1)`` re-decided in arb (for BR-OptComp only up to k = 3000) and moved if
    the certified decisions disagree."""
    e0 = _exact_value(eps0)
    b = _exact_value(eps)
    d = _exact_value(delta)
    if e0 is None or b is None or d is None:
        raise Unsupported("the query counts need exact eps0, eps and delta")
    k = _fig1_search(kind, e0, b, d)
    if not _rigorous(ctx) or (kind == "br_optcomp" and k + 1 > FIG1_RECHECK_BR_K):
        return k

    def ok(j: int) -> bool:
        r = _fig1_ok(ctx, kind, e0, b, d, j)
        if r is None:
            raise PrecisionExhausted(f"cannot decide the budget of {kind} at k = {j}")
        return r

    while k > 0 and not ok(k):
        k -= 1
    while ok(k + 1):
        k += 1
    return k


def _fig1_evaluator(kind: str) -> Callable[..., int]:
    @exact_params("eps0", "eps", "delta")
    def f(ctx: Any, eps0: Any, eps: Any, delta: Any) -> int:
        return _fig1_k(ctx, kind, eps0, eps, delta)

    f.__name__ = f"k_{kind}"
    f.__doc__ = (f"DDR-FIG1: the largest k with the {kind} bound within budget eps at delta "
                 "([DDR] arXiv 1909.13830, Fig. 1; search as in :func:`_fig1_k`).")
    return f


@exact_params("eps0", "eps")
def fig1_k_basic(ctx: Any, eps0: Any, eps: Any) -> int:
    """DDR-FIG1: ``floor(eps/eps0)`` queries under basic composition (exact)."""
    e0, b = _exact_value(eps0), _exact_value(eps)
    if e0 is None or b is None:
        raise Unsupported("k_basic needs exact eps0 and eps")
    return _k_basic_exact(e0, b)


FIG1_KINDS = ("basic", "dp_optcomp", "dr19", "dr19_kovkl", "optkl", "mgf", "br_optcomp",
              "dp_optcomp_half")


def _to_fraction(x: Any) -> Fraction:
    if isinstance(x, Fraction | int):
        return Fraction(x)
    if isinstance(x, str):
        return Fraction(x)
    if isinstance(x, float):
        return Fraction(repr(x))
    raise TypeError(f"cannot read {x!r} as a number")


def figure1_series(eps0: Any, eps_values: Sequence[Any], delta: Any) -> dict[str, list[int]]:
    """The query counts of [DDR] Fig. 1 for each budget in ``eps_values``, per bound: keys
    ``basic``, ``dp_optcomp`` (KOV with eps0), ``dr19``, ``dr19_kovkl``, ``optkl``, ``mgf``,
    ``br_optcomp`` (DDR-T3, non-adaptive), ``dp_optcomp_half`` (KOV with eps0/2), each a list of
    ints aligned with ``eps_values``. Numbers may be given as strings, Fractions or floats
    (floats are read by their shortest decimal repr). Double-precision searches (the
    catalogue's float path); for plotting."""
    e0, d = _to_fraction(eps0), _to_fraction(delta)
    if e0 <= 0 or not 0 < d < 1:
        raise InvalidParameter("figure1_series needs eps0 > 0 and delta in (0, 1)")
    out: dict[str, list[int]] = {kind: [] for kind in FIG1_KINDS}
    for b in eps_values:
        B = _to_fraction(b)
        if B <= 0:
            raise InvalidParameter(f"every budget must be > 0; got {b}")
        out["basic"].append(_k_basic_exact(e0, B))
        for kind in FIG1_KINDS[1:]:
            out[kind].append(_fig1_search(kind, e0, B, d))
    return out
