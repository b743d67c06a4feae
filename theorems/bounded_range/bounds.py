"""Closed-form bounds for adaptive BR composition: DDR-C31 (OptKL), DDR-T5 (MGF), DR19-BR."""

from __future__ import annotations

import functools
from dataclasses import replace
from fractions import Fraction
from typing import Any

from dpverify.theorems.bounded_range.game_boxes import mgf_log_h_at, mgf_log_m_term, mgf_problem
from dpverify.theorems.bounded_range.grr import D24_POINTS
from dpverify.theorems.bounded_range.identity_smt import dr19_het_equal_problem
from dpverify.theorems.bounded_range.terms import (
    EPS0_BR,
    FAMILY,
    ORDER_TEXT,
    T_PARAM,
    _c,
    _delta_term,
    _dr19_bound,
    _dr19_raw,
    _kovkl_raw,
    _lower_exact,
    _mgf_bound,
    _mgf_raw,
    _optkl_raw,
    _order_check,
    _plus,
    _tiny,
    _ub_at,
    _ub_points,
)
from dpverify.theorems.claims import Box, Claim, Compare, Smt, SmtProblem, Tol, grid, points
from dpverify.theorems.core import Evaluator, Theorem
from dpverify.theorems.formulas.bounded_range import grr_1mp, grr_1mq, grr_p, grr_q, grr_spans
from dpverify.theorems.formulas.br_bounds import (
    dr19_eps,
    dr19_eps_het,
    dr19_eps_kovkl,
    dr19_eps_raw,
    kl_direct,
    kl_sup,
    kl_sup_alt,
    kl_t,
    mgf_delta,
    mgf_eps,
    mgf_log_m,
    optkl_eps,
)
from dpverify.theorems.formulas.ddr_composition import t3_delta
from dpverify.theorems.numerics.branch_bound import bb_maximize, monotone_span
from dpverify.theorems.params import DELTA, EPS_LIST, EPS_REAL, K
from dpverify.theorems.refs import DDR, DR19, cite
from dpverify.theorems.values import exact_params, to_ctx


@exact_params("eps0")
def _kl_sup_term(ctx: Any, eps0: Any, **_: Any) -> Any:
    return kl_sup(ctx, to_ctx(ctx, eps0))


@exact_params("eps0")
def _kl_sup_alt_term(ctx: Any, eps0: Any, **_: Any) -> Any:
    return kl_sup_alt(ctx, to_ctx(ctx, eps0))


@exact_params("eps0")
def _kl_bb(ctx: Any, eps0: Any, **_: Any) -> Any:
    """``max`` over ``t in [eps0/64, 63 eps0/64]`` of the KL divergence of ``RR_{eps0,t}`` computed
    directly from p and q (branch and bound; the maximiser ln((e^eps0 - 1)/eps0) is interior)."""
    e = Fraction(eps0)
    E0 = ctx.num(e)
    den = -ctx.expm1(-E0)

    def formulas(p: Any, mp_: Any, q: Any, mq: Any, dp: Any, dq: Any) -> tuple[Any, Any, Any]:
        """KL = p ln(p/q) + (1-p) ln((1-p)/(1-q)) and its t-derivatives (p'' = p',
        q'' = -q'), from the laws as given (no identity used)."""
        a = ctx.log(p / q) - ctx.log(mp_ / mq)
        b = mp_ / mq - p / q
        f = p * ctx.log(p / q) + mp_ * ctx.log(mp_ / mq)
        f1 = dp * a + dq * b
        da = dp / p - dq / q + dp / mp_ - dq / mq
        db = (mp_ * dq - dp * mq) / (mq * mq) - (dp * q - p * dq) / (q * q)
        f2 = dp * a + dp * da - dq * b + dq * db
        return f, f1, f2

    def at(T: Any) -> tuple[Any, Any, Any]:
        return formulas(grr_p(ctx, E0, T), grr_1mp(ctx, E0, T), grr_q(ctx, E0, T),
                        grr_1mq(ctx, E0, T), -ctx.exp(T - E0) / den, -ctx.exp(-T) / den)

    @functools.lru_cache(maxsize=4096)
    def value(t: Fraction) -> Any:
        return at(ctx.num(t))[0]

    @functools.lru_cache(maxsize=4096)
    def slope(t: Fraction) -> Any:
        return at(ctx.num(t))[1]

    def enclose(a: Fraction, b: Fraction) -> tuple[Any, Any, Any]:
        p, mp_, q, mq, dp, dq = grr_spans(ctx, E0, a, b)
        return formulas(p, mp_, q, mq, dp, dq)

    return bb_maximize(ctx, value, enclose, e / 64, 63 * e / 64, slope)


