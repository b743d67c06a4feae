"""Tester's power on the bounded_range family's universal claims: planted wrong formulas must
come out ``failed`` (certified counterexample or confirmed z3 model) on the same boxes and
problems that the registered claims use, while the correct versions pass or are proved.

Planted:
- the exponential mechanism with scale eps/Delta_u (the factor 2 dropped), claimed eps-BR;
- the BR window computed as the DP level max |lr| (a one-sided error: it is <= the window);
- the mixture witness with eps + |t1 - t2|/2;
- the equal-t Lemma 3.1 sum without the binomial coefficients;
- the MGF maximiser t* without the factor lam (so M(lam) is not the sup).
"""

from __future__ import annotations

from typing import Any

import flint
import pytest
import sympy as sp

from dpverify.theorems.bounded_range import game_boxes as gb
from dpverify.theorems.bounded_range import pair_boxes as pb
from dpverify.theorems.bounded_range.terms import _c, _tiny
from dpverify.theorems.claims import Box, Check, Compare, Smt, SmtProblem, Tol
from dpverify.theorems.formulas.bounded_range import (
    _em_laws,
    _ipow,
    br_window,
    dp_level,
    grr_1mp,
    grr_p,
    grr_pair,
    range_of,
    sensitivity_of,
)
from dpverify.verifiers.verdict import Status
from tests.common.planted import planted_verdict


def _run(check: Check) -> tuple[Status, dict]:
    v = planted_verdict(check, "bounded_range")
    return v.status, v.evidence


def _zero(ctx: Any, **_: Any) -> Any:
    return ctx.zero


def _em_gap_no_factor_two(ctx: Any, eps: Any, **kw: Any) -> Any:
    u = tuple(kw[f"u{i}"] for i in range(pb.N_OUT))
    v = tuple(a + kw[f"d{i}"] for i, a in enumerate(u))
    sens = sensitivity_of((u, v), ((0, 1),))
    if sens == 0:
        return -ctx.num(eps)
    p, q = _em_laws(ctx, ([ctx.num(a) for a in u], [ctx.num(b) for b in v]),
                    ctx.num(eps) / ctx.num(sens))
    return br_window(ctx, p, q) - ctx.num(eps)


_em_gap_no_factor_two.exact_params = ("eps", *(f"{c}{i}" for c in "ud"  # type: ignore
                                              for i in range(pb.N_OUT)))


def test_exponential_mechanism_without_factor_two_fails() -> None:
    check = Compare(_em_gap_no_factor_two, "le", _zero, Box(reals=pb.UTIL_BOX_REALS),
                    "property")
    status, ev = _run(check)
    assert status is Status.FAILED, ev


def test_exponential_mechanism_with_factor_two_passes() -> None:
    check = Compare(pb.em_gap("sens", br_window), "le", _c(_tiny(40)),
                    Box(reals=pb.UTIL_BOX_REALS), "property")
    assert _run(check)[0] is Status.PASSED


def _window(ctx: Any, p: Any, q: Any, **_: Any) -> Any:
    return br_window(ctx, p, q)


def _dp_as_window(ctx: Any, p: Any, q: Any, **_: Any) -> Any:
    return dp_level(ctx, p, q)


def test_dp_level_planted_as_br_window_fails_the_two_sided_check() -> None:
    check = Compare(pb.on_pair(_window), "eq", pb.on_pair(_dp_as_window), pb.PAIR_BOX,
                    "property", Tol.abs("1e-40"))
    assert _run(check)[0] is Status.FAILED


def _wrong_d26_problem() -> SmtProblem:
    right = pb.d26_problem()
    e, t1, t2 = sp.symbols("eps t1 t2", positive=True)
    return SmtProblem(right.variables, right.hypotheses,
                      sp.Eq(right.goal.lhs, e + sp.Abs(t1 - t2) / 2), right.substitutions)


def test_mixture_witness_with_half_gap_is_refuted_by_z3() -> None:
    status, ev = _run(Smt(_wrong_d26_problem, "planted: eps + |t1 - t2|/2"))
    assert status is Status.FAILED, ev
    assert _run(Smt(pb.d26_problem, "eps + |t1 - t2|"))[0] is Status.PROVED


def _no_binomial(ctx: Any, eps0: Any, k: int, a: Any, eps: Any, **_: Any) -> Any:
    """sum_i (p^{k-i}(1-p)^i - e^eps q^{k-i}(1-q)^i)_+ WITHOUT C(k, i)."""
    from fractions import Fraction

    e0 = ctx.num(eps0)
    t = ctx.num(Fraction(a) * Fraction(eps0))
    (p, r), (q, s) = grr_pair(ctx, e0, t)
    z = ctx.exp(eps)
    return ctx.fsum(ctx.pos(_ipow(p, k - i) * _ipow(r, i) - z * _ipow(q, k - i) * _ipow(s, i))
                    for i in range(k + 1))


_no_binomial.exact_params = ("eps0", "a")  # type: ignore[attr-defined]


