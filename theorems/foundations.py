"""Foundations: definitions and basic properties of differential privacy.

Catalogue: ``foundations.md`` (DEF-DP, BLOG-LAP, DR-CLASSIC-GAUSS, BLOG-EXP, SMITH-ADAPT-COMP,
PAR, SMITH-POST, SMITH-GROUP, SMITH-BAYES, SMITH-NAME-SHAME, SMITH-LLOYD, BLOG-DEF).

Main results
------------
- DEF-DP: the hockey-stick form of (eps, delta)-DP, checked against the maximum over all
  events; the shape of ``z -> H_z(P||Q)`` and the group-of-two step, by exact rational search.
- BLOG-LAP: the Laplace calibration ``b = s/eps`` and its tightness, with the exact Laplace
  profile cross-checked by an output-space quadrature.
- DR-CLASSIC-GAUSS: the classic calibration ``sigma = sqrt(2 ln(1.25/delta))/eps`` of [DR14]
  Thm A.1, its exact delta (BW-ANALYTIC-GAUSS) and the certified threshold ``eps*(delta)``
  above which it is unsound; the blog's restatement without ``eps < 1`` is encoded as a
  refuted claim.
- BLOG-EXP, SMITH-ADAPT-COMP, PAR, SMITH-POST, SMITH-GROUP, SMITH-BAYES, SMITH-NAME-SHAME:
  exact enumeration over small finite mechanisms (exponential mechanism, adaptive RR trees,
  clamped geometric releases over a data-independent partition, Markov kernels, posteriors).
- SMITH-LLOYD: the DP Lloyd budget as a polynomial identity for z3.
- BLOG-DEF: the blog's ratio-form "definition" is sufficient but not equivalent (refuted by the
  name-and-shame mechanism), and ``delta`` is not the probability that pure DP fails.

Exact rational instances: where a claim is an exact identity or a tight inequality between
rational quantities (the shape of the hockey-stick curve in ``z = e^eps``, data processing on a
grid of ``z``, Bayesian posteriors of rational mechanisms), the terms draw the instance from an
integer seed and decide it in exact :class:`~fractions.Fraction` arithmetic, so ties are decided
rather than left undecided by ball arithmetic.

References
----------
- [GCE] V. Hartmann, V. Bindschaedler, R. West, *On the Choice of Databases in Differential
  Privacy Composition*, arXiv 2209.13697 (version not recorded), Def. 1, Def. 5, Thm 2,
  Sec. V-A1.
- [DDR] J. Dong, D. Durfee, R. Rogers, *Optimal Differential Privacy Composition for Exponential
  Mechanisms and the Cost of Adaptivity*, arXiv 1909.13830 (version not recorded), Defs. 2.1,
  2.3.
- [S22] T. Steinke, *Composition of Differential Privacy & Privacy Amplification by
  Subsampling*, arXiv 2210.00597v4, Secs. 2–3.
- [BW18] B. Balle, Y.-X. Wang, arXiv 1805.06530v2, Thm 8 (exact Gaussian profile).
- [DRS] J. Dong, A. Roth, W. Su, *Gaussian Differential Privacy*, arXiv 1905.02383, Cor. 2.13.
- [KOV] P. Kairouz, S. Oh, P. Viswanath, arXiv 1311.0776, Thm 3.3; [MV] J. Murtagh,
  S. Vadhan, arXiv 1507.03113, Thm 1.4 (exact k-fold RR profile).
- [DR14] C. Dwork, A. Roth, *The Algorithmic Foundations of Differential Privacy* (2014, no
  arXiv), Thm 3.6 (Laplace), Thm A.1 (classic Gaussian, eps in (0, 1)).
- [McS] F. McSherry, *Privacy Integrated Queries*, SIGMOD 2009 (no arXiv), parallel composition.
- McSherry & Talwar, *Mechanism Design via Differential Privacy*, FOCS 2007 (no arXiv).
- [SmithLN] A. Smith, lecture notes (no arXiv): Lemmas 1.1, 1.2, 1.6, 1.7, Thm 3.1, Eq. 8,
  Ex. 3.3, Alg. 2, Prop. 2.1.
- [Blog] the introductory blog post on the Laplace, Gaussian and exponential mechanisms (no
  arXiv).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from dpverify.theorems.claims import (
    Box,
    Claim,
    Compare,
    Generated,
    Points,
    Predicate,
    Smt,
    SmtProblem,
    Tol,
    grid,
)
from dpverify.theorems.core import Evaluator, InvalidParameter, Source, Theorem, parse_number
from dpverify.theorems.ctx import PrecisionExhausted
from dpverify.theorems.mechanisms import (
    gauss_delta,
    gauss_delta_output_quad,
    gauss_delta_pld_quad,
    gauss_tail,
    gdp_delta,
    laplace_delta,
)
from dpverify.theorems.numerics.finite import (
    hockey_stick,
    hockey_stick_events,
    max_log_ratio,
    push_forward,
    random_distribution,
    random_pair,
)
from dpverify.theorems.params import (
    DELTA,
    DELTA0,
    EPS,
    EPS0,
    EPS_LIST,
    NEIGHBORING,
    SENSITIVITY,
    K,
)

FAMILY = "foundations"

EPS_POS = replace(EPS, lo_open=True)
TINY = Tol.abs("1e-30")

_SMITH = "A. Smith, lecture notes on differential privacy [SmithLN] (no arXiv)"
_BLOG = "[Blog] introductory blog post on DP mechanisms (no arXiv)"


def _nums(ctx: Any, xs: Sequence[Fraction]) -> tuple[Any, ...]:
    return tuple(ctx.num(x) for x in xs)


def _hs_exact(p: Sequence[Fraction], q: Sequence[Fraction], z: Fraction) -> Fraction:
    """``H_z(P||Q) = sum_y max(P(y) - z Q(y), 0)`` in exact rational arithmetic."""
    return sum((max(pi - z * qi, Fraction(0)) for pi, qi in zip(p, q, strict=True)), Fraction(0))


def _max_ratio_exact(p: Sequence[Fraction], q: Sequence[Fraction]) -> Fraction:
    """``max_y max(P(y)/Q(y), Q(y)/P(y))`` (= ``e^{max |log ratio|}``) for full supports."""
    return max(max(pi / qi, qi / pi) for pi, qi in zip(p, q, strict=True))


def _seeded(inst: int) -> random.Random:
    return random.Random(inst)


# ==========================================================================================
# DEF-DP


def _def_dp_pair(inst: int) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    """A random pair with full supports, drawn from an integer seed (property route)."""
    return random_pair(_seeded(inst))


def _def_dp_convex(ctx: Any, inst: int, a: int, b: int, t: int, **_: Any) -> bool:
    """``H(t z1 + (1-t) z2) <= t H(z1) + (1-t) H(z2)`` with ``z = a/100``, ``t = t/64``."""
    p, q = _def_dp_pair(inst)
    z1, z2, w = Fraction(a, 100), Fraction(b, 100), Fraction(t, 64)
    return _hs_exact(p, q, w * z1 + (1 - w) * z2) <= w * _hs_exact(p, q, z1) + (
        1 - w) * _hs_exact(p, q, z2)


def _def_dp_breakpoints(p: Sequence[Fraction], q: Sequence[Fraction]) -> list[Fraction]:
    return sorted({Fraction(0)} | {pi / qi for pi, qi in zip(p, q, strict=True)})


def _def_dp_linear_pieces(ctx: Any, inst: int, a: int, b: int, t: int, j: int,
                          **_: Any) -> bool:
    """Between consecutive breakpoints ``P(y)/Q(y)`` the curve is affine (exactly)."""
    p, q = _def_dp_pair(inst)
    br = _def_dp_breakpoints(p, q)
    br.append(br[-1] + 1)
    k = j % (len(br) - 1)
    lo, hi = br[k], br[k + 1]
    z1 = lo + (hi - lo) * Fraction(a % 65, 64)
    z2 = lo + (hi - lo) * Fraction(b % 65, 64)
    w = Fraction(t, 64)
    return _hs_exact(p, q, w * z1 + (1 - w) * z2) == w * _hs_exact(p, q, z1) + (
        1 - w) * _hs_exact(p, q, z2)


def _def_dp_nonincreasing(ctx: Any, inst: int, a: int, b: int, **_: Any) -> bool:
    p, q = _def_dp_pair(inst)
    z = Fraction(a, 100)
    return _hs_exact(p, q, z + Fraction(b, 100)) <= _hs_exact(p, q, z)


def _def_dp_ends(ctx: Any, inst: int, a: int, **_: Any) -> bool:
    """``H(0) = 1`` and ``H(z) = 0`` for ``z >= max_y P(y)/Q(y)``."""
    p, q = _def_dp_pair(inst)
    top = max(pi / qi for pi, qi in zip(p, q, strict=True))
    return _hs_exact(p, q, Fraction(0)) == 1 and _hs_exact(p, q, top + Fraction(a, 100)) == 0


def _def_dp_chain(inst: int) -> tuple[tuple[Fraction, ...], ...]:
    """A chain ``P0, P1, P2``: each step mixes in a random distribution with a random weight."""
    rng = _seeded(inst)
    n = rng.randint(2, 6)
    chain = [random_distribution(rng, n, allow_zero=rng.random() < 0.2)]
    for _ in range(2):
        w = Fraction(rng.randint(1, 100), 100)
        r = random_distribution(rng, n, allow_zero=rng.random() < 0.2)
        chain.append(tuple((1 - w) * a + w * b for a, b in zip(chain[-1], r, strict=True)))
    return tuple(chain)


def _def_dp_group_lhs(ctx: Any, inst: int, eps: Any, **_: Any) -> Any:
    p0, _p1, p2 = (_nums(ctx, d) for d in _def_dp_chain(inst))
    return hockey_stick(ctx, p0, p2, 2 * eps)


def _def_dp_group_rhs(ctx: Any, inst: int, eps: Any, **_: Any) -> Any:
    """``(1 + e^eps) delta`` with delta the least value making both steps (eps, delta)-close
    in both orders."""
    p0, p1, p2 = (_nums(ctx, d) for d in _def_dp_chain(inst))
    delta = ctx.max(hockey_stick(ctx, p0, p1, eps), hockey_stick(ctx, p1, p0, eps),
                    hockey_stick(ctx, p1, p2, eps), hockey_stick(ctx, p2, p1, eps))
    return (1 + ctx.exp(eps)) * delta


def _draw_pair_eps(rng: random.Random) -> dict[str, Any]:
    p, q = random_pair(rng, allow_zero=rng.random() < 0.3)
    return {"p": p, "q": q, "eps": Fraction(rng.randint(-2000, 6000), 1000)}


def _point_mass(ctx: Any, at: int, size: int) -> tuple[Any, ...]:
    return tuple(ctx.one if y == at else ctx.zero for y in range(size))


_SIZE_OUTPUTS = 8  # M(x) = |x| takes values in {0..7} for the datasets drawn below


def _draw_size_datasets(rng: random.Random) -> dict[str, Any]:
    """A dataset over a 3-letter universe, a replace-one and an add/remove neighbour."""
    n = rng.randint(1, _SIZE_OUTPUTS - 2)
    x = tuple(rng.randrange(3) for _ in range(n))
    j = rng.randrange(n)
    x_rep = (*x[:j], (x[j] + rng.randint(1, 2)) % 3, *x[j + 1:])
    x_add = (*x, rng.randrange(3))
    return {"x": x, "x_rep": x_rep, "x_add": x_add,
            "eps": Fraction(rng.randint(-5000, 50000), 1000)}


def _draw_size_datasets_nonneg(rng: random.Random) -> dict[str, Any]:
    point = _draw_size_datasets(rng)
    point["eps"] = abs(point["eps"])
    return point


def _size_profile(ctx: Any, x: Sequence[int], y: Sequence[int], eps: Any) -> Any:
    """Both-order hockey-stick profile of ``M(x) = |x|`` (a point mass) on the pair (x, y)."""
    p = _point_mass(ctx, len(x), _SIZE_OUTPUTS)
    q = _point_mass(ctx, len(y), _SIZE_OUTPUTS)
    return ctx.max(hockey_stick(ctx, p, q, eps), hockey_stick(ctx, q, p, eps))


def _size_addremove_min(ctx: Any, x: Sequence[int], x_add: Sequence[int], eps: Any,
                        **_: Any) -> Any:
    p = _point_mass(ctx, len(x), _SIZE_OUTPUTS)
    q = _point_mass(ctx, len(x_add), _SIZE_OUTPUTS)
    return ctx.min(hockey_stick(ctx, p, q, eps), hockey_stick(ctx, q, p, eps))


def _def_dp_claims() -> tuple[Claim, ...]:
    f = Fraction
    example = Points(({"p": (f(4, 10), f(3, 10), f(2, 10), f(1, 10)),
                       "q": (f(1, 10), f(2, 10), f(3, 10), f(4, 10)), "eps": "0.3"},))
    shape_box = Box(ints={"inst": (0, 10**9), "a": (0, 3000), "b": (0, 3000), "t": (0, 64),
                          "j": (0, 12)})
    return (
        Claim(1, "For finite outputs, sum_y max(P(y) - e^eps Q(y), 0) equals the maximum of "
                 "P(S) - e^eps Q(S) over all 2^|Y| events (example P = (0.4, 0.3, 0.2, 0.1), "
                 "Q = (0.1, 0.2, 0.3, 0.4), eps = 0.3; then random pairs).", (
            Compare(hockey_stick, "eq", hockey_stick_events, example, "oracle", TINY,
                    "sum_y (P - e^eps Q)_+", "max over all events"),
            Compare(hockey_stick, "eq", hockey_stick_events,
                    Generated(_draw_pair_eps, 500, "random pairs on 2..6 points (some zeros), "
                                                   "eps in [-2, 6]"),
                    "oracle", TINY, "sum_y (P - e^eps Q)_+", "max over all events"),
        )),
        Claim(2, "As a function of z = e^eps >= 0, sum_y max(P(y) - z Q(y), 0) is convex, "
                 "piecewise linear and nonincreasing; it equals 1 at z = 0 and 0 for "
                 "z >= max_y P(y)/Q(y).", (
            Predicate(_def_dp_convex, shape_box, "property",
                      "H(t z1 + (1-t) z2) <= t H(z1) + (1-t) H(z2) (exact rationals)"),
            Predicate(_def_dp_linear_pieces, shape_box, "property",
                      "affine between consecutive breakpoints P(y)/Q(y) (exact rationals)"),
            Predicate(_def_dp_nonincreasing, shape_box, "property",
                      "H(z + h) <= H(z) for h >= 0 (exact rationals)"),
            Predicate(_def_dp_ends, shape_box, "property",
                      "H(0) = 1 and H(z) = 0 for z >= max P/Q (exact rationals)"),
        )),
        Claim(3, "Group-of-two step: for random finite chains P0, P1, P2 in which each "
                 "consecutive pair is (eps, delta)-indistinguishable in both orders, "
                 "H_{e^{2eps}}(P0||P2) <= (1 + e^eps) delta.", (
            Compare(_def_dp_group_lhs, "le", _def_dp_group_rhs,
                    Box(ints={"inst": (0, 10**9)}, reals={"eps": ("0", "3")}), "property",
                    lhs_name="H_{e^{2eps}}(P0||P2)",
                    rhs_name="(1 + e^eps) max_steps,orders H_{e^eps}"),
        )),
        Claim(4, "Witness that replace-one DP does not imply add/remove DP: M(x) = |x| has "
                 "profile 0 for replace-one pairs and H_{e^eps} = 1 for every eps on an "
                 "add/remove pair.", (
            Compare(lambda ctx, x, x_rep, eps, **_: _size_profile(ctx, x, x_rep, eps), "eq",
                    lambda ctx, **_: ctx.zero,
                    Generated(_draw_size_datasets_nonneg, 300,
                              "datasets over a 3-letter universe with a replaced record, "
                              "eps in [0, 50]"),
                    "oracle", None, "max(H(M(x)||M(x')), H(M(x')||M(x)))", "0"),
            Compare(_size_addremove_min, "eq", lambda ctx, **_: ctx.one,
                    Generated(_draw_size_datasets, 300,
                              "datasets over a 3-letter universe with an added record, "
                              "eps in [-5, 50]"),
                    "oracle", None, "min over both orders of H_{e^eps}", "1"),
        )),
    )


DEF_DP = Theorem(
    id="DEF-DP",
    title="(eps, delta)-differential privacy, hockey-stick divergence, privacy profile",
    family=FAMILY,
    source=Source("Hartmann, Bindschaedler, West, On the Choice of Databases in Differential "
                  "Privacy Composition",
                  "Def. 1; [DDR] arXiv 1909.13830 Def. 2.1; [S22] arXiv 2210.00597v4 Secs. 2–3",
                  arxiv="2209.13697"),
    types=("DEFINITION",),
    confidence=("HIGH",),
    statement=(
        "M is (eps, delta)-DP iff P[M(x) in S] <= e^eps P[M(x') in S] + delta for all neighbours "
        "x ~ x' and events S; equivalently delta >= max_{x~x'} H_{e^eps}(M(x)||M(x')) with "
        "H_{e^eps}(P||Q) = sup_S P(S) - e^eps Q(S) = sum_y max(P(y) - e^eps Q(y), 0). Privacy "
        "profile delta_M(eps) = sup over both orders of every neighbouring pair. Under "
        "replacement, eps-DP w.r.t. add/remove implies 2eps-DP and (eps, delta) implies "
        "(2eps, (1 + e^eps) delta); the converse fails (M(x) = |x|)."
    ),
    domain="eps real (guarantees for eps >= 0), delta in [0, 1]; one neighbouring relation",
    claims=_def_dp_claims(),
    notes="[GCE] says unbounded DP for add/remove and bounded DP for replace-one. The blog "
          "misstates the definition (BLOG-DEF).",
)


# ==========================================================================================
# BLOG-LAP


def laplace_b(ctx: Any, eps: Any, sensitivity: Any) -> Any:
    """Laplace scale ``b = sensitivity/eps`` ([Blog] "f(x) + Lap(s/eps)"; [DR14] Thm 3.6, no
    arXiv)."""
    return sensitivity / eps


def laplace_density(ctx: Any, y: Any, mean: Any, b: Any) -> Any:
    """Density of ``Lap(mean, b)``: ``exp(-|y - mean|/b)/(2b)``."""
    return ctx.exp(-ctx.abs(y - mean) / b) / (2 * b)


def laplace_llr(ctx: Any, y: Any, b: Any, sensitivity: Any, **_: Any) -> Any:
    """Pointwise ``ln(p(y)/q(y))`` of ``Lap(0, b)`` vs ``Lap(s, b)``, from the densities."""
    return ctx.log(laplace_density(ctx, y, ctx.zero, b)
                   / laplace_density(ctx, y, sensitivity, b))


def _blog_lap_claims() -> tuple[Claim, ...]:
    f = Fraction
    at_eps = grid(eps=["0.01", "0.5", "1", "3", "10"], sensitivity=["1", "0.25", "4"])
    below = grid(eps=["0.01", "1", "10"], sensitivity=["1", "4"],
                 h=["1e-12", "1e-6", "0.01", "0.5", "1", "2", "5"])
    llr_pts = []
    for b, s in ((f(1), f(1)), (f(1, 2), f(2)), (f(3), f(7, 10))):
        for y in (f(-10), f(-1), f(0)):
            llr_pts.append({"b": b, "sensitivity": s, "y": y, "side": 1})
        for y in (s, s + 1, s + 10):
            llr_pts.append({"b": b, "sensitivity": s, "y": y, "side": -1})
    inner_pts = [{"b": b, "sensitivity": s, "y": s * u}
                 for b, s in ((f(1), f(1)), (f(1, 2), f(2)), (f(3), f(7, 10)))
                 for u in (f(1, 1000), f(1, 4), f(1, 2), f(3, 4), f(999, 1000))]

    def delta_at_b(ctx: Any, eps: Any, sensitivity: Any, **_: Any) -> Any:
        return laplace_delta(ctx, laplace_b(ctx, eps, sensitivity), eps, sensitivity)

    def delta_below(ctx: Any, eps: Any, sensitivity: Any, h: Any, **_: Any) -> Any:
        return laplace_delta(ctx, laplace_b(ctx, eps, sensitivity), eps * (1 - h), sensitivity)

    return (
        Claim(1, "With b = sensitivity/eps: STK-LAPLACE.delta(b, eps, sensitivity) = 0 and "
                 "STK-LAPLACE.delta(b, eps', sensitivity) > 0 for every eps' < eps.", (
            Compare(delta_at_b, "eq", lambda ctx, **_: ctx.zero, at_eps, "numeric",
                    Tol.abs("1e-40"), "delta(s/eps, eps)", "0"),
            Compare(delta_below, "gt", lambda ctx, **_: ctx.zero, below, "numeric",
                    lhs_name="delta(s/eps, eps (1 - h)), h > 0", rhs_name="0"),
        )),
        Claim(2, "The pointwise log-likelihood ratio ln(p(y)/q(y)) of Lap(0, b) vs Lap(s, b) "
                 "ranges exactly over [-s/b, s/b], both ends attained on sets of positive "
                 "probability.", (
            Compare(laplace_llr, "eq",
                    lambda ctx, b, sensitivity, side, **_: side * sensitivity / b,
                    Points(tuple(llr_pts)), "numeric", TINY,
                    "ln p(y)/q(y) at y <= 0 and y >= s", "+s/b resp. -s/b"),
            Compare(lambda ctx, **p: ctx.abs(laplace_llr(ctx, **p)), "lt",
                    lambda ctx, b, sensitivity, **_: sensitivity / b,
                    Points(tuple(inner_pts)), "numeric",
                    lhs_name="|ln p(y)/q(y)| for 0 < y < s", rhs_name="s/b"),
            Compare(lambda ctx, b, sensitivity, **_: ctx.min(
                        ctx.num(Fraction(1, 2)),  # P[Y <= 0] under Lap(0, b)
                        ctx.exp(-sensitivity / b) / 2),  # P[Y >= s] under Lap(0, b)
                    "gt", lambda ctx, **_: ctx.zero,
                    grid(b=["0.01", "1", "3"], sensitivity=["1", "20"]), "numeric",
                    lhs_name="min(P[Y <= 0], P[Y >= s]) under Lap(0, b)", rhs_name="0"),
        )),
    )


BLOG_LAP = Theorem(
    id="BLOG-LAP",
    title="Laplace mechanism",
    family=FAMILY,
    source=Source(_BLOG, "'f(x) + Lap(s/eps)'; standard (DMNS06; [DR14] Thm 3.6); exact "
                         "profile STK-LAPLACE"),
    types=("TIGHT",),
    confidence=("HIGH",),
    statement=(
        "M(x) = f(x) + Lap(s/eps) (independent noise per coordinate), s the L1 sensitivity of "
        "f, is eps-DP; tight: with eps0 = s/b = eps the exact profile is 0 at eps and positive "
        "below eps."
    ),
    domain="eps > 0, s > 0",
    evaluators=(
        Evaluator("b", (EPS_POS, SENSITIVITY), laplace_b, "Laplace scale sensitivity/eps"),
    ),
    claims=_blog_lap_claims(),
    notes="The blog's statement is correct. Multi-dimensional f uses the L1 norm for s. The "
          "exact profile is STK-LAPLACE.delta (theorems.mechanisms.laplace_delta); claim 2 "
          "reads the log-likelihood ratio off the two densities.",
)


# ==========================================================================================
# DR-CLASSIC-GAUSS


def classic_sigma(ctx: Any, eps: Any, delta: Any) -> Any:
    """Classic noise multiplier ``sigma = sqrt(2 ln(1.25/delta))/eps`` ([DR14] Thm A.1, no
    arXiv; stated there for eps in (0, 1) only; the boundary case ``c^2 = 2 ln(1.25/delta)``)."""
    return ctx.sqrt(2 * ctx.log(ctx.num(Fraction(5, 4)) / delta)) / eps


def classic_true_delta(ctx: Any, eps: Any, delta: Any) -> Any:
    """Exact delta at eps of the classic sigma: ``BW-ANALYTIC-GAUSS.delta(sigma(eps, delta),
    eps)`` ([BW18] arXiv 1805.06530v2, Thm 8)."""
    return gauss_delta(ctx, classic_sigma(ctx, eps, delta), eps)


def classic_eps_star(ctx: Any, delta: Any) -> Any:
    """The root ``eps* > 1`` of ``true_delta(eps, delta) = delta`` (catalogue DR-CLASSIC-GAUSS,
    [DERIVED] from [DR14] Thm A.1 and [BW18] arXiv 1805.06530v2 Thm 8).

    Bracketed by doubling from eps = 2 (2, 4, 8, ...), then bisected with this context's
    comparisons (a certified enclosure in arb). ``true_delta/delta`` is increasing in eps
    (claims 1, 3 and 5 check the sign pattern around the root).
    """
    before = ctx.le(delta, classic_true_delta(ctx, ctx.num(2), delta))
    if before is None:
        raise PrecisionExhausted("cannot decide the sign of true_delta - delta at eps = 2")
    if before:
        raise InvalidParameter("true_delta(2, delta) >= delta: the root is not above 2")
    return ctx.solve(lambda e: classic_true_delta(ctx, e, delta), delta, lo=2, hi=4,
                     decreasing=False)


GAUSS_TABLE = (  # delta, eps*, sigma(eps*) as printed in the catalogue (4 decimals)
    ("1e-10", "9.8499", "0.6923"),
    ("1e-6", "8.7821", "0.6034"),
    ("1e-5", "8.4198", "0.5754"),
    ("1e-3", "7.4635", "0.5060"),
    ("0.1", "5.7426", "0.3914"),
    ("0.5", "4.4654", "0.3032"),
    ("0.9", "3.7871", "0.2140"),
)
_GRID_DELTAS = ("1e-15", "1e-10", "1e-6", "1e-5", "1e-3", "1e-2", "0.1", "0.5", "0.9")


def _classic_max_ratio(ctx: Any, **_: Any) -> Any:
    """``max true_delta/delta`` over the grid of claim 1 (eps = i/40, the 9 deltas)."""
    ratios = []
    for d in _GRID_DELTAS:
        delta = ctx.num(parse_number(d))
        for i in range(1, 41):
            ratios.append(classic_true_delta(ctx, ctx.num(Fraction(i, 40)), delta) / delta)
    return ctx.max(*ratios)


def _classic_sound_below_star(ctx: Any, delta: Any, **_: Any) -> bool | None:
    """``true_delta <= delta`` on the 401-point grid of ``[1, 0.999 eps*(delta)]``."""
    top = classic_eps_star(ctx, delta) * ctx.num(Fraction(999, 1000))
    undecided = False
    for i in range(401):
        e = ctx.one + (top - 1) * i / 400
        c = ctx.le(classic_true_delta(ctx, e, delta), delta)
        if c is False:
            return False
        undecided |= c is None
    return None if undecided else True


def _dr_classic_claims() -> tuple[Claim, ...]:
    table = Points(tuple({"delta": d, "table_eps": e, "table_sigma": s}
                         for d, e, s in GAUSS_TABLE))
    deltas = Points(tuple({"delta": d} for d, _, _ in GAUSS_TABLE))
    cex = Points(({"eps": "10", "delta": "1e-5"},))

    def true_delta(ctx: Any, eps: Any, delta: Any, **_: Any) -> Any:
        return classic_true_delta(ctx, eps, delta)

    def target(ctx: Any, delta: Any, **_: Any) -> Any:
        return delta

    return (
        Claim(1, "Sound for eps in (0, 1]: true_delta(eps, delta) <= delta on the grid eps in "
                 "{1/40, ..., 40/40} x delta in {1e-15, 1e-10, 1e-6, 1e-5, 1e-3, 1e-2, 0.1, 0.5, "
                 "0.9}; the largest ratio true/target observed is 0.238.", (
            Compare(true_delta, "le", target,
                    grid(eps=[f"{i}/40" for i in range(1, 41)], delta=list(_GRID_DELTAS)),
                    "numeric", lhs_name="true_delta(eps, delta)", rhs_name="delta"),
            Compare(_classic_max_ratio, "eq", lambda ctx, **_: ctx.num(Fraction(238, 1000)),
                    Points(({},)), "numeric", Tol.abs("5e-4"),
                    "max over the grid of true_delta/delta", "0.238"),
        )),
        Claim(2, "The same inequality over the box eps in [0.01, 1], log10(delta) in "
                 "[-15, log10(0.9)].", (
            Compare(true_delta, "le", target,
                    Box(reals={"eps": ("0.01", "1"), "delta": ("1e-15", "0.9")},
                        log_scale=frozenset({"delta"})),
                    "interval", lhs_name="true_delta(eps, delta)", rhs_name="delta"),
        )),
        Claim(3, "No earlier failure: true_delta(eps, delta) <= delta on a 401-point grid of "
                 "[1, 0.999 eps*(delta)] for each delta of the table.", (
            Predicate(_classic_sound_below_star, deltas, "numeric",
                      "true_delta(eps, delta) <= delta at eps = 1 + i (0.999 eps* - 1)/400, "
                      "i = 0..400"),
        )),
        Claim(4, "eps_star(delta) reproduces the table (eps* and sigma(eps*, delta) to the 4 "
                 "decimals shown).", (
            Compare(lambda ctx, delta, **_: classic_eps_star(ctx, delta), "eq",
                    lambda ctx, table_eps, **_: table_eps, table, "numeric", Tol.abs("5e-5"),
                    "eps_star(delta)", "table eps*"),
            Compare(lambda ctx, delta, **_: classic_sigma(ctx, classic_eps_star(ctx, delta),
                                                          delta),
                    "eq", lambda ctx, table_sigma, **_: table_sigma, table, "numeric",
                    Tol.abs("5e-5"), "sigma(eps*, delta)", "table sigma(eps*)"),
        )),
        Claim(5, "Failure above the threshold: true_delta(1.1 eps*, delta) > delta for each "
                 "delta of the table.", (
            Compare(lambda ctx, delta, **_: classic_true_delta(
                        ctx, classic_eps_star(ctx, delta) * ctx.num(Fraction(11, 10)), delta),
                    "gt", target, deltas, "numeric",
                    lhs_name="true_delta(1.1 eps*, delta)", rhs_name="delta"),
        )),
        Claim(6, "Counterexample: eps = 10, delta = 1e-5 gives sigma = 0.48448053 and true "
                 "delta 2.265e-5 > 1e-5.", (
            Compare(lambda ctx, eps, delta, **_: classic_sigma(ctx, eps, delta), "eq",
                    lambda ctx, **_: ctx.num(Fraction("0.48448053")), cex, "numeric",
                    Tol.abs("5e-9"), "sigma(10, 1e-5)", "0.48448053"),
            Compare(true_delta, "eq", lambda ctx, **_: ctx.num(Fraction("2.265e-5")), cex,
                    "numeric", Tol.abs("5e-9"), "true_delta(10, 1e-5)", "2.265e-5"),
            Compare(true_delta, "gt", target, cex, "numeric",
                    lhs_name="true_delta(10, 1e-5)", rhs_name="1e-5"),
            Compare(true_delta, "eq",
                    lambda ctx, eps, delta, **_: gauss_delta_output_quad(
                        ctx, classic_sigma(ctx, eps, delta), eps),
                    cex, "numeric", TINY, "true_delta (closed form)",
                    "output-space quadrature", ctx="mp"),
        )),
        Claim(7, "Erratum of the blog (alias BLOG-GAUSS): the calibration sigma = "
                 "sqrt(2 ln(1.25/delta))/eps gives (eps, delta)-DP for every eps > 0 (the blog "
                 "omits eps < 1). Refuted above eps*(delta).", (
            Compare(true_delta, "le", target,
                    Box(reals={"eps": ("0.01", "30"), "delta": ("1e-15", "0.9")},
                        log_scale=frozenset({"delta"})),
                    "property", lhs_name="true_delta(eps, delta)", rhs_name="delta"),
            Compare(true_delta, "le", target, cex, "numeric",
                    lhs_name="true_delta(10, 1e-5)", rhs_name="1e-5"),
        ), expected="refuted"),
    )


DR_CLASSIC_GAUSS = Theorem(
    id="DR-CLASSIC-GAUSS",
    title="Classic Gaussian calibration and its unsoundness above eps*(delta)",
    family=FAMILY,
    source=Source("Dwork & Roth, The Algorithmic Foundations of Differential Privacy (2014)",
                  "Thm A.1 (eps in (0, 1)); restated by [Blog] without eps < 1; exact curve "
                  "[BW18] arXiv 1805.06530v2 Thm 8"),
    types=("BOUND",),
    confidence=("HIGH", "DERIVED"),
    statement=(
        "For eps in (0, 1) and c^2 > 2 ln(1.25/delta), sigma >= c Delta_2/eps gives "
        "(eps, delta)-DP (boundary case sigma^2 = 2 Delta^2 ln(1.25/delta)/eps^2). The eps < 1 "
        "restriction is part of the theorem: with this sigma the exact delta exceeds the "
        "target once eps > eps*(delta) (e.g. eps* = 8.4198 for delta = 1e-5)."
    ),
    domain="the theorem: eps in (0, 1), delta in (0, 1), Delta > 0; the evaluators accept "
           "eps > 0 to explore the unsound region",
    evaluators=(
        Evaluator("sigma", (EPS_POS, DELTA), classic_sigma,
                  "sqrt(2 ln(1.25/delta))/eps, the boundary-case noise multiplier"),
        Evaluator("true_delta", (EPS_POS, DELTA), classic_true_delta,
                  "BW-ANALYTIC-GAUSS.delta(sigma(eps, delta), eps), the exact delta at eps"),
        Evaluator("eps_star", (DELTA,), classic_eps_star,
                  "the root eps* > 1 of true_delta(eps, delta) = delta"),
    ),
    claims=_dr_classic_claims(),
    aliases=("BLOG-GAUSS",),
    notes="The [HIGH] tag is for the theorem; eps*(delta) is a numerical characterization "
          "[DERIVED]. Claim 7 encodes the blog's restatement without eps < 1 (refuted).",
)


# ==========================================================================================
# BLOG-EXP


def exp_mech(ctx: Any, eps: Any, utility: Sequence[Any], sensitivity: Any = 1) -> tuple[Any, ...]:
    """Exponential mechanism ``P[y] ∝ exp(eps u(y)/(2 Delta_u))`` (McSherry–Talwar 2007, no
    arXiv; [DDR] arXiv 1909.13830 Def. 2.3), normalised in log space."""
    logits = [eps * u / (2 * sensitivity) for u in utility]
    top = ctx.max(*logits)
    weights = [ctx.exp(v - top) for v in logits]
    total = ctx.fsum(weights)
    return tuple(w / total for w in weights)


def _draw_utilities(rng: random.Random) -> dict[str, Any]:
    n = rng.randint(2, 6)
    u = tuple(Fraction(rng.randint(0, 300), 100) for _ in range(n))
    d = [Fraction(rng.randint(-100, 100), 100) for _ in range(n)]
    d[rng.randrange(n)] = Fraction(rng.choice((-1, 1)))  # Delta_u = 1 exactly
    u2 = tuple(a + b for a, b in zip(u, d, strict=True))
    return {"u": u, "u2": u2, "eps": Fraction(rng.randint(1, 300), 100)}


BLOG_EXP = Theorem(
    id="BLOG-EXP",
    title="Exponential mechanism",
    family=FAMILY,
    source=Source("McSherry & Talwar, Mechanism Design via Differential Privacy (FOCS 2007)",
                  "exponential mechanism; [Blog] (mentioned); [DDR] arXiv 1909.13830 Def. 2.3"),
    types=("DEFINITION",),
    confidence=("HIGH",),
    statement=(
        "P[M(x) = y] ∝ exp(eps u(x,y)/(2 Delta_u)), Delta_u = max_y max_{x~x'} "
        "|u(x,y) - u(x',y)|, is eps-DP; the factor 2 accounts for the normaliser."
    ),
    domain="finite output set; eps > 0; Delta_u > 0",
    claims=(
        Claim(1, "For random utilities with Delta_u = 1, the largest pointwise "
                 "|ln(P[M(x)=y]/P[M(x')=y])| over neighbours and outputs is at most eps.", (
            Compare(lambda ctx, u, u2, eps, **_: max_log_ratio(
                        ctx, exp_mech(ctx, eps, u), exp_mech(ctx, eps, u2)),
                    "le", lambda ctx, eps, **_: eps,
                    Generated(_draw_utilities, 500,
                              "random utility pairs with Delta_u = 1 on 2..6 outputs, eps in "
                              "(0, 3]"),
                    "oracle", lhs_name="max_y |ln P(y)/P'(y)|", rhs_name="eps"),
        )),
    ),
    notes="The BR claim is in DDR-T1; the range-based variant is DDR-P2.",
)


# ==========================================================================================
# SMITH-ADAPT-COMP


def adaptive_rr_transcripts(ctx: Any, eps_list: Sequence[Any], frac: Sequence[Any],
                            flip: Sequence[int], bit: int) -> tuple[Any, ...]:
    """Probabilities of all ``2^k`` transcripts of an adaptive RR strategy tree on input ``bit``.

    At step i with history h (node ``2^i - 1 + h`` in binary), the strategy runs RR with
    parameter ``eps_list[i] * frac[node]`` (never above the budget) on ``bit XOR flip[node]``.
    The transcript probability is the product of the step probabilities ([SmithLN] Lemma 1.1's
    factorisation, no arXiv).
    """
    k = len(eps_list)
    out = []
    for t in itertools.product((0, 1), repeat=k):
        prob = ctx.one
        for i in range(k):
            node = (1 << i) - 1 + int("".join(map(str, t[:i])) or "0", 2)
            z = ctx.exp(eps_list[i] * frac[node])
            truth = bit ^ flip[node]
            prob = prob * (z if t[i] == truth else ctx.one) / (1 + z)
        out.append(prob)
    return tuple(out)


def _draw_strategy_tree(rng: random.Random) -> dict[str, Any]:
    k = rng.randint(1, 6)
    nodes = 2**k - 1
    return {
        "eps_list": tuple(Fraction(rng.randint(1, 15), 10) for _ in range(k)),
        "frac": tuple(Fraction(rng.randint(0, 999), 1000) for _ in range(nodes)),
        "flip": tuple(rng.randint(0, 1) for _ in range(nodes)),
    }


SMITH_ADAPT_COMP = Theorem(
    id="SMITH-ADAPT-COMP",
    title="Adaptive sequential composition of pure DP",
    family=FAMILY,
    source=Source(_SMITH, "Lemma 1.1, Lemma 1.2; [Blog] sequential composition eps1 + eps2"),
    types=("TIGHT",),
    confidence=("HIGH",),
    statement=(
        "If A_1 is eps_1-DP and A_i(a_1..a_{i-1}, .) is eps_i-DP for every prefix, the adaptive "
        "composition (a_1, ..., a_k) is (sum eps_i)-DP (factorise P[A(x) = a] and bound each "
        "factor). Tight (STK-BASIC-OPT)."
    ),
    domain="eps_i >= 0; the same neighbouring relation at every step",
    claims=(
        Claim(1, "For an explicit adaptive strategy tree of randomized-response steps whose "
                 "parameter at step i depends on the history but never exceeds the budget "
                 "eps_i, the largest pointwise |log-ratio| of the full transcript is at most "
                 "sum eps_i (all transcripts enumerated, k <= 6).", (
            Compare(lambda ctx, eps_list, frac, flip, **_: max_log_ratio(
                        ctx, adaptive_rr_transcripts(ctx, eps_list, frac, flip, 0),
                        adaptive_rr_transcripts(ctx, eps_list, frac, flip, 1)),
                    "le", lambda ctx, eps_list, **_: ctx.fsum(eps_list),
                    Generated(_draw_strategy_tree, 300,
                              "adaptive RR strategy trees, k in 1..6, eps_i in {0.1..1.5}, "
                              "step parameter eps_i * f(history), f in [0, 1)"),
                    "oracle", lhs_name="max over transcripts |ln P(t)/Q(t)|",
                    rhs_name="sum eps_i"),
        )),
    ),
    aliases=("BLOG-SEQ",),
    notes="The approximate-DP version and evaluators are in BASIC; tightness: STK-BASIC-OPT.",
)


# ==========================================================================================
# PAR


def par_eps(ctx: Any, eps_list: Sequence[Any], neighboring: str) -> Any:
    """Parallel composition ([McS] SIGMOD 2009, no arXiv; [GCE] arXiv 2209.13697 Def. 5, Thm 2
    with heterogeneous eps_i): ``max_i eps_i`` under add/remove; ``2 max_i eps_i`` under
    replace-one (a changed record can move between chunks; catalogue [DERIVED] form)."""
    top = ctx.max(*eps_list)
    return top if neighboring == "add_remove" else 2 * top


def clamped_geometric(ctx: Any, eps: Any, s: int, lo: int, hi: int) -> tuple[Any, ...]:
    """Output law on ``{lo..hi}`` of ``clamp(s + Z)``, Z two-sided geometric with
    ``P[Z = z] ∝ e^{-eps |z|}`` (discrete Laplace, sensitivity 1): ``c a^{|o - s|}`` inside,
    ``a^{s - lo}/(1 + a)`` and ``a^{hi - s}/(1 + a)`` at the ends, ``a = e^-eps``,
    ``c = (1 - a)/(1 + a)``; requires ``lo <= s <= hi``."""
    a = ctx.exp(-eps)
    c = (1 - a) / (1 + a)
    out = []
    for o in range(lo, hi + 1):
        if o == lo:
            out.append(ctx.pow(a, s - lo) / (1 + a))
        elif o == hi:
            out.append(ctx.pow(a, hi - s) / (1 + a))
        else:
            out.append(c * ctx.pow(a, abs(o - s)))
    return tuple(out)


def _joint_pure_eps(ctx: Any, eps_list: Sequence[Any], ranges: Sequence[tuple[int, int]],
                    pairs: set[tuple[tuple[int, ...], tuple[int, ...]]]) -> Any:
    """Exact pure eps of the joint release ``(M_1(S_1), ..., M_k(S_k))`` over the given pairs of
    chunk-sum vectors: ``ln max |P(o)/Q(o)|`` over all joint outputs, by enumeration."""
    cache: dict[tuple[int, int], tuple[Any, ...]] = {}

    def law(i: int, s: int) -> tuple[Any, ...]:
        if (i, s) not in cache:
            cache[(i, s)] = clamped_geometric(ctx, eps_list[i], s, *ranges[i])
        return cache[(i, s)]

    extremes = []
    for s1, s2 in sorted(pairs):
        # P(o)/Q(o) of the product laws is the product of the per-chunk ratios
        per_chunk = [[a / b for a, b in zip(law(i, u), law(i, v), strict=True)]
                     for i, (u, v) in enumerate(zip(s1, s2, strict=True))]
        joint = [_product(ctx, rs) for rs in itertools.product(*per_chunk)]
        extremes += [ctx.max(*joint), 1 / ctx.min(*joint)]
    return ctx.log(ctx.max(ctx.one, *extremes))


def _product(ctx: Any, xs: Sequence[Any]) -> Any:
    out = xs[0]
    for x in xs[1:]:
        out = out * x
    return out


def _draw_count_partition(rng: random.Random) -> dict[str, Any]:
    k = rng.randint(2, 3)
    return {"eps_list": tuple(Fraction(rng.randint(1, 20), 10) for _ in range(k)),
            "sizes": tuple(rng.randint(1, 2) for _ in range(k))}


def _par_counts_addremove(ctx: Any, eps_list: Sequence[Any], sizes: Sequence[int],
                          **_: Any) -> Any:
    """Universe: ``sizes[i]`` record types in chunk i (a data-independent partition); datasets
    are sets of records; chunk i releases its count by a clamped geometric on [0, sizes[i]];
    all add/remove neighbours (toggle one record) are enumerated."""
    universe = [i for i, m in enumerate(sizes) for _ in range(m)]
    pairs = set()
    for x in itertools.product((0, 1), repeat=len(universe)):
        for r in range(len(universe)):
            y = list(x)
            y[r] ^= 1
            s1 = tuple(sum(v for v, c in zip(x, universe, strict=True) if c == i)
                       for i in range(len(sizes)))
            s2 = tuple(sum(v for v, c in zip(y, universe, strict=True) if c == i)
                       for i in range(len(sizes)))
            pairs.add((s1, s2))
    return _joint_pure_eps(ctx, eps_list, [(0, m) for m in sizes], pairs)


def _draw_signed_partition(rng: random.Random) -> dict[str, Any]:
    k = rng.randint(2, 3)
    i, j = rng.sample(range(k), 2)
    background = () if rng.random() < 0.5 else ((rng.randrange(k), rng.choice((-1, 1))),)
    return {"eps_list": tuple(Fraction(rng.randint(1, 20), 10) for _ in range(k)),
            "i": i, "j": j, "background": background}


def _signed_pairs(k: int, kind: str, i: int, j: int,
                  background: Sequence[tuple[int, int]]
                  ) -> set[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Chunk-sum pairs of neighbouring datasets ``B + {e}`` vs ``B + {e'}`` (replace-one) or
    ``B + {e}`` vs ``B`` (add/remove), for a background B of at most one record. Records are
    ``(chunk, value)`` with value in {-1, +1}; chunk i releases the sum of its values."""
    universe = [(c, v) for c in range(k) for v in (1, -1)]

    def sums(records: Sequence[tuple[int, int]]) -> tuple[int, ...]:
        return tuple(sum(v for c, v in records if c == ch) for ch in range(k))

    pairs = set()
    for b in [tuple(tuple(r) for r in background)]:
        for e in universe:
            if kind == "add_remove":
                pairs.add((sums([*b, e]), sums(b)))
                continue
            for e2 in universe:
                if e2 == e:
                    continue
                if kind == "move" and not (e[0] == i and e2[0] == j):
                    continue
                if kind == "inside" and not (e[0] == i and e2[0] == i):
                    continue
                pairs.add((sums([*b, e]), sums([*b, e2])))
    return pairs