def _kl_ratio(ctx: Any, **_: Any) -> Any:
    e = ctx.num(Fraction(1, 1000))
    return kl_sup(ctx, e) / (e * e / 8)


@exact_params("eps0", "t")
def _kl_t_term(ctx: Any, eps0: Any, t: Any, **_: Any) -> Any:
    return kl_t(ctx, eps0, t)


@exact_params("eps0", "t")
def _kl_direct_term(ctx: Any, eps0: Any, t: Any, **_: Any) -> Any:
    return kl_direct(ctx, to_ctx(ctx, eps0), to_ctx(ctx, t))


def _kl_identity_problem() -> SmtProblem:
    """``p ln(p/q) + (1-p) ln((1-p)/(1-q)) = t - eps0 (e^t - 1)/(e^eps0 - 1)`` once the two
    log-ratios are replaced by their values t and t - eps0 (DDR-D24 claims 1-2) and ``X =
    e^eps0``, ``Y = e^t``."""
    import sympy as sp

    X, Y, T, E, P = sp.symbols("X Y T E P", real=True)
    hyps = (sp.Gt(X, 1), sp.Gt(Y, 1), sp.Lt(Y, X), sp.Gt(E, 0), sp.Gt(T, 0), sp.Lt(T, E),
            sp.Eq(P * (X - 1), X - Y))  # p = (1 - e^{t-eps0})/(1 - e^{-eps0})
    goal = sp.Eq(P * T + (1 - P) * (T - E), T - E * (Y - 1) / (X - 1))
    return SmtProblem(variables={"X": "real", "Y": "real", "T": "real", "E": "real",
                                 "P": "real"},
                      hypotheses=hyps, goal=goal,
                      substitutions=("X = e^eps0", "Y = e^t", "T = t", "E = eps0",
                                     "P = p_{eps0,t}", "ln(p/q) = t, ln((1-p)/(1-q)) = t - eps0 "
                                     "(DDR-D24 claims 1-2)"))


