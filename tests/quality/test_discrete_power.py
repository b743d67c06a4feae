"""Tester's power on DLAP, CKS20-DGAUSS and WBK19-SUBRDP: planted wrong formulas must come out
``failed`` (certified counterexample) on the regions and routes the registered claims use, while
the correct formulas are proved, certified or pass there.

Planted:
- the discrete Laplace profile with the head weight tanh(a/2) instead of 1/(1 + e^{-a})
  (against the enumeration, property over the claim-6 box);
- the s = 1 profile (e^a - e^eps)/(e^a - 1) (against RR(1/b), z3);
- the s = 1 inverse log(e^a - delta(e^a - 1)) (round trip, property);
- Thm 7 with the cut-off floor(eps v/D - D/2) instead of floor(...) + 1 (against enumeration);
- Lemma 20 with 2 pi^2 instead of 4 pi^2 (direct vs Lemma-20 variance);
- the Poisson normalizer with sqrt(pi v) (against the direct series);
- WBK19 Thm 9 with e^{(j-1) eps(2)} in place of e^{(j-1) eps(j)} for the Gaussian base (below
  the exact RDP of the lower-bound pair);
- WBK19 Thm 9 with min{1, ...} in place of min{2, ...} for the RR base: still above the
  witness divergence on the box (the bound's slack), so only the catalogue's values (claim 2,
  two-sided) catch it;
- WBK19 Thm 9 for the RR base with only its j = 2 term (below the witness divergence).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from dpverify.theorems.claims import Box, Check, Compare, Points, Smt, SmtProblem, Tol
from dpverify.theorems.ctx import SymCtx
from dpverify.theorems.formulas import discrete_gaussian as dg
from dpverify.theorems.formulas import discrete_laplace as dl
from dpverify.theorems.formulas.lattice_sums import with_tail
from dpverify.theorems.formulas.rr import pdp_tau, rr_moment
from dpverify.theorems.formulas.subsampled_gaussian import sgm_rdp_binomial
from dpverify.theorems.formulas.subsampled_rdp_wor import wbk_tau, wbk_tau_gauss, wbk_tau_rr
from dpverify.theorems.numerics.finite import randomized_response, renyi
from dpverify.theorems.shuffle_discrete.discrete import _as_poly, _symbols
from dpverify.theorems.values import exact_params, to_ctx
from dpverify.verifiers.verdict import Status
from tests.common.planted import planted_verdict


def _run(check: Check) -> Status:
    return planted_verdict(check, "shuffle_discrete").status


# ------------------------------------------------------------------------------------------
# planted formulas


def wrong_dlap_delta(ctx: Any, b: Any, eps: Any, sensitivity: int) -> Any:
    a = 1 / b
    s = sensitivity
    head = ctx.pos(-ctx.expm1(eps - a * s)) * ctx.tanh(a / 2)
    middle = ctx.fsum(ctx.pos(ctx.exp(-a * x) - ctx.exp(eps - a * (s - x))) for x in range(1, s))
    return head + ctx.tanh(a / 2) * middle


def wrong_dlap_rr(ctx: Any, b: Any, eps: Any, sensitivity: int) -> Any:
    a = 1 / b
    return ctx.pos(ctx.exp(a) - ctx.exp(eps)) / ctx.expm1(a)


def wrong_dlap_eps(ctx: Any, b: Any, delta: Any, sensitivity: int) -> Any:
    ea = ctx.exp(1 / b)
    inner = ea - delta * (ea - 1)
    return ctx.piecewise_lt(inner, ctx.one, lambda: ctx.zero, lambda: ctx.log(inner))


@exact_params("v", "eps")
def wrong_thm7(ctx: Any, v: Fraction, eps: Fraction, sensitivity: int = 1, **_: Any) -> Any:
    import math

    t = eps * v / sensitivity
    half = Fraction(sensitivity, 2)
    lo, up = math.floor(t - half), math.floor(t + half)  # the "+ 1" dropped
    vv = ctx.num(v)
    z = dg.dg_normalizer(ctx, vv)
    return dg.dg_upper_tail(ctx, vv, lo, z) - ctx.exp(ctx.num(eps)) * dg.dg_upper_tail(
        ctx, vv, up, z)


def wrong_lemma20(ctx: Any, v: Any, **_: Any) -> Any:
    w = 1 / (2 * ctx.pi**2 * v)
    return v - 2 * ctx.pi**2 * v * v * dg.dg_variance_direct(ctx, w)


def wrong_poisson(ctx: Any, v: Any, **_: Any) -> Any:
    w = 1 / (4 * ctx.pi**2 * v)
    return ctx.sqrt(ctx.pi * v) * dg.dg_normalizer_direct(ctx, w)


def wrong_wbk_gauss(ctx: Any, q: Any, sigma: Any, alpha: int) -> Any:
    return wbk_tau(ctx, q, alpha, 1 / sigma**2,
                   lambda j: ctx.exp(ctx.num(j - 1) / sigma**2), None)


def wrong_wbk_rr(ctx: Any, q: Any, eps0: Any, alpha: int) -> Any:
    two = ctx.num(2)
    e2 = ctx.exp(pdp_tau(ctx, eps0, two))
    d = ctx.expm1(eps0)
    second = ctx.min(4 * ctx.expm1(pdp_tau(ctx, eps0, two)), e2 * ctx.min(ctx.one, d**2))
    terms = [ctx.binomial(alpha, 2) * q**2 * second]
    terms += [ctx.binomial(alpha, j) * ctx.pow(q, j) * rr_moment(ctx, eps0, j)
              * ctx.min(ctx.one, ctx.pow(d, j)) for j in range(3, alpha + 1)]
    return ctx.log1p(ctx.fsum(terms)) / (alpha - 1)


def wrong_wbk_rr_second_only(ctx: Any, q: Any, eps0: Any, alpha: int) -> Any:
    """Only the j = 2 term of the sum (the j >= 3 terms dropped)."""
    two = ctx.num(2)
    e2 = ctx.exp(pdp_tau(ctx, eps0, two))
    d = ctx.expm1(eps0)
    second = ctx.min(4 * ctx.expm1(pdp_tau(ctx, eps0, two)), e2 * ctx.min(two, d**2))
    return ctx.log1p(ctx.binomial(alpha, 2) * q**2 * second) / (alpha - 1)


# ------------------------------------------------------------------------------------------
# the checks, with the right or the planted formula


ENUM_BOX = Box(reals={"b": ("0.2", "4"), "eps": ("0", "3")}, ints={"sensitivity": (1, 4)})
ROUND_BOX = Box(reals={"b": ("0.2", "5"), "t": ("0", "0.999")})
THM7_POINTS = Points(tuple({"v": v, "eps": e, "sensitivity": d} for v, e, d in (
    ("1", "1", 1), ("4", "0.5", 1), ("1/4", "2", 1), ("10", "0.3", 2), ("2", "1.5", 3))))
VAR_POINTS = Points(tuple({"v": v} for v in ("0.05", "0.2", "1", "3")))
GAUSS_BOX = Box(reals={"q": ("0.001", "1"), "sigma": ("0.5", "5")}, ints={"alpha": (2, 10)},
                log_scale=frozenset({"q"}))
RR_VALUES = Points(tuple({"q": q, "eps0": e, "alpha": a, "value": v} for q, e, a, v in (
    ("0.05", "1", 2, "0.01037678085"), ("0.3", "1", 4, "0.5134201125"),
    ("0.1", "3", 10, "0.9621090312"))))
RR_BOX = Box(reals={"q": ("0.001", "1"), "eps0": ("0.05", "3")}, ints={"alpha": (2, 10)},
             log_scale=frozenset({"q"}))


def _rr_identity(delta: Any) -> SmtProblem:
    import sympy as sp

    a, e, x, y, _ = _symbols()
    lhs = _as_poly(delta(SymCtx(), 1 / a, e, 1))
    return SmtProblem({"x": "real", "y": "real"}, (sp.Gt(y, 1), sp.Ge(x, 1)),
                      sp.Eq(lhs, sp.Max(y**2 - x**2, 0) / (y**2 + 1)))


@exact_params("v", "eps")
def _enum(ctx: Any, v: Fraction, eps: Fraction, sensitivity: int = 1, **_: Any) -> Any:
    return dg.dg_delta_enum(ctx, Fraction(v), ctx.num(Fraction(eps)), sensitivity)


def _witness(ctx: Any, q: Any, eps0: Any, alpha: int, **_: Any) -> Any:
    rr1, rr0 = randomized_response(ctx, eps0)
    mix = tuple((1 - q) * x + q * y for x, y in zip(rr0, rr1, strict=True))
    return renyi(ctx, mix, rr0, alpha)


def _cases(right: bool) -> list[Check]:
    delta = dl.dlap_delta if right else wrong_dlap_delta
    rr = dl.dlap_delta if right else wrong_dlap_rr
    inv = dl.dlap_eps if right else wrong_dlap_eps
    thm7 = dg.dg_delta_v if right else wrong_thm7
    dual = dg.dg_variance_dual if right else wrong_lemma20
    poisson = dg.dg_normalizer_poisson if right else wrong_poisson
    gauss = wbk_tau_gauss if right else wrong_wbk_gauss
    rrb = wbk_tau_rr if right else wrong_wbk_rr
    rr_terms = wbk_tau_rr if right else wrong_wbk_rr_second_only
    return [
        Compare(lambda ctx, b, eps, sensitivity, **_: delta(ctx, b, eps, sensitivity), "eq",
                lambda ctx, b, eps, sensitivity, **_: dl.dlap_delta_enum(ctx, b, eps,
                                                                         sensitivity),
                ENUM_BOX, "property", Tol.abs("1e-30")),
        Smt(lambda: _rr_identity(rr), "s = 1 profile is RR(1/b)"),
        Compare(lambda ctx, b, t, **_: inv(ctx, b, dl.dlap_delta(ctx, b, t / b, 1), 1), "eq",
                lambda ctx, b, t, **_: t / b, ROUND_BOX, "property", Tol.abs("1e-30")),
        Compare(thm7, "eq", _enum, THM7_POINTS, "oracle", Tol.abs("1e-45")),
        Compare(lambda ctx, v, **_: dg.dg_variance_direct(ctx, v), "eq",
                lambda ctx, v, **_: dual(ctx, v), VAR_POINTS, "numeric", Tol.abs("1e-45")),
        Compare(lambda ctx, v, **_: dg.dg_normalizer_direct(ctx, v), "eq",
                lambda ctx, v, **_: poisson(ctx, v), Points(({"v": "3"},)), "numeric",
                Tol.abs("1e-45")),
        Compare(lambda ctx, q, sigma, alpha, **_: gauss(ctx, q, sigma, alpha), "ge",
                lambda ctx, q, sigma, alpha, **_: sgm_rdp_binomial(ctx, q, sigma, alpha),
                GAUSS_BOX, "property"),
        Compare(lambda ctx, q, eps0, alpha, **_: rrb(ctx, q, eps0, alpha), "eq",
                lambda ctx, value, **_: to_ctx(ctx, value), RR_VALUES, "numeric",
                Tol.rel("1e-9")),
        Compare(lambda ctx, q, eps0, alpha, **_: rr_terms(ctx, q, eps0, alpha), "ge",
                _witness, RR_BOX, "property"),
    ]


NAMES = ["dlap_head_tanh", "dlap_rr_expm1", "dlap_inverse_minus", "thm7_cutoff_off_by_one",
         "lemma20_2pi2", "poisson_sqrt_pi_v", "wbk_gauss_eps2_moment", "wbk_rr_min_one",
         "wbk_rr_second_term_only"]


@pytest.mark.parametrize("i", range(len(NAMES)), ids=NAMES)
def test_planted_wrong_formula_is_caught(i: int) -> None:
    assert _run(_cases(False)[i]) is Status.FAILED


@pytest.mark.parametrize("i", range(len(NAMES)), ids=NAMES)
def test_correct_formula_is_not_refuted(i: int) -> None:
    assert _run(_cases(True)[i]) in (Status.CERTIFIED, Status.PASSED, Status.PROVED)


def test_truncation_without_its_tail_is_not_an_enclosure() -> None:
    """Dropping the tail ball at a short window loses the true value; with it, it is kept."""
    from dpverify.theorems.ctx import ArbCtx

    ctx = ArbCtx(64)
    v = ctx.num(1)
    short = ctx.run(lambda c: c.fsum(c.exp(-c.num(x * x) / 2) for x in range(1, 4)))
    full = ctx.run(lambda c: dg.theta_tail(c, v, 1))
    assert not bool(short.contains(full))
    tail = ctx.run(lambda c: with_tail(c, short, dg.gauss_lattice_tail(c, v, 4)))
    assert bool(tail.contains(full))


# ------------------------------------------------------------------------------------------
# the region proofs of DLAP 6 and 7 (z3), with the right or a planted formula


def wrong_dlap_eps_right_end(ctx: Any, b: Any, delta: Any, sensitivity: int) -> Any:
    """dlap_eps with the piece selected by the profile at the RIGHT end of I_k (s >= 2)."""
    if sensitivity == 1:
        return dl.dlap_eps(ctx, b, delta, 1)
    a, s = 1 / b, sensitivity

    def from_piece(k: int) -> Any:
        c, d = dl.dlap_piece(ctx, b, s, k)

        def inverse() -> Any:
            return ctx.log((c - delta) / d)

        if 2 * k + 2 >= s:
            return ctx.piecewise_lt(delta, c - d, inverse, lambda: ctx.zero)
        return ctx.piecewise_lt(delta, c - ctx.exp(a * (s - 2 * k)) * d, inverse,
                                lambda: from_piece(k + 1))

    return from_piece(0)


def test_round_trip_proof_refutes_a_wrong_piece_selection() -> None:
    from dpverify.theorems.shuffle_discrete.discrete import _round_trip_problem

    assert _run(Smt(lambda: _round_trip_problem(wrong_dlap_eps_right_end), "planted")) is (
        Status.FAILED)
    assert _run(Smt(_round_trip_problem, "right")) is Status.PROVED


@pytest.mark.parametrize("s", [1, 2])
def test_enumeration_proof_refutes_a_wrong_head_weight(s: int) -> None:
    from dpverify.theorems.shuffle_discrete.discrete import _enumeration_problem

    assert _run(Smt(lambda: _enumeration_problem(s, wrong_dlap_delta), "planted")) is (
        Status.FAILED)
    assert _run(Smt(lambda: _enumeration_problem(s), "right")) is Status.PROVED