_SIGNED_RANGE = (-2, 2)  # sums of at most two records in {-1, +1}


def _par_signed(kind: str) -> Callable[..., Any]:
    def term(ctx: Any, eps_list: Sequence[Any], i: int, j: int,
             background: Sequence[tuple[int, int]], **_: Any) -> Any:
        k = len(eps_list)
        return _joint_pure_eps(ctx, eps_list, [_SIGNED_RANGE] * k,
                               _signed_pairs(k, kind, i, j, background))

    return term


def gce_homogeneous_rr_delta(ctx: Any, eps0: Any, k: int, eps: Any) -> Any:
    """Exact profile of the k-fold composition of eps0-DP (k-fold RR(eps0)): ``sum_i C(k,i)
    (e^{(k-i) eps0} - e^{eps + i eps0})_+ / (1 + e^eps0)^k`` ([KOV] arXiv 1311.0776 Thm 3.3;
    [MV] arXiv 1507.03113 Thm 1.4, pure case)."""
    terms = (ctx.binomial(k, i) * ctx.pos(ctx.exp((k - i) * eps0) - ctx.exp(eps + i * eps0))
             for i in range(k + 1))
    return ctx.fsum(terms) / ctx.pow(1 + ctx.exp(eps0), k)


def gce_homogeneous_rr_eps(ctx: Any, eps0: Any, k: int, delta: Any) -> Any:
    """Least eps >= 0 with ``gce_homogeneous_rr_delta(eps0, k, eps) <= delta``, in closed form.

    With ``p = e^eps0/(1 + e^eps0)``, ``q = 1 - p``, ``A_i = C(k,i) p^{k-i} q^i`` and
    ``B_i = C(k,i) p^i q^{k-i}``, the profile is ``sum_i (A_i - e^eps B_i)_+``. The terms change
    sign once (positive for small i), so it is the maximum over prefixes j of ``PA_j - e^eps
    PB_j`` (prefix sums). Hence ``delta(eps) <= delta`` iff ``e^eps >= (PA_j - delta)/PB_j``
    for every j, and the least such eps is ``max(0, max_j ln((PA_j - delta)/PB_j))`` over the j
    with ``PA_j > delta`` ([KOV] arXiv 1311.0776 Thm 3.3, inverted; [DERIVED]).
    """
    z0 = ctx.exp(eps0)
    p, q = z0 / (1 + z0), 1 / (1 + z0)
    pa, pb = ctx.zero, ctx.zero
    best = ctx.zero
    for i in range(k + 1):
        c = ctx.binomial(k, i)
        pa = pa + c * ctx.pow(p, k - i) * ctx.pow(q, i)
        pb = pb + c * ctx.pow(p, i) * ctx.pow(q, k - i)
        above = ctx.lt(delta, pa)
        if above is None:
            raise PrecisionExhausted("cannot decide PA_j > delta")
        if above:
            best = ctx.max(best, ctx.log((pa - delta) / pb))
    return best