DDR_C31 = Theorem(
    id="DDR-C31",
    title="Corollary 3.1: OptKL bound for adaptive BR composition",
    family=FAMILY,
    source=cite(DDR, "Cor. 3.1 (Prop. 4 of the ICML version, heterogeneous form)"),
    types=("BOUND",),
    confidence=("DERIVED",),
    statement="For eps0-BR mechanisms under k-fold adaptive composition and delta > 0: (eps, "
              "delta)-DP with eps = k (eps0/(1 - e^{-eps0}) - 1 - ln(eps0/(1 - e^{-eps0}))) + "
              "sqrt((k eps0^2/2) ln(1/delta)) (min with k eps0 in practice). The first term is k "
              "sup_t KL(RR_{eps0,t}(0)||RR_{eps0,t}(1)), KL(t) = t - eps0 (e^t - 1)/(e^eps0 - 1), "
              "maximised at t* = ln((e^eps0 - 1)/eps0), about eps0^2/8.",
    domain="eps0 > 0, k >= 1 integer, delta in (0, 1)",
    evaluators=(
        Evaluator("eps", (EPS0_BR, K, DELTA), optkl_eps,
                  "min(k eps0, k kl_sup(eps0) + sqrt((k eps0^2/2) ln(1/delta)))"),
        Evaluator("kl_sup", (EPS0_BR,), lambda ctx, eps0: kl_sup(ctx, eps0),
                  "eps0/(1 - e^{-eps0}) - 1 - ln(eps0/(1 - e^{-eps0}))"),
        Evaluator("kl", (EPS0_BR, T_PARAM), kl_t, "t - eps0 (e^t - 1)/(e^eps0 - 1)"),
    ),
    claims=(
        Claim(1, "The supremum over t of the KL divergence of RR_{eps0,t} computed directly from "
                 "p and q (rigorous branch and bound on [eps0/64, 63 eps0/64], which contains the "
                 "maximiser) equals kl_sup to 1e-30 for eps0 in {0.01, 0.3, 2}.",
              (Compare(_kl_sup_term, "eq", _kl_bb, grid(eps0=["0.01", "0.3", "2"]), "numeric",
                       Tol.abs("1e-30"), "kl_sup(eps0)", "max_t KL(RR_{eps0,t})"),),
              scope="instance"),
        Claim(2, "The two closed forms of kl_sup agree (relative 1e-40) at eps0 in {0.001, 0.01, "
                 "0.3, 2, 5}.",
              (Compare(_kl_sup_term, "eq", _kl_sup_alt_term,
                       grid(eps0=["0.001", "0.01", "0.3", "2", "5"]), "numeric",
                       Tol.rel("1e-40"), "x - 1 - ln x",
                       "ln((e^eps0-1)/eps0) - 1 + eps0/(e^eps0-1)"),),
              scope="instance"),
        Claim(3, "kl_sup(1e-3)/(1e-6/8) = 1 within 1e-3 (eps0^2/8 asymptotics).",
              (Compare(_kl_ratio, "eq", _c(1), points({}), "numeric", Tol.abs("1e-3"),
                       "kl_sup(1e-3)/(1e-6/8)", "1"),),
              scope="instance"),
        Claim(4, "Ordering DDR-T5.eps <= DDR-C31.eps <= DR19-BR.eps_kovkl <= DR19-BR.eps (each "
                 f"clipped at k eps0), certified at every point of {ORDER_TEXT}.",
              (_order_check(_mgf_raw, _optkl_raw, "DDR-T5.eps <= DDR-C31.eps"),
               _order_check(_optkl_raw, _kovkl_raw, "DDR-C31.eps <= DR19-BR.eps_kovkl"),
               _order_check(_kovkl_raw, _dr19_raw, "DR19-BR.eps_kovkl <= DR19-BR.eps")),
              scope="instance"),
        Claim(5, "kl(eps0, t) equals the KL divergence of the two output laws of RR_{eps0,t}: an "
                 "identity (z3) once the log-ratios are t and t - eps0 (DDR-D24), and "
                 "numerically (1e-45) at (eps0, t) in {(0.5, 0.1), (1.3, 0.9), (0.2, 1e-4)}.",
              (Smt(_kl_identity_problem, "p t + (1-p)(t - eps0) = t - eps0 (Y-1)/(X-1)"),
               Compare(_kl_t_term, "eq", _kl_direct_term, D24_POINTS, "numeric",
                       Tol.abs("1e-45"), "kl(eps0, t)", "p ln(p/q) + (1-p) ln((1-p)/(1-q))"))),
    ),
    notes="Compared with DRV-ADV (bias k eps0 (e^eps0 - 1), about k eps0^2) the KL term (about "
          "k eps0^2/8) is 8 times smaller for small eps0. The expression matches public code "
          "citing Prop. 4 of the ICML version.",
)


@exact_params("eps0", "lam")
def _mgf_closed(ctx: Any, eps0: Any, lam: Any, **_: Any) -> Any:
    E0, L = to_ctx(ctx, eps0), to_ctx(ctx, lam)
    return ctx.exp(mgf_log_m(ctx, E0, L))


@exact_params("eps0", "lam")
def _mgf_bb(ctx: Any, eps0: Any, lam: Any, **_: Any) -> Any:
    """``max_t h(t)``, ``h = p_t e^{lam t} + (1 - p_t) e^{lam (t - eps0)} = e^{lam t}(e^{-lam eps0}
    + A) - A e^{(lam+1) t - eps0}`` (branch and bound over [0, eps0])."""
    e, lam_ = Fraction(eps0), Fraction(lam)
    E0, L = ctx.num(e), ctx.num(lam_)
    A = ctx.expm1(-L * E0) / ctx.expm1(-E0)
    B = ctx.exp(-L * E0) + A

    def parts(T: Any) -> tuple[Any, Any, Any]:
        u = ctx.exp(L * T)
        v = ctx.exp((L + 1) * T - E0)
        return (u * B - A * v, L * u * B - (L + 1) * A * v,
                L * L * u * B - (L + 1) * (L + 1) * A * v)

    @functools.lru_cache(maxsize=4096)
    def value(t: Fraction) -> Any:
        return parts(ctx.num(t))[0]

    @functools.lru_cache(maxsize=4096)
    def slope(t: Fraction) -> Any:
        return parts(ctx.num(t))[1]

    def enclose(a: Fraction, b: Fraction) -> tuple[Any, Any, Any]:
        u = monotone_span(lambda s: ctx.exp(L * ctx.num(s)), a, b)
        v = monotone_span(lambda s: ctx.exp((L + 1) * ctx.num(s) - E0), a, b)
        return (u * B - A * v, L * u * B - (L + 1) * A * v,
                L * L * u * B - (L + 1) * (L + 1) * A * v)

    return bb_maximize(ctx, value, enclose, Fraction(0), e, slope)


