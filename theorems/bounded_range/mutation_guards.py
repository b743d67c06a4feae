"""Claim terms that pin down engine internals the other claims only bound from one side
(added after the formula-mutation harness, ``bench/mutation.py``, found survivors).

- :func:`l32_bellman_excess`: the DDR-L32 lattice lower table must satisfy the recursion of
  [DDR] arXiv 1909.13830v2, Lemma 3.2, with the maximum over the lattice ``t = i eps0/N``:
  ``LB_k(m) = max_i [p_i LB_{k-1}(m - i) + (1 - p_i) LB_{k-1}(m - i + N)]``. Any choice of ``i``
  gives a valid lower bound, so the one-sided claims (LB <= optimum) cannot see a wrong argmax;
  this two-sided identity can.
- :func:`lattice_branch_defect`: the level-0 state of that lattice (``numerics/lattice``) holds a
  probability pair ``(p_i, 1 - p_i)`` at every lattice t (Def. 2.4: the two branches of the
  generalized randomized response), with the exact end points ``p_0 = 1``, ``p_N = 0``, and the
  float copies the argmax reads agree with the balls. A branch pair that loses mass only lowers
  the lower table (still a valid lower bound) where the argmax would have used it.
- :func:`l31_taylor_deviation`: the enclosures of the Lemma 3.1 objective with equal t that the
  branch and bound of DDR-T3 claim 1 maximises (value, slope, first and second derivative
  over a degenerate box; :func:`~dpverify.theorems.formulas.ddr_composition._lemma31_objective`)
  against the Taylor coefficients of the objective written from its definition ([DDR] arXiv
  1909.13830v2, Lemma 3.1; p, q of Def. 2.4) in arb power series. The branch and bound's result
  is rigorous whatever these enclosures are as long as they contain the truth, so a derivative
  enclosure that is right but needlessly wide (a term of decided sign treated as undecided)
  only makes the search run to its limit; this claim sees it as a wrong width.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import flint

from dpverify.theorems.claims import Points
from dpverify.theorems.ctx import ArbCtx, Unsupported, arb_precision
from dpverify.theorems.formulas.bounded_range import grr_1mp, grr_p
from dpverify.theorems.formulas.ddr_adaptive import (
    L32_N_LB,
    _l32_lattice,
    _lattice_init,
    _lattice_prec,
)
from dpverify.theorems.formulas.ddr_composition import _lemma31_objective
from dpverify.theorems.values import exact_params

# the float argmax may pick a candidate within float rounding of the best one (values <= 1,
# k <= 4 levels of double recursion: a few 1e-16); 1e-12 leaves a wide margin
BELLMAN_SLACK = Fraction(1, 10**12)


def _lb_at(ctx: Any, table: list[Any], off: int, m: int, h: Fraction) -> Any:
    """``LB(m)`` of one level: the exact boundary ``1 - e^{m h}`` left of the table, 0 right."""
    if m < -off:
        return -ctx.expm1(ctx.num(m * h))
    if m > off:
        return ctx.zero
    return table[m + off]


_BRANCHES: dict[tuple[Fraction, int, int], list[tuple[Any, Any]]] = {}


def _branches(actx: ArbCtx, e0: Fraction, n: int, h: Fraction) -> list[tuple[Any, Any]]:
    """``[(p_i, q_i) for i in 0..n]`` at ``t_i = i h`` (cached per eps0, N and precision: the
    Bellman check visits many (k, m) at the same eps0)."""
    key = (e0, n, actx.prec)
    hit = _BRANCHES.get(key)
    if hit is None:
        big_e0 = actx.num(e0)
        hit = []
        for i in range(n + 1):
            t = actx.num(i * h)
            p = actx.one if i == 0 else actx.zero if i == n else grr_p(actx, big_e0, t)
            q = actx.zero if i == 0 else actx.one if i == n else grr_1mp(actx, big_e0, t)
            hit.append((p, q))
        if len(_BRANCHES) >= 8:
            _BRANCHES.clear()
        _BRANCHES[key] = hit
    return hit


@exact_params("eps0")
def l32_bellman_excess(ctx: Any, eps0: Any, k: int, m: int, **_: Any) -> Any:
    """``LB_k(m) - max_i [p_i LB_{k-1}(m - i) + (1 - p_i) LB_{k-1}(m - i + N)]`` (lattice N =
    L32_N_LB, ``t_i = i eps0/N``), in arb at the lattice precision; 0 when the table is right."""
    e0, n = Fraction(eps0), L32_N_LB
    prec = _lattice_prec(ctx)
    actx = ArbCtx(prec)
    h = e0 / n
    with arb_precision(prec):
        prev, _, off_prev = _l32_lattice(e0, k - 1, n, prec) if k > 1 else ([], None, 0)
        cur, _, off = _l32_lattice(e0, k, n, prec)
        best = None
        for i, (p, q) in enumerate(_branches(actx, e0, n, h)):
            if k > 1:
                a = _lb_at(actx, prev, off_prev, m - i, h)
                b = _lb_at(actx, prev, off_prev, m - i + n, h)
            else:  # level 0: the boundary 1 - e^{x} for x <= 0, else 0
                a = -actx.expm1(actx.num((m - i) * h)) if m - i <= 0 else actx.zero
                b = -actx.expm1(actx.num((m - i + n) * h)) if m - i + n <= 0 else actx.zero
            cand = p * a + q * b
            best = cand if best is None else best.max(cand)
        return _lb_at(actx, cur, off, m, h) - best


@exact_params("eps0")
def lattice_branch_defect(ctx: Any, eps0: Any, **_: Any) -> Any:
    """``max_i max(|p_i + q_i - 1|, |p_f[i] - p_i|, |q_f[i] - q_i|)`` over the level-0 lattice
    state (N = L32_N_LB), plus ``|p_0 - 1| + |q_0| + |p_N| + |q_N - 1|`` (exact end points), in
    arb at the lattice precision; 0 up to rounding for a right state."""
    e0, n = Fraction(eps0), L32_N_LB
    prec = _lattice_prec(ctx)
    st = _lattice_init(e0, n, prec)
    with arb_precision(prec):
        p, q = st["p_arb"], st["q_arb"]
        worst = abs(p[0] - 1) + abs(q[0]) + abs(p[n]) + abs(q[n] - 1)
        for i in range(n + 1):
            worst = worst.max(abs(p[i] + q[i] - 1))
            worst = worst.max(abs(flint.arb(float(st["p_f"][i])) - p[i]))
            worst = worst.max(abs(flint.arb(float(st["q_f"][i])) - q[i]))
        return worst


# the float copies are the balls' midpoints rounded to binary64: within 2^-53 of values <= 1
LATTICE_BRANCH_SLACK = Fraction(1, 2**52)
LATTICE_BRANCH_TEXT = ("the level-0 state of the DDR-L32 lattice (N = 1000) holds a probability "
                       "pair (p_i, q_i) = (p_{eps0,t_i}, 1 - p_{eps0,t_i}) at every lattice t_i = "
                       "i eps0/N: p_i + q_i = 1, the float copies the argmax reads equal the "
                       "balls, and p_0 = 1, q_0 = 0, p_N = 0, q_N = 1, all within 2^-52, "
                       "certified for eps0 in {1/10, 1/2, 6/5}")
LATTICE_BRANCH_POINTS = Points(tuple({"eps0": e} for e in ("1/10", "1/2", "6/5")))


BELLMAN_POINTS = Points(tuple({"eps0": "1/2", "k": k, "m": m}
                              for k in (1, 2, 3)
                              for m in (-k * L32_N_LB + 1, -700 * k, -250 * k, -37, 0, 1,
                                        123 * k, 500 * k, k * L32_N_LB - 1)))
BELLMAN_TEXT = ("the lower table of the DDR-L32 lattice (N = 1000, eps0 = 0.5) satisfies the "
                "Lemma 3.2 recursion with the maximum over the lattice t: |LB_k(m) - max_i "
                "[p_i LB_{k-1}(m - i) + (1 - p_i) LB_{k-1}(m - i + N)]| <= 1e-12 (below: the "
                "float argmax ties within rounding; above: LB_k(m) is one of the candidates, "
                "with the level-0 branch probabilities p_0 = 1, p_N = 0 exact), certified at 27 "
                "lattice states (k = 1, 2, 3, m across [-k N, k N])")


def _l31_taylor(eps0: Fraction, k: int, eps: Fraction, t: Fraction) -> list[Any]:
    """``F(t), F'(t), F''(t)`` of ``F(t) = sum_i C(k,i) (p^{k-i}(1-p)^i - e^eps q^{k-i}(1-q)^i)_+``
    ([DDR] Lemma 3.1, equal t) from ``p = (e^{t-eps0} - 1)/(e^{-eps0} - 1)``, ``1 - p = (e^t -
    1)/(e^{eps0} - 1)``, ``q = p e^{-t}``, ``1 - q = (1 - e^{-t})/(1 - e^{-eps0})`` (Def. 2.4) as
    arb power series in ``t`` (at the global precision); term i is positive iff ``k t - i eps0 >
    eps``, decided exactly (a t where it is 0 is a kink of F, refused)."""
    def num(x: Fraction) -> Any:
        return flint.arb(flint.fmpq(x.numerator, x.denominator))

    E0, order = num(eps0), 3
    x = flint.arb_series([num(t), 1], prec=order)
    p = ((x - E0).exp() - 1) / ((-E0).exp() - 1)
    mp_ = (x.exp() - 1) / (E0.exp() - 1)
    q = p * (-x).exp()
    mq = (1 - (-x).exp()) / (1 - (-E0).exp())
    c = num(eps).exp()
    total = flint.arb_series([0], prec=order)
    for i in range(k + 1):
        loss = k * t - i * eps0
        if loss == eps:
            raise Unsupported(f"t = {t} is a kink of the Lemma 3.1 objective (term {i})")
        if loss > eps:
            total += math.comb(k, i) * (p ** (k - i) * mp_ ** i - c * q ** (k - i) * mq ** i)
    coeffs = total.coeffs() + [flint.arb(0)] * order
    return [coeffs[0], coeffs[1], 2 * coeffs[2]]


def _farthest(enclosure: Any, exact: Any) -> Any:
    """The largest distance from ``exact`` to a point of ``enclosure``, relative to ``1 +
    |exact|``: +inf for no enclosure (None) or one that is not finite."""
    if enclosure is None or not flint.arb(enclosure).is_finite():
        return flint.arb.pos_inf()
    e = flint.arb(enclosure)
    return abs(e.upper() - exact).max(abs(e.lower() - exact)) / (1 + abs(exact))


@exact_params("eps0", "eps", "t")
def l31_taylor_deviation(ctx: Any, eps0: Any, k: int, eps: Any, t: Any, **_: Any) -> Any:
    """The largest distance, relative to ``1 + |reference|``, between a point of the branch and
    bound's enclosures of ``F(t)``, ``F'(t)`` (from ``enclose(t, t)`` and from ``slope(t)``) and
    ``F''(t)`` and the Taylor coefficients of :func:`_l31_taylor` (arb, this context); +inf
    where the route gives no finite enclosure."""
    if not isinstance(ctx, ArbCtx):
        raise Unsupported("the Taylor route runs in arb")
    e, g, tt = Fraction(eps0), Fraction(eps), Fraction(t)
    ref = _l31_taylor(e, k, g, tt)
    value, enclose, slope = _lemma31_objective(ctx, e, k, g)
    rng, der, der2 = enclose(tt, tt)
    gaps = [_farthest(got, exact) for got, exact in (
        (rng, ref[0]), (value(tt), ref[0]), (der, ref[1]), (slope(tt), ref[1]), (der2, ref[2]))]
    if not all(gap.is_finite() for gap in gaps):
        return flint.arb.pos_inf()
    worst = gaps[0]
    for gap in gaps[1:]:
        worst = worst.max(gap)
    return worst


TAYLOR_SLACK = Fraction(1, 10**25)
TAYLOR_POINTS = Points(tuple(
    {"eps0": e0, "k": k, "eps": eps, "t": t}
    for e0, k, eps, ts in (("0.3", 2, "0", ("0.05", "0.17", "0.26")),
                           ("0.5", 3, "0.2", ("0.1", "0.17", "0.31", "0.45")),
                           ("0.1", 10, "0.25", ("0.033", "0.061", "0.087")),
                           ("1.0", 6, "1.7", ("0.4", "0.63", "0.9")),
                           ("0.05", 25, "0.3", ("0.0131", "0.0217", "0.0433")))
    for t in ts))
TAYLOR_TEXT = ("the enclosures that the branch and bound of claim 1 maximises over (value, slope, "
               "first and second derivative of the Lemma 3.1 objective with equal t at a point) "
               "lie within 1e-25 (relative to 1 + |value|) of the value and Taylor coefficients "
               "of the objective written from its definition in arb power series, at 16 points "
               "t inside (0, eps0) for 5 (eps0, k, eps) of claim 1 (no t at a kink)")