def gce_multi_database_eps(ctx: Any, eps0: Any, m: int, delta: Any, neighboring: str,
                           **_: Any) -> Any:
    """GCE guarantee when each individual is in at most m of the databases ([GCE] arXiv
    2209.13697 Sec. V-A1, catalogue GCE-PARCMP): the optimal composition of the worst
    ``s = m`` (add/remove) or ``2m`` (replace-one) eps0-DP mechanisms, inverted at delta."""
    s = m if neighboring == "add_remove" else 2 * m
    return gce_homogeneous_rr_eps(ctx, eps0, s, delta)


def par_multi_database_eps(ctx: Any, eps0: Any, m: int, neighboring: str, **_: Any) -> Any:
    """Parallel composition in the multi-database example ([GCE] Sec. V-A1): merged databases
    differ in up to m (add/remove) or 2m (replace-one) records, so Def. 5 gives ``s eps0``."""
    s = m if neighboring == "add_remove" else 2 * m
    return s * eps0


def _par_claims() -> tuple[Claim, ...]:
    hospital = Points((
        {"eps0": "0.01", "m": 365, "delta": "1e-6", "neighboring": "add_remove",
         "printed": "0.790"},
        {"eps0": "0.01", "m": 365, "delta": "1e-6", "neighboring": "replace_one",
         "printed": "1.151"},
    ))
    signed = Generated(_draw_signed_partition, 200,
                       "2..3 chunks, eps_i in {0.1..2}, records (chunk, +-1), chunk sums "
                       "released by clamped geometric noise, a random background of <= 1 "
                       "record")
    return (
        Claim(1, "For a data-independent partition with an eps_i-DP count release per chunk, "
                 "the exact pure eps of the joint release under add/remove equals "
                 "max_i eps_i.", (
            Compare(_par_counts_addremove, "eq",
                    lambda ctx, eps_list, **_: par_eps(ctx, eps_list, "add_remove"),
                    Generated(_draw_count_partition, 300,
                              "2..3 chunks of 1..2 record types, eps_i in {0.1..2}, counts "
                              "released by clamped geometric (discrete Laplace) noise"),
                    "oracle", Tol.abs("1e-25"), "exact joint eps (all add/remove pairs)",
                    "PAR.eps(eps_list, add_remove)"),
        )),
        Claim(2, "Under replace-one, a record that moves from chunk i to chunk j gives exact "
                 "eps eps_i + eps_j, and a replacement inside chunk i gives 2 eps_i when M_i is "
                 "only known to be eps_i-DP under add/remove; hence 2 max_i eps_i is the worst "
                 "case.", (
            Compare(_par_signed("add_remove"), "eq",
                    lambda ctx, eps_list, **_: par_eps(ctx, eps_list, "add_remove"), signed,
                    "oracle", Tol.abs("1e-25"),
                    "exact joint eps under add/remove (each M_i is eps_i-DP)",
                    "max_i eps_i"),
            Compare(_par_signed("move"), "eq",
                    lambda ctx, eps_list, i, j, **_: eps_list[i] + eps_list[j], signed,
                    "oracle", Tol.abs("1e-25"), "exact eps, record moved from chunk i to j",
                    "eps_i + eps_j"),
            Compare(_par_signed("inside"), "eq",
                    lambda ctx, eps_list, i, **_: 2 * eps_list[i], signed, "oracle",
                    Tol.abs("1e-25"), "exact eps, replacement inside chunk i", "2 eps_i"),
            Compare(_par_signed("replace_one"), "eq",
                    lambda ctx, eps_list, **_: par_eps(ctx, eps_list, "replace_one"), signed,
                    "oracle", Tol.abs("1e-25"), "exact eps over all replace-one pairs",
                    "PAR.eps(eps_list, replace_one)"),
        )),
        Claim(3, "In the multi-database example, composing the worst m mechanisms (GCE) beats "
                 "parallel composition; see GCE-PARCMP.", (
            Compare(gce_multi_database_eps, "lt", par_multi_database_eps, hospital, "numeric",
                    lhs_name="GCE eps (optimal composition of the worst m or 2m)",
                    rhs_name="parallel composition s eps0"),
            Compare(gce_multi_database_eps, "eq", lambda ctx, printed, **_: printed, hospital,
                    "numeric", Tol.abs("5e-4"), "GCE eps",
                    "GCE-PARCMP printed value (0.790 / 1.151)"),
        )),
    )