@exact_params("eps0", "delta")
def _t3_at_mgf(ctx: Any, eps0: Any, k: int, delta: Any, **_: Any) -> Any:
    """DDR-T3.delta at eps = DDR-T5.eps (at the lower end of its enclosure: DDR-T3 is
    nonincreasing in eps)."""
    x = mgf_eps(ctx, eps0, k, delta)
    return t3_delta(ctx, eps0, k, _lower_exact(ctx, x))


@exact_params("eps0", "delta")
def _t5_round_trip(ctx: Any, eps0: Any, k: int, delta: Any, **_: Any) -> Any:
    """``T5.delta`` at the midpoint of ``T5.eps`` (a point within 2^-prec of it)."""
    e = mgf_eps(ctx, eps0, k, delta)
    return mgf_delta(ctx, eps0, k, _lower_exact(ctx, e))


def _t5_unclipped(point: Any) -> bool:
    from dpverify.theorems.formulas.br_figure1 import _FP

    e0, k, d = point["eps0"], point["k"], point["delta"]
    return bool(mgf_eps(_FP, Fraction(e0), k, Fraction(d)) < 0.999 * k * float(e0))


DDR_T5 = Theorem(
    id="DDR-T5",
    title="Theorem 5: MGF bound for adaptive BR composition",
    family=FAMILY,
    source=cite(DDR, "Thm 5"),
    types=("BOUND",),
    confidence=("DERIVED", "UNCERTAIN"),
    statement="(Reconstruction) eps(delta) = inf_{lam > 0} (k ln M(lam) + ln(1/delta))/lam (min "
              "with k eps0), M(lam) = sup_{t in [0, eps0]} (p_t e^{lam t} + (1 - p_t) e^{lam (t - "
              "eps0)}), attained at t*(lam) = eps0 + ln(lam (e^{-lam eps0} + A)/(A (1 + lam))), A "
              "= (1 - e^{-lam eps0})/(1 - e^{-eps0}), clipped to [0, eps0]: the Chernoff bound on "
              "the adaptive privacy-loss martingale. MGF <= OptKL (Hoeffding's lemma).",
    domain="eps0 > 0, k >= 1 integer, delta in (0, 1)",
    evaluators=(
        Evaluator("eps", (EPS0_BR, K, DELTA), mgf_eps,
                  "min(k eps0, inf_lam (k ln M(lam) + ln(1/delta))/lam)"),
        Evaluator("delta", (EPS0_BR, K, EPS_REAL), mgf_delta,
                  "min(1, inf_lam exp(k ln M(lam) - lam eps)) (derived)"),
    ),
    claims=(
        Claim(1, "The closed-form t* attains the sup over t of the MGF (rigorous branch and "
                 "bound over [0, eps0]) to relative 1e-28 at (eps0, lam) in {(0.5, 3), (0.1, 40), "
                 "(2.0, 0.7)}.",
              (Compare(_mgf_closed, "eq", _mgf_bb,
                       points({"eps0": "0.5", "lam": "3"}, {"eps0": "0.1", "lam": "40"},
                              {"eps0": "2.0", "lam": "0.7"}),
                       "numeric", Tol.rel("1e-28"), "h(t*(lam))", "max_t h(t)"),),
              scope="instance"),
        Claim(2, "Validity: the rigorous adaptive upper bound (DDR-L32 UB, N = 1000) at eps = "
                 "DDR-T5.eps(0.5, k, delta) is <= delta for k <= 6 and delta in {0.1, 0.01, "
                 "0.001}, certified at all 18 points.",
              (Compare(_ub_at(_mgf_bound), "le", _delta_term, _ub_points(), "numeric",
                       lhs_name="UB at DDR-T5.eps", rhs_name="delta"),),
              scope="instance"),
        Claim(3, "DDR-T3.delta(eps0, k, DDR-T5.eps(eps0, k, delta)) <= delta for (eps0, k, delta) "
                 "in {(0.1, 50, 1e-6), (0.5, 20, 1e-6), (0.1, 300, 1e-6), (0.01, 2000, 1e-6)}.",
              (Compare(_t3_at_mgf, "le", _delta_term,
                       points({"eps0": "0.1", "k": 50, "delta": "1e-6"},
                              {"eps0": "0.5", "k": 20, "delta": "1e-6"},
                              {"eps0": "0.1", "k": 300, "delta": "1e-6"},
                              {"eps0": "0.01", "k": 2000, "delta": "1e-6"}),
                       "numeric", lhs_name="DDR-T3.delta at DDR-T5.eps", rhs_name="delta"),),
              scope="instance"),
        Claim(4, f"DDR-T5.eps <= DDR-C31.eps, certified at every point of {ORDER_TEXT} (as "
                 "DDR-C31 claim 4).",
              (_order_check(_mgf_raw, _optkl_raw, "DDR-T5.eps <= DDR-C31.eps"),),
              scope="instance"),
        Claim(5, "M(lam) is the sup over t: ln h(t) = mgf_log_h(eps0, lam, t) <= mgf_log_m(eps0, "
                 "lam) + 1e-40 for eps0 in [0.01, 3], lam in [0.01, 50], t = a eps0 with a in [0, "
                 "1] (property search); proved for every eps0 > 0 and lam > 0 by z3: ln h is "
                 "concave in t on [0, eps0] (d^2/dt^2 ln h <= 0 for 1 <= e^t <= e^eps0) and "
                 "d/dt ln h = 0 at the unclipped closed-form t*, so the clipped t* of "
                 "mgf_log_m is the maximiser on [0, eps0] (both derivatives of the same formula "
                 "body by sympy, X = e^eps0, U = e^(-lam eps0), Y = e^t).",
              (Compare(mgf_log_h_at, "le", _plus(mgf_log_m_term, _tiny(40)),
                       Box(reals={"eps0": ("1/100", "3"), "lam": ("1/100", "50"), "a": ("0", "1")},
                           log_scale=frozenset({"lam"})), "property",
                       lhs_name="ln h(a eps0)", rhs_name="ln M(lam) + 1e-40"),
               Smt(lambda: mgf_problem("concave"), "d^2/dt^2 ln h(t) <= 0 on [0, eps0]"),
               Smt(lambda: mgf_problem("stationary"), "d/dt ln h = 0 at the unclipped t*"))),
        Claim(6, "Round trip of the two evaluators: DDR-T5.delta(eps0, k, DDR-T5.eps(eps0, k, "
                 "delta)) = delta (relative 1e-20; by Chernoff duality: every lam gives k ln M - "
                 "lam eps >= ln delta at eps = eps(delta), with equality at its minimiser) for "
                 "eps0 in [0.01, 1], k in {1..100}, delta in [1e-12, 0.5] where eps(delta) < "
                 "k eps0 "
                 "(unclipped); property search only (the minimisation over lam has no closed "
                 "form).",
              (Compare(_t5_round_trip, "eq", _delta_term,
                       Box(reals={"eps0": ("1/100", "1"), "delta": ("1e-12", "1/2")},
                           ints={"k": (1, 100)}, log_scale=frozenset({"eps0", "delta"}),
                           constraint=_t5_unclipped), "property", Tol.rel("1e-20"),
                       "DDR-T5.delta(eps0, k, DDR-T5.eps(eps0, k, delta))", "delta"),)),
    ),
    notes="The paper's display could not be read; the Chernoff reconstruction is implemented. "
          "Every lam gives a valid bound, so the golden-section lam (over ln lam in [-14, 10]) "
          "keeps the value sound; it is within the working precision of the infimum. For small "
          "eps0 the MGF bound is only marginally better than OptKL (3524 vs 3522 queries at "
          "eps0 = 0.1, budget 20).",
)