def test_l31_sum_without_binomial_coefficients_fails() -> None:
    box = Box(reals={"eps0": ("1/20", "2"), "a": ("0", "1"), "eps": ("-2", "3")},
              ints={"k": (2, 8)})
    check = Compare(_no_binomial, "eq", gb.l31_enumeration, box, "property", Tol.abs("1e-40"))
    assert _run(check)[0] is Status.FAILED


def _log_m_wrong_t_star(ctx: Any, eps0: Any, lam: Any, **_: Any) -> Any:
    """ln h at t* = eps0 + ln((e^{-lam eps0} + A)/(A (1 + lam))): the factor lam dropped."""
    A = ctx.expm1(-lam * eps0) / ctx.expm1(-eps0)
    t = eps0 + ctx.log((ctx.exp(-lam * eps0) + A) / (A * (1 + lam)))
    t = ctx.max(ctx.zero, ctx.min(eps0, t))
    return lam * t + ctx.log(grr_p(ctx, eps0, t) + grr_1mp(ctx, eps0, t)
                             * ctx.exp(-lam * eps0))


@pytest.mark.parametrize("right", [False, True])
def test_mgf_sup_with_a_wrong_maximiser_fails(right: bool) -> None:
    box = Box(reals={"eps0": ("1/100", "3"), "lam": ("1/100", "50"), "a": ("0", "1")},
              log_scale=frozenset({"lam"}))
    rhs = gb.mgf_log_m_term if right else _log_m_wrong_t_star

    def plus(ctx: Any, **kw: Any) -> Any:
        from fractions import Fraction

        return rhs(ctx, **kw) + ctx.num(Fraction(1, 10**40))

    status, ev = _run(Compare(gb.mgf_log_h_at, "le", plus, box, "property"))
    assert status is (Status.PASSED if right else Status.FAILED), ev


def test_range_of_accepts_sympy_max() -> None:
    u = sp.symbols("u0:2", real=True)
    rows = (tuple(u), (u[0] + 1, u[1]))
    rg = range_of(rows, ((0, 1),), mx=sp.Max, mn=sp.Min)
    assert sp.simplify(rg - 1) == 0


def test_the_stationarity_proof_reads_the_formula_body(monkeypatch: pytest.MonkeyPatch) -> None:
    """The z3 problem of DDR-T5 claim 5 is built from ``mgf_t_star`` itself: planting the
    maximiser without the factor lam turns the proof into a refutation."""
    from dpverify.theorems.formulas import br_bounds

    assert _run(Smt(lambda: gb.mgf_problem("stationary"), "t*"))[0] is Status.PROVED

    def wrong_t_star(ctx: Any, eps0: Any, lam: Any) -> Any:
        A = ctx.expm1(-lam * eps0) / ctx.expm1(-eps0)
        t = eps0 + ctx.log((ctx.exp(-lam * eps0) + A) / (A * (1 + lam)))
        return ctx.max(ctx.zero, ctx.min(eps0, t))

    monkeypatch.setattr(br_bounds, "mgf_t_star", wrong_t_star)
    status, ev = _run(Smt(lambda: gb.mgf_problem("stationary"), "planted t*"))
    assert status is Status.FAILED, ev


def _sign_blind_objective(ctx: Any, eps0: Any, k: int, eps: Any) -> Any:
    """The branch and bound's objective with right but needlessly wide enclosures: every
    derivative enclosure hulled with 0, no second derivative, no slope at points (what a term
    of decided sign treated as undecided gives)."""
    from dpverify.theorems.formulas.ddr_composition import _lemma31_objective

    value, enclose, _ = _lemma31_objective(ctx, eps0, k, eps)

    def blind(a: Any, b: Any) -> Any:
        rng, der, _ = enclose(a, b)
        return rng, flint.arb(der).union(0), None

    return value, blind, lambda t: None


@pytest.mark.parametrize("planted", [False, True])
def test_ddr_t3_taylor_guard_sees_a_sign_blind_derivative_enclosure(
        planted: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    from dpverify.theorems import get
    from dpverify.theorems.bounded_range import mutation_guards

    if planted:
        monkeypatch.setattr(mutation_guards, "_lemma31_objective", _sign_blind_objective)
    check = next(c for c in get("DDR-T3").claims if c.number == 6).checks[0]
    status, ev = _run(check)
    assert status is (Status.FAILED if planted else Status.CERTIFIED), ev


@pytest.mark.parametrize("planted", [False, True])
def test_ddr_l32_branch_guard_sees_a_branch_pair_that_lost_mass(
        planted: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    from dpverify.theorems import get
    from dpverify.theorems.bounded_range import mutation_guards

    right = mutation_guards._lattice_init

    def lossy(eps0: Any, n: int, prec: int) -> Any:
        st = right(eps0, n, prec)
        st["q_arb"][1] = flint.arb(0)  # the branch 1 - p at t = eps0/N dropped
        return st

    if planted:
        monkeypatch.setattr(mutation_guards, "_lattice_init", lossy)
    check = next(c for c in get("DDR-L32").claims if c.number == 10).checks[0]
    status, ev = _run(check)
    assert status is (Status.FAILED if planted else Status.CERTIFIED), ev