PAR = Theorem(
    id="PAR",
    title="Parallel composition",
    family=FAMILY,
    source=Source("McSherry, Privacy Integrated Queries (SIGMOD 2009)",
                  "parallel composition; [GCE] arXiv 2209.13697 Def. 5, Thm 2, Sec. V-A1; [Blog]"),
    types=("BOUND",),
    confidence=("HIGH",),
    statement=(
        "Def. 5 (McSherry DP): P[M(A) in S] <= exp(eps |A (+) B|) P[M(B) in S]. Thm 2: if each "
        "M_i is eps-DP and D_1..D_k are disjoint, (M_1(A cap D_1), ..., M_k(A cap D_k)) is "
        "eps-DP; heterogeneous: max_i eps_i. The partition must be data-independent; under "
        "replacement a changed record can move between chunks (2 eps). Pure DP only."
    ),
    domain="eps_i >= 0; a data-independent partition into disjoint chunks",
    evaluators=(
        Evaluator("eps", (EPS_LIST, NEIGHBORING), par_eps,
                  "max_i eps_i for add_remove; 2 max_i eps_i for replace_one"),
    ),
    claims=_par_claims(),
    aliases=("BLOG-PAR",),
    notes="The replace_one branch is the heterogeneous form of the homogeneous 2eps caveat "
          "[DERIVED]. Counts are released with clamped geometric (discrete Laplace) noise so "
          "that the joint output space is finite.",
)