def _het_equal(ctx: Any, eps0: Any, k: int, delta: Any, **_: Any) -> Any:
    return dr19_eps_het(ctx, [eps0] * k, delta)


def _dr19_raw_term(ctx: Any, eps0: Any, k: int, delta: Any, **_: Any) -> Any:
    return dr19_eps_raw(ctx, eps0, k, delta)


DR19_BR = Theorem(
    id="DR19-BR",
    title='The "DR19" bound of DDR Figure 1',
    family=FAMILY,
    source=cite(DR19, "as plotted in [DDR] arXiv 1909.13830, Fig. 1; the original [DR19] "
                "bound not verified"),
    types=("BOUND",),
    confidence=("UNCERTAIN",),
    statement="[DDR] says [DR19] used Azuma-Hoeffding with the BR range (eps0 instead of 2 eps0) "
              "but did not improve the KL term. Reconstruction (DRV bias plus BR Azuma): eps = "
              "min{k eps0, k eps0 (e^eps0 - 1) + eps0 sqrt((k/2) ln(1/delta))}; heterogeneous: "
              "sum_i eps_i (e^eps_i - 1) + sqrt((1/2) sum_i eps_i^2 ln(1/delta)). Alternative: "
              "bias k eps0 (e^eps0 - 1)/(e^eps0 + 1).",
    domain="eps0 > 0, k >= 1 integer, delta in (0, 1)",
    evaluators=(
        Evaluator("eps", (EPS0_BR, K, DELTA), dr19_eps,
                  "min(k eps0, k eps0 (e^eps0 - 1) + eps0 sqrt((k/2) ln(1/delta)))"),
        Evaluator("eps_het", (replace(EPS_LIST, element=replace(EPS_LIST.element, lo_open=True)),
                              DELTA), dr19_eps_het,
                  "sum_i eps_i (e^eps_i - 1) + sqrt((1/2) sum_i eps_i^2 ln(1/delta))"),
        Evaluator("eps_kovkl", (EPS0_BR, K, DELTA), dr19_eps_kovkl,
                  "min(k eps0, k eps0 (e^eps0-1)/(e^eps0+1) + eps0 sqrt((k/2) ln(1/delta)))"),
    ),
    claims=(
        Claim(1, f"Ordering DDR-C31.eps <= DR19-BR.eps_kovkl <= DR19-BR.eps on {ORDER_TEXT} "
                 "(see DDR-C31 claim 4), certified at every point.",
              (_order_check(_optkl_raw, _kovkl_raw, "DDR-C31.eps <= DR19-BR.eps_kovkl"),
               _order_check(_kovkl_raw, _dr19_raw, "DR19-BR.eps_kovkl <= DR19-BR.eps")),
              scope="instance"),
        Claim(2, "eps_het with k equal entries equals the unclipped homogeneous value (relative "
                 "1e-40), searched on eps0 in [0.01, 2], k in {1..20}, delta in [1e-12, 0.5]. "
                 "Proved exactly by z3 for every k in {1..20}, every eps0 > 0 and every delta in "
                 "(0, 1), from both formula bodies in the sym context (square roots as "
                 "auxiliary variables).",
              (Compare(_het_equal, "eq", _dr19_raw_term,
                       Box(reals={"eps0": ("0.01", "2"), "delta": ("1e-12", "0.5")},
                           ints={"k": (1, 20)}, log_scale=frozenset({"eps0", "delta"})),
                       "property", Tol.rel("1e-40"), "eps_het((eps0,)*k, delta)",
                       "k eps0 (e^eps0 - 1) + eps0 sqrt((k/2) ln(1/delta))"),
               *(Smt(lambda lo=lo: dr19_het_equal_problem(range(lo, lo + 5)),
                     f"eps_het((eps0,)*k, delta) = eps_raw(eps0, k, delta) for k in "
                     f"{{{lo}..{lo + 4}}}, every eps0 > 0, delta = e^-L, L > 0")
                 for lo in (1, 6, 11, 16)))),
        Claim(3, "Soundness for BR mechanisms: the DDR-L32 upper bound (N = 1000) at eps = "
                 "DR19-BR.eps(0.5, k, delta) is <= delta for k <= 6, delta in {0.1, 0.01, 0.001}.",
              (Compare(_ub_at(_dr19_bound), "le", _delta_term, _ub_points(), "numeric",
                       lhs_name="UB at DR19-BR.eps", rhs_name="delta"),),
              scope="instance"),
    ),
    notes="Open question: the original [DR19] bound. The DRV-KL variant alone reproduces the "
          "three ratios claimed in [DDR]'s introduction (DDR-FIG1).",
)