# ==========================================================================================
# SMITH-POST

_POST_EPS_GRID = tuple(Fraction(x) for x in ("0", "0.125", "0.25", "0.5", "1", "2", "4"))
_POST_Z_GRID = tuple(Fraction(x) for x in ("1/8", "1/3", "1/2", "3/4", "1", "5/4", "2", "7",
                                           "50"))


def _draw_post(rng: random.Random) -> dict[str, Any]:
    p, q = random_pair(rng, allow_zero=rng.random() < 0.3)
    n_out = rng.randint(1, 6)
    kernel = tuple(random_distribution(rng, n_out, allow_zero=True) for _ in p)
    return {"p": p, "q": q, "kernel": kernel}


def _post_hs_grid(ctx: Any, p: Any, q: Any, kernel: Any, **_: Any) -> bool | None:
    """``H_{e^eps}(BP||BQ) <= H_{e^eps}(P||Q)`` at every eps of the grid (ball arithmetic)."""
    bp, bq = push_forward(p, kernel), push_forward(q, kernel)
    verdicts = [ctx.le(hockey_stick(ctx, bp, bq, e), hockey_stick(ctx, p, q, e))
                for e in (ctx.num(x) for x in _POST_EPS_GRID)]
    if False in verdicts:
        return False
    return None if None in verdicts else True


def _int_weights(rng: random.Random, n: int, positive: bool) -> tuple[int, ...]:
    w = [rng.randint(1 if positive else 0, 997) for _ in range(n)]
    if sum(w) == 0:
        w[0] = 1
    return tuple(w)


def _draw_post_exact(rng: random.Random) -> dict[str, Any]:
    """Distributions as integer weights (kept exact through the context)."""
    n_in, n_out = rng.randint(2, 6), rng.randint(1, 6)
    zeros = rng.random() < 0.3
    return {"pw": _int_weights(rng, n_in, not zeros), "qw": _int_weights(rng, n_in, not zeros),
            "kw": tuple(_int_weights(rng, n_out, False) for _ in range(n_in))}


def _draw_post_positive(rng: random.Random) -> dict[str, Any]:
    n_in, n_out = rng.randint(2, 6), rng.randint(1, 6)
    return {"pw": _int_weights(rng, n_in, True), "qw": _int_weights(rng, n_in, True),
            "kw": tuple(_int_weights(rng, n_out, True) for _ in range(n_in))}


def _normalise(w: Sequence[int]) -> tuple[Fraction, ...]:
    total = sum(w)
    return tuple(Fraction(x, total) for x in w)


def _post_exact_objects(pw: Sequence[int], qw: Sequence[int], kw: Sequence[Sequence[int]]
                        ) -> tuple[tuple[Fraction, ...], ...]:
    p, q = _normalise(pw), _normalise(qw)
    kernel = tuple(_normalise(row) for row in kw)
    return p, q, push_forward(p, kernel), push_forward(q, kernel)


def _post_hs_exact(ctx: Any, pw: Any, qw: Any, kw: Any, **_: Any) -> bool:
    """``H_z(BP||BQ) <= H_z(P||Q)`` for every z of a rational grid (z = e^eps, eps = ln z,
    including eps < 0), in exact arithmetic."""
    p, q, bp, bq = _post_exact_objects(pw, qw, kw)
    return all(_hs_exact(bp, bq, z) <= _hs_exact(p, q, z) for z in _POST_Z_GRID)


def _post_ratio_exact(ctx: Any, pw: Any, qw: Any, kw: Any, **_: Any) -> bool:
    """``max_y |ln BP/BQ| <= max_y |ln P/Q|`` (as ratios ``max(r, 1/r)``), exactly."""
    p, q, bp, bq = _post_exact_objects(pw, qw, kw)
    return _max_ratio_exact(bp, bq) <= _max_ratio_exact(p, q)


def _post_ratio_arb(ctx: Any, pw: Any, qw: Any, kw: Any, **_: Any) -> tuple[Any, Any]:
    p, q, bp, bq = _post_exact_objects(pw, qw, kw)
    return (max_log_ratio(ctx, _nums(ctx, bp), _nums(ctx, bq)),
            max_log_ratio(ctx, _nums(ctx, p), _nums(ctx, q)))


SMITH_POST = Theorem(
    id="SMITH-POST",
    title="Post-processing",
    family=FAMILY,
    source=Source(_SMITH, "Lemma 1.6; [Blog] post-processing; zCDP/RDP: STK-ADAPT-POST"),
    types=("EXACT",),
    confidence=("HIGH",),
    statement=(
        "If A is eps-DP, so is B∘A for any randomised B (B(a) = f(a, R), R independent); the "
        "same closure holds for the whole privacy profile: H_{e^eps}(B(P)||B(Q)) <= "
        "H_{e^eps}(P||Q) for every Markov kernel B (data processing)."
    ),
    domain="any randomised B whose randomness is independent of the data",
    claims=(
        Claim(1, "For random finite P, Q and a random Markov kernel B, H_{e^eps}(BP||BQ) <= "
                 "H_{e^eps}(P||Q) for every eps on a grid.", (
            Predicate(_post_hs_grid,
                      Generated(_draw_post, 500, "random pairs on 2..6 points and random "
                                                 "kernels to 1..6 outputs (zeros allowed)"),
                      "oracle", "H_{e^eps}(BP||BQ) <= H_{e^eps}(P||Q) for eps in "
                                "{0, 1/8, 1/4, 1/2, 1, 2, 4} (arb)"),
            Predicate(_post_hs_exact,
                      Generated(_draw_post_exact, 500, "random rational pairs and kernels "
                                                       "(integer weights, zeros allowed)"),
                      "oracle", "H_z(BP||BQ) <= H_z(P||Q) for z = e^eps in {1/8, 1/3, 1/2, "
                                "3/4, 1, 5/4, 2, 7, 50} (exact rationals, eps < 0 included)"),
        )),
        Claim(2, "For the same objects, max_y |ln(BP(y)/BQ(y))| <= max_y |ln(P(y)/Q(y))|.", (
            Predicate(_post_ratio_exact,
                      Generated(_draw_post_positive, 500,
                                "random full-support rational pairs and kernels"),
                      "oracle", "max_y max(BP/BQ, BQ/BP) <= max_y max(P/Q, Q/P) (exact)"),
            Compare(lambda ctx, **pt: _post_ratio_arb(ctx, **pt)[0], "le",
                    lambda ctx, **pt: _post_ratio_arb(ctx, **pt)[1],
                    Generated(_draw_post_positive, 300,
                              "random full-support rational pairs and strictly positive "
                              "kernels"),
                    "oracle", lhs_name="max_y |ln BP(y)/BQ(y)|", rhs_name="max_y |ln P/Q|"),
        )),
    ),
    aliases=("BLOG-POST",),
    notes="Source typo: the last term of Eq. (2) of [SmithLN] should read P(B(A(x')) = b).",
)


# ==========================================================================================
# SMITH-GROUP


def group_eps(ctx: Any, eps0: Any, k: int) -> Any:
    """Group privacy for pure DP: ``k eps0`` ([SmithLN] Lemma 1.7, no arXiv)."""
    return k * eps0


def group_delta(ctx: Any, eps0: Any, delta0: Any, k: int) -> Any:
    """Approximate-DP group privacy: ``k e^{(k-1) eps0} delta0`` (standard; not in [SmithLN],
    cf. [DR14] Sec. 2.3, no arXiv)."""
    return k * ctx.exp((k - 1) * eps0) * delta0


def _group_gauss_lhs(ctx: Any, k: int, mu: Any, eps: Any, **_: Any) -> Any:
    return gdp_delta(ctx, k * mu, k * eps)


def _group_gauss_rhs(ctx: Any, k: int, mu: Any, eps: Any, **_: Any) -> Any:
    return group_delta(ctx, eps, gdp_delta(ctx, mu, eps), k)


def _smith_group_claims() -> tuple[Claim, ...]:
    f = Fraction
    eps0 = f(2, 5)
    inside = []
    attained = []
    for k in (2, 3, 5):
        b = 1 / eps0
        for y in (f(-7), f(-1), f(0)):
            attained.append({"k": k, "eps0": eps0, "y": y})
        for u in (f(1, 1000), f(1, 3), f(1, 2), f(1), f(2), f(10)):
            inside.append({"k": k, "eps0": eps0, "y": k * u if u < 1 else k + (u - 1) * b})

    def llr(ctx: Any, k: int, eps0: Any, y: Any, **_: Any) -> Any:
        # counts c = 0 and c = k, Laplace scale 1/eps0
        return laplace_llr(ctx, y, 1 / eps0, ctx.num(k))

    return (
        Claim(1, "For Laplace noise with scale 1/eps0 on a count, datasets at distance k have "
                 "supremum log-ratio exactly k eps0 (k = 2, 3, 5; eps0 = 0.4).", (
            Compare(llr, "eq", lambda ctx, k, eps0, **_: group_eps(ctx, eps0, k),
                    Points(tuple(attained)), "numeric", TINY,
                    "ln p(y)/q(y) at y <= 0 (attained)", "SMITH-GROUP.eps(eps0, k)"),
            Compare(llr, "lt", lambda ctx, k, eps0, **_: group_eps(ctx, eps0, k),
                    Points(tuple(inside)), "numeric",
                    lhs_name="ln p(y)/q(y) at y > 0", rhs_name="k eps0"),
        )),
        Claim(2, "Gaussian: delta_G(k eps; k mu) <= k e^{(k-1) eps} delta_G(eps; mu) for "
                 "k = 2, 3, 5, mu = 0.5, eps = 1, with delta_G(eps; mu) = DRS-GDP.delta(mu, eps).",
              (
            Compare(_group_gauss_lhs, "le", _group_gauss_rhs,
                    grid(k=[2, 3, 5], mu=["0.5"], eps=["1"]), "numeric",
                    lhs_name="delta_G(k eps; k mu)",
                    rhs_name="k e^{(k-1) eps} delta_G(eps; mu)"),
        )),
        Claim(3, "The inequality of claim 2 over the box k in {2..6}, mu in [0.05, 3], "
                 "eps in [0, 5].", (
            Compare(_group_gauss_lhs, "le", _group_gauss_rhs,
                    Box(ints={"k": (2, 6)}, reals={"mu": ("0.05", "3"), "eps": ("0", "5")}),
                    "interval", lhs_name="delta_G(k eps; k mu)",
                    rhs_name="k e^{(k-1) eps} delta_G(eps; mu)"),
        )),
    )


SMITH_GROUP = Theorem(
    id="SMITH-GROUP",
    title="Group privacy",
    family=FAMILY,
    source=Source(_SMITH, "Lemma 1.7 (pure DP); the approximate-DP analogue is standard and not "
                          "stated in the lecture notes"),
    types=("TIGHT", "BOUND"),
    confidence=("HIGH",),
    statement=(
        "If x, x' differ in k positions and A is eps-DP, P(A(x) in E) <= e^{k eps} "
        "P(A(x') in E). Approximate DP: (k eps, k e^{(k-1) eps} delta)."
    ),
    domain="k >= 1 integer (group size), eps >= 0, delta in [0, 1]",
    evaluators=(
        Evaluator("eps", (EPS0, replace(K, doc="group size")), group_eps, "k eps0"),
        Evaluator("delta", (EPS0, replace(DELTA0, hi_open=False),
                            replace(K, doc="group size")),
                  group_delta, "k e^{(k-1) eps0} delta0"),
    ),
    claims=_smith_group_claims(),
    notes="TIGHT for pure DP (Laplace witness), BOUND for approximate DP. For zCDP the "
          "group-of-k parameter is k^2 rho (STK-ZCDP-DEF).",
)


# ==========================================================================================
# SMITH-BAYES

_BITS3 = tuple(itertools.product((0, 1), repeat=3))
_OUTPUTS = 6


def bayes_em_mechanism(ctx: Any, h: Sequence[Any], eps: Any) -> dict[tuple[int, ...], Any]:
    """Exponential mechanism on ``{0,1}^3`` with 6 outputs and utility ``u(x, a) = sum_j
    h_j(x_j, a)``, ``h_j in [0, 1]`` (sensitivity 1 under replace-one), run with factor eps/2
    ([SmithLN] Thm 3.1's test mechanism; McSherry–Talwar)."""
    def hj(j: int, v: int, a: int) -> Any:
        return h[(j * 2 + v) * _OUTPUTS + a]

    return {x: exp_mech(ctx, eps, [ctx.fsum(hj(j, x[j], a) for j in range(3))
                                   for a in range(_OUTPUTS)])
            for x in _BITS3}


def _neighbours(x: tuple[int, ...], i: int, value: int) -> tuple[int, ...]:
    return (*x[:i], value, *x[i + 1:])


def _bayes_dp_level(ctx: Any, h: Any, eps: Any, **_: Any) -> Any:
    mech = bayes_em_mechanism(ctx, h, eps)
    best = ctx.zero
    for x in _BITS3:
        for i in range(3):
            y = _neighbours(x, i, 1 - x[i])
            best = ctx.max(best, max_log_ratio(ctx, mech[x], mech[y]))
    return best


def _posterior_ratio_max(ctx: Any, mech: dict[tuple[int, ...], Any],
                         priors: Sequence[Sequence[Any]], points: Sequence[tuple[int, ...]],
                         default: int = 0) -> Any:
    """``max |ln p_{-i}(x|a)/p(x|a)|`` over x, a, i and the given priors, where p_{-i} is the
    posterior had x_i been replaced by ``default`` ([SmithLN] Thm 3.1).

    ``p_{-i}(x|a)/p(x|a) = [M(a|x^{(i)})/M(a|x)] [sum_x' pi(x') M(a|x')/sum_x' pi(x')
    M(a|x'^{(i)})]``: the prior cancels from the first factor, so the extremes over x are the
    extremes of the likelihood ratio times the normaliser ratio.
    """
    n = len(points[0])
    n_out = len(mech[points[0]])
    best = ctx.one
    for i in range(n):
        for a in range(n_out):
            lik = [mech[x][a] for x in points]
            lik_i = [mech[_neighbours(x, i, default)][a] for x in points]
            ratios = [li / lx for li, lx in zip(lik_i, lik, strict=True)]
            hi, lo = ctx.max(*ratios), ctx.min(*ratios)
            for prior in priors:
                norm = ctx.fsum(w * lx for w, lx in zip(prior, lik, strict=True))
                norm_i = ctx.fsum(w * li for w, li in zip(prior, lik_i, strict=True))
                c = norm / norm_i
                best = ctx.max(best, hi * c, 1 / (lo * c))
    return ctx.log(best)


def _draw_h(rng: random.Random) -> tuple[Fraction, ...]:
    return tuple(Fraction(rng.randint(0, 1000), 1000) for _ in range(3 * 2 * _OUTPUTS))


def _draw_bayes_mech(rng: random.Random) -> dict[str, Any]:
    return {"h": _draw_h(rng), "eps": Fraction(7, 10)}


def _draw_bayes_priors(rng: random.Random) -> dict[str, Any]:
    return {"h": _draw_h(rng), "eps": Fraction(7, 10),
            "priors": tuple(random_distribution(rng, 8) for _ in range(20))}


def _bayes_priors_max(ctx: Any, h: Any, eps: Any, priors: Any, **_: Any) -> Any:
    mech = bayes_em_mechanism(ctx, h, eps)
    return _posterior_ratio_max(ctx, mech, priors, _BITS3)


def _bayes_random_exact(ctx: Any, inst: int, n: int, outputs: int, spread: int,
                        **_: Any) -> bool:
    """A random rational mechanism on ``{0,1}^n`` (its exact pure-DP level ``R = e^eps`` is
    computed over all replace-one neighbours) and a random prior: every posterior ratio
    ``p_{-i}(x|a)/p(x|a)`` lies in ``[R^-2, R^2]``, decided exactly."""
    rng = _seeded(inst)
    points = tuple(itertools.product((0, 1), repeat=n))
    mech = {x: random_distribution(rng, outputs, denominator=spread) for x in points}
    prior = random_distribution(rng, len(points))
    level = max(_max_ratio_exact(mech[x], mech[_neighbours(x, i, 1 - x[i])])
                for x in points for i in range(n))
    for i in range(n):
        for a in range(outputs):
            joint = [prior[t] * mech[x][a] for t, x in enumerate(points)]
            joint_i = [prior[t] * mech[_neighbours(x, i, 0)][a] for t, x in enumerate(points)]
            norm, norm_i = sum(joint), sum(joint_i)
            for t in range(len(points)):
                r = (joint_i[t] / norm_i) / (joint[t] / norm)
                if not level**-2 <= r <= level**2:
                    return False
    return True


SMITH_BAYES = Theorem(
    id="SMITH-BAYES",
    title="Bayesian semantics of pure DP",
    family=FAMILY,
    source=Source(_SMITH, "Thm 3.1"),
    types=("BOUND",),
    confidence=("HIGH",),
    statement=(
        "For eps-DP A, every prior on X (correlations allowed), every output a and index i: "
        "p_{-i}(.|a) ≈_{2eps} p(.|a), where p_{-i} is the posterior had x_i been replaced by a "
        "default value and ≈_{2eps} means the pointwise ratio lies in [e^{-2eps}, e^{2eps}]."
    ),
    domain="eps >= 0; replace-one neighbours (x_i replaced by a default value); any prior",
    claims=(
        Claim(1, "Test mechanism: an exponential mechanism on {0,1}^3 with 6 outputs and "
                 "utility u(x,a) = sum_j h_j(x_j, a), h_j in [0,1] random, run with factor "
                 "eps/2; with eps = 0.7 its largest pointwise log-ratio is at most eps.", (
            Compare(_bayes_dp_level, "le", lambda ctx, eps, **_: eps,
                    Generated(_draw_bayes_mech, 300, "random h_j(x_j, a) in [0, 1], eps = 0.7"),
                    "oracle", lhs_name="max over replace-one pairs and outputs |ln ratio|",
                    rhs_name="eps"),
        )),
        Claim(2, "For the mechanism of claim 1 and 20 random correlated priors, the largest "
                 "|log p_{-i}(x|a)/p(x|a)| is 0.30 <= 2eps = 1.4 (the 0.30 is one random draw "
                 "and is not re-checked; the bound 2 eps is).", (
            Compare(_bayes_priors_max, "le", lambda ctx, eps, **_: 2 * eps,
                    Generated(_draw_bayes_priors, 100,
                              "random h and 20 random correlated priors on {0,1}^3, eps = 0.7"),
                    "oracle", lhs_name="max |ln p_{-i}(x|a)/p(x|a)|", rhs_name="2 eps"),
        )),
        Claim(3, "For random finite eps-DP mechanisms and random priors, the largest posterior "
                 "log-ratio never exceeds 2eps.", (
            Predicate(_bayes_random_exact,
                      Box(ints={"inst": (0, 10**9), "n": (1, 3), "outputs": (2, 5),
                                "spread": (1, 1000)}),
                      "property", "posterior ratios within [e^{-2eps}, e^{2eps}] with eps the "
                                  "exact replace-one level of a random rational mechanism"),
        )),
    ),
    notes="The guarantee fails for delta-additive secrecy (SMITH-NAME-SHAME). Default value: 0.",
)


# ==========================================================================================
# SMITH-NAME-SHAME


def name_shame_delta(ctx: Any, delta0: Any, eps: Any) -> Any:
    """Flat privacy profile ``delta(eps) = delta0`` of the name-and-shame mechanism NS_delta0
    ([SmithLN] Eq. 8, Ex. 3.3, no arXiv)."""
    return delta0


def name_shame_pair(ctx: Any, delta0: Any) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """Single record: outputs ((i, 1), (i, 0), ⊥); x_i = 1 vs x_i = 0."""
    rest = 1 - delta0
    return (delta0, ctx.zero, rest), (ctx.zero, delta0, rest)


def _ns_profile(ctx: Any, delta0: Any, eps: Any, **_: Any) -> Any:
    p, q = name_shame_pair(ctx, delta0)
    return ctx.max(hockey_stick(ctx, p, q, eps), hockey_stick(ctx, q, p, eps))


def _ns_profile_events(ctx: Any, delta0: Any, eps: Any, **_: Any) -> Any:
    p, q = name_shame_pair(ctx, delta0)
    return ctx.max(hockey_stick_events(ctx, p, q, eps), hockey_stick_events(ctx, q, p, eps))


def name_shame_law(ctx: Any, delta0: Any, x: Sequence[int]
                   ) -> dict[tuple[tuple[int, int], ...], Any]:
    """Output law of NS_delta0 on records x: each ``(i, x_i)`` published independently with
    probability delta0; an output is the tuple of published pairs."""
    out = {}
    for mask in itertools.product((0, 1), repeat=len(x)):
        key = tuple((i, x[i]) for i in range(len(x)) if mask[i])
        prob = ctx.one
        for bit in mask:
            prob = prob * (delta0 if bit else 1 - delta0)
        out[key] = prob
    return out


def _ns_full_profile(ctx: Any, delta0: Any, eps: Any, x: Sequence[int], j: int,
                     **_: Any) -> Any:
    y = tuple(1 - v if i == j else v for i, v in enumerate(x))
    lp, lq = name_shame_law(ctx, delta0, x), name_shame_law(ctx, delta0, y)
    keys = sorted(set(lp) | set(lq))
    p = tuple(lp.get(k, ctx.zero) for k in keys)
    q = tuple(lq.get(k, ctx.zero) for k in keys)
    return ctx.max(hockey_stick(ctx, p, q, eps), hockey_stick(ctx, q, p, eps))


def _draw_ns_full(rng: random.Random) -> dict[str, Any]:
    n = rng.randint(1, 4)
    return {"delta0": Fraction(rng.randint(1, 999), 1000),
            "eps": Fraction(rng.randint(0, 20000), 1000),
            "x": tuple(rng.randint(0, 1) for _ in range(n)), "j": rng.randrange(n)}


_BAYES_EPS_GRID = (Fraction(0), Fraction(1), Fraction(10), Fraction(1000))


def _draw_ns_posterior(rng: random.Random) -> dict[str, Any]:
    return {"delta0": Fraction(rng.randint(1, 999), 1000),
            "prior": random_distribution(rng, 4), "i": rng.randint(0, 1),
            "default": rng.randint(0, 1), "other_published": rng.randint(0, 1),
            "other_value": rng.randint(0, 1)}


def _ns_posterior_violates(ctx: Any, delta0: Any, prior: Sequence[Any], i: int, default: int,
                           other_published: int, other_value: int, **_: Any) -> bool | None:
    """Two records with a correlated prior; the observed output publishes ``(i, default)`` (and
    ``(1-i, other_value)`` if ``other_published``). The posterior on x_i is a point mass while
    p_{-i} (x_i replaced by ``default``) keeps the prior's uncertainty, so ``p_{-i}(x|a) <=
    e^{2eps} p(x|a)`` fails at some x for every eps of the grid."""
    points = tuple(itertools.product((0, 1), repeat=2))
    observed = tuple(sorted({(i, default)} | ({(1 - i, other_value)} if other_published
                                              else set())))

    def likelihood(x: tuple[int, ...]) -> Any:
        return name_shame_law(ctx, delta0, x).get(observed, ctx.zero)

    joint = [prior[t] * likelihood(x) for t, x in enumerate(points)]
    joint_i = [prior[t] * likelihood(_neighbours(x, i, default)) for t, x in enumerate(points)]
    norm, norm_i = ctx.fsum(joint), ctx.fsum(joint_i)
    post = [v / norm for v in joint]
    post_i = [v / norm_i for v in joint_i]
    # the posterior of x_i is a point mass on the published value: zero mass elsewhere
    point_mass = ctx.le(ctx.fsum(post[t] for t, x in enumerate(points) if x[i] != default),
                        ctx.zero)
    results = [point_mass]
    for e in _BAYES_EPS_GRID:
        z = ctx.exp(2 * ctx.num(e))
        witness = [ctx.lt(z * post[t], post_i[t]) for t in range(len(points))]
        results.append(True if True in witness else (None if None in witness else False))
    if False in results:
        return False
    return None if None in results else True


SMITH_NAME_SHAME = Theorem(
    id="SMITH-NAME-SHAME",
    title="delta-additive secrecy and the name-and-shame mechanism",
    family=FAMILY,
    source=Source(_SMITH, "Eq. 8, Ex. 3.3"),
    types=("EXACT",),
    confidence=("HIGH",),
    statement=(
        "delta-additive secrecy: P(A(x) in E) <= P(A(x') in E) + delta, i.e. (0, delta)-DP. "
        "NS_delta publishes each (i, x_i) independently with probability delta: flat privacy "
        "profile delta(eps) = delta for all eps; the posterior on a leaked x_i is a point mass, "
        "violating SMITH-BAYES for every eps."
    ),
    domain="delta in (0, 1), eps >= 0",
    evaluators=(
        Evaluator("delta", (replace(DELTA0, lo_open=True, doc="publication probability"), EPS),
                  name_shame_delta, "delta0, the flat profile of NS_delta0"),
    ),
    claims=(
        Claim(1, "For the single-record pair (publish (i, x_i = 1) w.p. delta0, else ⊥) vs "
                 "(publish (i, x_i = 0) w.p. delta0, else ⊥), the exact hockey-stick value is "
                 "delta0 at eps in {0, 1, 10} (delta0 = 0.01).", (
            Compare(_ns_profile, "eq", name_shame_delta,
                    grid(delta0=["0.01"], eps=["0", "1", "10"]), "oracle", TINY,
                    "both-order hockey-stick of the single-record pair",
                    "SMITH-NAME-SHAME.delta(delta0, eps)"),
            Compare(_ns_profile_events, "eq", name_shame_delta,
                    grid(delta0=["0.01"], eps=["0", "1", "10"]), "oracle", TINY,
                    "max over all events, both orders", "delta0"),
            Compare(_ns_full_profile, "eq",
                    lambda ctx, delta0, eps, **_: name_shame_delta(ctx, delta0, eps),
                    Generated(_draw_ns_full, 300, "NS on 1..4 records, one record flipped, "
                                                  "delta0 in (0, 1), eps in [0, 20]"),
                    "oracle", TINY, "both-order hockey-stick of NS on n records",
                    "delta0 (flat profile)"),
        )),
        Claim(2, "For every eps, the posterior on a published record is a point mass, so no "
                 "eps satisfies the SMITH-BAYES bound.", (
            Predicate(_ns_posterior_violates,
                      Generated(_draw_ns_posterior, 300,
                                "two records, random correlated priors, delta0 in (0, 1)"),
                      "oracle", "posterior point mass and p_{-i}(x|a) > e^{2eps} p(x|a) for "
                                "some x, at eps in {0, 1, 10, 1000}"),
        )),
    ),
    aliases=("SMITH-ADDITIVE",),
)


# ==========================================================================================
# SMITH-LLOYD


def lloyd_eps_step(ctx: Any, eps: Any, k: Any) -> Any:
    """Per-release budget ``eps' = eps/(2T)`` of DP Lloyd with T = k iterations ([SmithLN]
    Alg. 2, Prop. 2.1, no arXiv)."""
    return eps / (2 * k)


def lloyd_b(ctx: Any, eps: Any, k: Any) -> Any:
    """Laplace scale per entry ``Lap(2/eps') = 4T/eps`` (sensitivity 2 under replace-one;
    [SmithLN] Alg. 2, Prop. 2.1)."""
    return 4 * k / eps


def _cleared(var: Any, expr: Any) -> Any:
    """``var = expr`` as a polynomial equation (denominator cleared; it is nonzero under the
    hypotheses eps > 0, k >= 1)."""
    import sympy as sp

    num, _den = sp.fraction(sp.together(var - expr))
    return sp.Eq(sp.expand(num), 0)


def _lloyd_problem(which: str) -> Callable[[], SmtProblem]:
    def build() -> SmtProblem:
        import sympy as sp

        from dpverify.theorems.ctx import SymCtx

        ctx = SymCtx()
        eps, k, b, s = sp.symbols("eps k b s", real=True)
        hyps = (sp.Gt(eps, 0), sp.Ge(k, 1), _cleared(b, lloyd_b(ctx, eps, k)),
                _cleared(s, lloyd_eps_step(ctx, eps, k)))
        goal = sp.Eq(s * b, 2) if which == "per_release" else sp.Eq(2 * k * s, eps)
        return SmtProblem(variables={"eps": "real", "k": "real", "b": "real", "s": "real"},
                          hypotheses=hyps, goal=goal,
                          substitutions=("b = SMITH-LLOYD.b(eps, k) = 4k/eps",
                                         "s = SMITH-LLOYD.eps_step(eps, k) = eps/(2k)"))

    return build


SMITH_LLOYD = Theorem(
    id="SMITH-LLOYD",
    title="Budget of DP Lloyd (k-means)",
    family=FAMILY,
    source=Source(_SMITH, "Algorithm 2, Prop. 2.1"),
    types=("ALGORITHM",),
    confidence=("HIGH",),
    statement=(
        "DP Lloyd with T iterations uses eps' = eps/(2T). Counts and sums have global "
        "sensitivity 2 (replace-one); Lap(2/eps') = Lap(4T/eps) noise per entry makes each of the "
        "2T releases eps/(2T)-DP, so the total is eps by basic composition."
    ),
    domain="T >= 1 integer, eps > 0; data points with ||x||_1 <= 1",
    evaluators=(
        Evaluator("eps_step", (EPS_POS, replace(K, doc="Lloyd iterations T")), lloyd_eps_step,
                  "eps/(2k)"),
        Evaluator("b", (EPS_POS, replace(K, doc="Lloyd iterations T")), lloyd_b,
                  "4k/eps, the Laplace scale per entry"),
    ),
    claims=(
        Claim(1, "Per-release eps = sensitivity/scale = 2/b(eps, k) = eps/(2k), and the 2k "
                 "releases sum to eps exactly (checked at (T, eps) = (6, 0.5) and (10, 2); as "
                 "an identity in eps and k).", (
            Smt(_lloyd_problem("per_release"),
                "s b = 2, i.e. 2/b(eps, k) = eps_step(eps, k), for all real eps > 0, k >= 1"),
            Smt(_lloyd_problem("total"),
                "2k eps_step(eps, k) = eps for all real eps > 0, k >= 1"),
            Compare(lambda ctx, eps, k, **_: 2 / lloyd_b(ctx, eps, k), "eq", lloyd_eps_step,
                    Points(({"k": 6, "eps": "0.5"}, {"k": 10, "eps": "2"})), "numeric", TINY,
                    "2/b(eps, k)", "eps_step(eps, k)"),
            Compare(lambda ctx, eps, k, **_: 2 * k * lloyd_eps_step(ctx, eps, k), "eq",
                    lambda ctx, eps, **_: eps,
                    Points(({"k": 6, "eps": "0.5"}, {"k": 10, "eps": "2"})), "numeric", TINY,
                    "2k eps_step(eps, k)", "eps"),
        )),
    ),
    notes="Source inconsistency: the universe is ||x||_1 = 1 in the algorithm box but <= 1 in "
          "the text.",
)


# ==========================================================================================
# BLOG-DEF


def _blog_def_problem() -> SmtProblem:
    import sympy as sp

    x, d, p, q = sp.symbols("x d p q", real=True)
    return SmtProblem(
        variables={"x": "real", "d": "real", "p": "real", "q": "real"},
        hypotheses=(sp.Ge(x, 1), sp.Ge(d, 0), sp.Lt(d, 1), sp.Ge(q, 0), sp.Le(q, 1),
                    sp.Ge(p, 0), sp.Le(p, 1), sp.Le(p, (x + d) * q)),
        goal=sp.Le(p, x * q + d),
        substitutions=("x = e^eps (eps >= 0)", "d = delta", "p = P[F(x) in S]",
                       "q = P[F(x') in S]; the ratio form p/q <= x + d written as p <= (x+d) q"),
    )


def _draw_delta0_exact(rng: random.Random) -> dict[str, Any]:
    """delta0 = dn/10^6 as integers, so that the checks below run in exact arithmetic."""
    return {"dn": rng.randint(1, 10**6 - 1), "dd": 10**6}


def _ns_pair_exact(dn: int, dd: int) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    d = Fraction(dn, dd)
    return (d, Fraction(0), 1 - d), (Fraction(0), d, 1 - d)


def _ns_is_zero_delta_dp(ctx: Any, dn: int, dd: int, **_: Any) -> bool:
    """NS is (0, delta0)-DP: the both-order H_1 (eps = 0, z = 1) is <= delta0, exactly."""
    p, q = _ns_pair_exact(dn, dd)
    return max(_hs_exact(p, q, Fraction(1)), _hs_exact(q, p, Fraction(1))) <= Fraction(dn, dd)


def _ratio_form_fails(ctx: Any, dn: int, dd: int, **_: Any) -> bool | None:
    """At every eps of a grid, the output (i, 1) has P = delta0 > (e^eps + delta0) Q = 0."""
    p, q = (_nums(ctx, d) for d in _ns_pair_exact(dn, dd))
    delta0 = ctx.num(Fraction(dn, dd))
    out = [ctx.lt((ctx.exp(ctx.num(e)) + delta0) * q[0], p[0]) for e in _BAYES_EPS_GRID]
    if False in out:
        return False
    return None if None in out else True


def _ratio_form_excess(ctx: Any, delta0: Any, eps: Any, **_: Any) -> Any:
    """``max_S P(S) - (e^eps + delta_M(eps)) Q(S)`` for NS, with delta_M its exact profile (so
    NS is (eps, delta_M)-DP): positive iff the ratio form fails."""
    p, q = name_shame_pair(ctx, delta0)
    delta_m = _ns_profile(ctx, delta0, eps)
    z = ctx.exp(eps) + delta_m
    best = ctx.zero
    for mask in range(1, 2 ** len(p)):
        members = [y for y in range(len(p)) if mask >> y & 1]
        best = ctx.max(best, ctx.fsum(p[y] for y in members)
                       - z * ctx.fsum(q[y] for y in members))
    return best


BLOG_DEF = Theorem(
    id="BLOG-DEF",
    title="Errata of the introductory blog (misstated definition)",
    family=FAMILY,
    source=Source(_BLOG, "definition of (eps, delta)-DP as a ratio bound"),
    types=("DEFINITION",),
    confidence=("HIGH",),
    statement=(
        "The blog writes (eps, delta)-DP as Pr[F(x)=S]/Pr[F(x')=S] <= e^eps + delta; the "
        "definition is P[F(x) in S] <= e^eps P[F(x') in S] + delta (DEF-DP). Its reading 'with "
        "probability 1 - delta pure DP holds' is only a sufficient-condition heuristic."
    ),
    domain="eps >= 0, delta in [0, 1)",
    claims=(
        Claim(1, "The ratio form implies the definition, because (e^eps + delta) Q(S) <= "
                 "e^eps Q(S) + delta for Q(S) in [0, 1] (derived).", (
            Smt(_blog_def_problem,
                "p <= (x + d) q, x >= 1, 0 <= d < 1, 0 <= p, q <= 1 imply p <= x q + d"),
        )),
        Claim(2, "The converse fails: NS_delta (SMITH-NAME-SHAME) is (0, delta)-DP but has an "
                 "output whose probability ratio is delta/0 = infinity (derived).", (
            Predicate(_ns_is_zero_delta_dp,
                      Generated(_draw_delta0_exact, 300, "delta0 = dn/10^6 in (0, 1)"),
                      "oracle", "both-order H_1(NS) <= delta0 (exact rationals)"),
            Predicate(_ratio_form_fails,
                      Generated(_draw_delta0_exact, 300, "delta0 = dn/10^6 in (0, 1)"),
                      "oracle", "P((i,1)) = delta0 > (e^eps + delta0) Q((i,1)) = 0 at eps in "
                                "{0, 1, 10, 1000}"),
        )),
        Claim(3, "For the Gaussian mechanism, E[(1 - e^{eps-Z})_+] < P[Z > eps] strictly (e.g. "
                 "sigma = 1, eps = 1), so delta is not the probability that pure DP fails.", (
            Compare(gauss_delta, "lt", gauss_tail,
                    grid(sigma=["1", "0.5", "3"], eps=["0", "1", "4"]), "numeric",
                    lhs_name="E[(1 - e^{eps - Z})_+] (BW closed form)",
                    rhs_name="P[Z > eps]"),
            Compare(gauss_delta_pld_quad, "lt", gauss_tail,
                    Points(({"sigma": "1", "eps": "1"},)), "numeric",
                    lhs_name="E[(1 - e^{eps - Z})_+] (quadrature)", rhs_name="P[Z > eps]",
                    ctx="mp"),
        )),
        Claim(4, "Erratum of the blog: its ratio form is equivalent to (eps, delta)-DP, i.e. "
                 "every (eps, delta)-DP mechanism satisfies P[F(x) in S] <= (e^eps + delta) "
                 "P[F(x') in S] for all S. Refuted by name-and-shame.", (
            Compare(_ratio_form_excess, "le", lambda ctx, **_: ctx.zero,
                    Box(reals={"delta0": ("1e-6", "0.5"), "eps": ("0", "10")},
                        log_scale=frozenset({"delta0"})),
                    "property",
                    lhs_name="max_S P(S) - (e^eps + delta_M(eps)) Q(S) for NS_delta0",
                    rhs_name="0"),
        ), expected="refuted"),
    ),
    notes="The blog's other errata are in DR-CLASSIC-GAUSS (claim 7) and PAR; its Laplace "
          "mechanism (BLOG-LAP) and post-processing (SMITH-POST) are correct.",
)


THEOREMS: tuple[Theorem, ...] = (
    DEF_DP,
    BLOG_LAP,
    DR_CLASSIC_GAUSS,
    BLOG_EXP,
    SMITH_ADAPT_COMP,
    PAR,
    SMITH_POST,
    SMITH_GROUP,
    SMITH_BAYES,
    SMITH_NAME_SHAME,
    SMITH_LLOYD,
    BLOG_DEF,
)

__all__ = [
    "THEOREMS",
    "adaptive_rr_transcripts",
    "clamped_geometric",
    "classic_eps_star",
    "classic_sigma",
    "classic_true_delta",
    "exp_mech",
    "gce_homogeneous_rr_delta",
    "group_delta",
    "group_eps",
    "laplace_b",
    "lloyd_b",
    "lloyd_eps_step",
    "name_shame_delta",
    "par_eps",
]
