"""Tester's power on the universal claims of privacy_loss and subsampling (issue 11): each planted
wrong formula, put in the place of the real one inside the same claim builders, must come out
``failed`` (property search, z3 model or branch and bound), while the real formula is proved or
passes on the same region.

Planted:
- the Gaussian RDP curve alpha/(3 sigma^2) in the completing-the-square identity (z3 and search);
- the k-fold Gaussian profile at sigma sqrt(k) instead of sigma/sqrt(k) against the PLD
  convolution closed form (interval and search);
- the improved RDP conversion without its log(alpha)/(alpha - 1) term in the round trip;
- the Laplace inverse with log instead of 2 log (round trip);
- the amplified eps q eps0 instead of log(1 + q(e^eps0 - 1)) against the BBG-T9 witness.
- reversed data-processing and adaptive-composition inequalities (z3 models), an adaptive bound
  without its second step (search);
- the zCDP conversion without its factor 2 and the Laplace profile at half the scale (interval);
- a wrong eta, a shifted binomial identity, a doubled joint-convexity side (z3 models) and a
  composition with k e^2/3 (interval) in the subsampling region proofs.
"""

from __future__ import annotations

from typing import Any

import pytest

from dpverify.theorems.claims import Box, Compare, Smt, Tol
from dpverify.theorems.formulas.conversions import balle_delta
from dpverify.theorems.formulas.gaussian import gauss_delta, gauss_rdp_tau
from dpverify.theorems.formulas.laplace import laplace_delta
from dpverify.theorems.privacy_loss import pld_universal
from dpverify.theorems.privacy_loss.universal import (
    GAUSS_SQUARE_BOX,
    gauss_square_smt,
    gauss_square_terms,
)
from dpverify.theorems.subsampling import universal as sub_universal
from dpverify.verifiers.verdict import Status
from tests.common.planted import planted_verdict


def _status(check: Compare | Smt) -> Status:
    return planted_verdict(check, "privacy_loss", budget_seconds=60).status


def _wrong_tau(ctx: Any, sigma: Any, alpha: Any, k: Any) -> Any:
    return (alpha - 1) * alpha / (3 * sigma**2)


def _right_tau(ctx: Any, sigma: Any, alpha: Any, k: Any) -> Any:
    return (alpha - 1) * gauss_rdp_tau(ctx, sigma, alpha)


@pytest.mark.parametrize(("side", "expected"), [(_wrong_tau, Status.FAILED),
                                                (_right_tau, Status.PROVED)])
def test_completing_the_square_smt(side, expected):
    assert _status(gauss_square_smt(side, "1", "planted")) is expected


def test_completing_the_square_search_catches_a_wrong_curve():
    lhs, rhs = gauss_square_terms(_wrong_tau, "1")
    check = Compare(lhs, "eq", rhs, GAUSS_SQUARE_BOX, "property", Tol.rel("1e-40"))
    assert _status(check) is Status.FAILED


def _comp_wrong(ctx: Any, sigma: Any, k: int, eps: Any, **_: Any) -> Any:
    return gauss_delta(ctx, sigma * ctx.sqrt(ctx.num(k)), eps)  # sigma/sqrt(k) expected


def test_composition_profile_with_a_wrong_scaling_fails():
    # more noise gives a smaller delta: the search (two-sided) and the lower-bound side of
    # the interval proof must fail; the upper-bound side is true for this mutant
    claim = pld_universal.comp_pld_universal()[0]
    for planted in claim.checks:
        if planted.op == "le":
            continue
        check = Compare(_comp_wrong, planted.op, planted.rhs, planted.region, planted.route,
                        planted.tol)
        assert _status(check) is Status.FAILED, planted.route


def _balle_no_log_alpha(ctx: Any, alpha: Any, tau: Any, delta: Any) -> Any:
    return tau + ctx.log((alpha - 1) / alpha) - ctx.log(delta) / (alpha - 1)


def test_balle_round_trip_catches_a_dropped_term():
    box = Box(reals={"alpha": ("1.0001", "10000"), "tau": ("0", "100"),
                     "delta": ("1e-30", "0.99")}, log_scale=frozenset({"alpha", "delta"}))
    check = Compare(lambda ctx, alpha, tau, delta: balle_delta(
                        ctx, alpha, tau, _balle_no_log_alpha(ctx, alpha, tau, delta)), "eq",
                    lambda ctx, delta, **_: delta, box, "property", Tol.rel("1e-30"))
    assert _status(check) is Status.FAILED


def test_laplace_round_trip_catches_a_wrong_inverse():
    def wrong_eps(ctx: Any, b: Any, delta: Any) -> Any:
        return ctx.max(ctx.zero, 1 / b + ctx.log1p(-delta))  # 2 log(1 - delta) expected

    check = Compare(lambda ctx, b, t, **_: wrong_eps(ctx, b, laplace_delta(ctx, b, t / b,
                                                                           ctx.one)),
                    "eq", lambda ctx, b, t, **_: t / b,
                    Box(reals={"b": ("0.05", "20"), "t": ("0", "0.999")}), "property",
                    Tol.rel("1e-30"))
    assert _status(check) is Status.FAILED


def test_bbg9_witness_catches_a_linearised_eps():
    claim = sub_universal.bbg9_universal()[0]
    search = claim.checks[0]
    check = Compare(search.lhs, "eq",
                    lambda ctx, eps0, n, m, **_: eps0 * m / n, search.region, "property",
                    search.tol)
    assert _status(check) is Status.FAILED
    assert _status(search) is Status.PASSED


def test_data_processing_and_adaptive_smt_refute_reversed_goals():
    import sympy as sp

    from dpverify.theorems.claims import SmtProblem
    from dpverify.theorems.privacy_loss import post_universal as post

    def flipped(build: Any) -> Smt:
        def problem() -> SmtProblem:
            p = build()
            return SmtProblem(p.variables, p.hypotheses, sp.Ge(p.goal.lhs, p.goal.rhs))
        return Smt(problem, "planted: the reversed inequality")

    assert _status(Smt(lambda: post.data_processing_problem(2), "dp")) is Status.PROVED
    assert _status(flipped(lambda: post.data_processing_problem(2))) is Status.FAILED
    assert _status(Smt(lambda: post.adaptive_problem(2), "adaptive")) is Status.PROVED
    assert _status(flipped(lambda: post.adaptive_problem(2))) is Status.FAILED


def test_adaptive_search_catches_a_dropped_second_step():
    from dpverify.theorems.privacy_loss import post_universal as post

    def first_step_only(ctx: Any, seed: int, alpha: Any, **_: Any) -> Any:
        p1, q1, _p2, _q2 = post.seeded_tree(seed)
        from dpverify.theorems.numerics.finite import renyi
        return renyi(ctx, ctx.convert(p1), ctx.convert(q1), alpha)

    check = Compare(post.tree_transcript_renyi, "le", first_step_only, post.ORDER_BOX,
                    "property")
    assert _status(check) is Status.FAILED


def test_zcdp_soundness_interval_catches_a_dropped_factor_two():
    from dpverify.theorems.privacy_loss import zcdp_conversions as zc

    def half_chernoff(ctx: Any, rho: Any, delta: Any, **_: Any) -> Any:
        eps = rho + ctx.sqrt(rho * ctx.log(1 / delta))  # rho + 2 sqrt(rho L) expected
        return gauss_delta(ctx, 1 / ctx.sqrt(2 * rho), eps)

    claim = zc.STK_ZCDP_CONV.claims[2]
    interval = next(c for c in claim.checks if c.route == "interval")
    assert _status(interval) is Status.PROVED
    planted = Compare(half_chernoff, "le", interval.rhs, interval.region, "interval")
    assert _status(planted) is Status.FAILED


def test_laplace_two_term_checks_catch_a_wrong_scale():
    from dpverify.theorems.privacy_loss import laplace as lap

    def wrong(ctx: Any, b: Any, eps: Any, **_: Any) -> Any:
        return laplace_delta(ctx, 2 * b, eps, ctx.one)  # eps0 = 1/b expected, not 1/(2b)

    claim = lap.STK_LAPLACE.claims[4]
    statuses = {check.route: [] for check in claim.checks}
    for check in claim.checks:
        assert _status(check) in (Status.PROVED, Status.PASSED), check.route
        planted = Compare(wrong, check.op, check.rhs, check.region, check.route, check.tol)
        statuses[check.route].append(_status(planted))
    assert statuses["property"] == [Status.FAILED]
    assert Status.FAILED in statuses["interval"]


def _flipped_eq(build: Any, plant: Any) -> Smt:
    """``build``'s SMT problem with its goal ``lhs == rhs`` replaced by ``lhs == plant(rhs)``."""
    import sympy as sp

    from dpverify.theorems.claims import SmtProblem

    def problem() -> SmtProblem:
        p = build()
        return SmtProblem(p.variables, p.hypotheses, sp.Eq(p.goal.lhs, plant(p.goal.rhs)))
    return Smt(problem, "planted")


def test_subsampling_smt_problems_are_proved_and_catch_planted_errors():
    import sympy as sp

    from dpverify.theorems.subsampling import amplification, analytic_rdp, howto

    assert _status(Smt(lambda: sub_universal._tail_identity_problem(5), "tail")) is Status.PROVED
    wrong_tail = Smt(lambda: _tail_with_wrong_eta(5), "planted: eta with m + 1")
    assert _status(wrong_tail) is Status.FAILED
    assert _status(Smt(lambda: analytic_rdp.identity_problem(2), "id")) is Status.PROVED
    assert _status(_flipped_eq(lambda: analytic_rdp.identity_problem(2),
                               lambda r: r + sp.Rational(1, 100))) is Status.FAILED
    assert _status(Smt(amplification.ajc_problem, "ajc")) is Status.PROVED
    assert _status(_flipped_eq(amplification.ajc_problem,
                               lambda r: 2 * r)) is Status.FAILED
    assert _status(Smt(howto._repl_witness_problem, "witness")) is Status.PROVED


def _tail_with_wrong_eta(m: int) -> Any:
    import sympy as sp

    from dpverify.theorems.claims import SmtProblem

    u = sp.Symbol("u", positive=True)
    return SmtProblem({"u": "real"}, (sp.Gt(u, 0), sp.Le(u, 1)),
                      sp.Eq(sp.expand(sub_universal.pmf_tail_sum(u, m)),
                            sp.expand(sub_universal.eta_of(u, m + 1))))


def test_subsample_comp_interval_catches_a_wrong_composition():
    from dpverify.theorems.formulas.amplification import amp_eps
    from dpverify.theorems.subsampling import relations

    def wrong(ctx: Any, eps0: Any, q: Any, k: Any, delta: Any, delta0: Any, **_: Any) -> Any:
        e = amp_eps(ctx, eps0, q)  # k e^2/2 expected
        return k * e**2 / 3 + e * ctx.sqrt(2 * k * ctx.log(1 / (delta - k * q * delta0)))

    claim = relations.STK_SUBSAMPLE_COMP.claims[0]
    intervals = [c for c in claim.checks if c.route == "interval"]
    assert [_status(c) for c in intervals] == [Status.PROVED, Status.PROVED]
    planted = [_status(Compare(c.lhs, c.op, lambda ctx, c=c, **kw: wrong(ctx, **kw)
                               + (c.rhs(ctx, **kw) - relations._via_adv_term(ctx, **kw)),
                               c.region, "interval")) for c in intervals]
    assert Status.FAILED in planted


def test_rdp_curve_orderings_refute_reversed_goals():
    import sympy as sp

    from dpverify.theorems.claims import SmtProblem
    from dpverify.theorems.privacy_loss import laplace, rdp

    def reversed_first(build: Any) -> Smt:
        def problem() -> SmtProblem:
            p = build()
            first = p.goal.args[0] if isinstance(p.goal, sp.And) else p.goal
            return SmtProblem(p.variables, p.hypotheses, sp.Ge(first.lhs, first.rhs))
        return Smt(problem, "planted: reversed")

    lap = lambda: laplace._lap_below_rr_problem(3)  # noqa: E731
    sharp = lambda: rdp._rdp_of_dp_problem(2, 2, sharp=True)  # noqa: E731
    assert _status(Smt(lap, "lap")) is Status.PROVED
    assert _status(reversed_first(lap)) is Status.FAILED
    assert _status(Smt(sharp, "sharp")) is Status.PROVED
    assert _status(reversed_first(sharp)) is Status.FAILED


def test_monotonicity_by_derivative_catches_a_wrong_profile():
    from dpverify.theorems.ctx import SymCtx
    from dpverify.theorems.privacy_loss import gaussian
    from dpverify.theorems.symbolic import partial_derivative

    def wrong(ctx: Any, sigma: Any, eps: Any, **_: Any) -> Any:
        return gauss_delta(ctx, sigma, eps) + eps / 10**6  # increasing for large eps

    claim = gaussian.BW_ANALYTIC_GAUSS.claims[2]
    intervals = [c for c in claim.checks if c.route == "interval"]
    assert [_status(c) for c in intervals] == [Status.PROVED, Status.PROVED]
    planted = partial_derivative(wrong, ("sigma", "eps"), "eps", SymCtx)
    check = Compare(planted, "lt", intervals[0].rhs, intervals[0].region, "interval")
    assert _status(check) is Status.FAILED


def test_profile_form_smt_refutes_a_reversed_bound():
    import sympy as sp

    from dpverify.theorems.claims import SmtProblem
    from dpverify.theorems.subsampling import amplification

    def reversed_remove() -> SmtProblem:
        p = amplification.profile_problem("remove", 2)
        return SmtProblem(p.variables, p.hypotheses, sp.Ge(p.goal.lhs, p.goal.rhs))

    assert _status(Smt(lambda: amplification.profile_problem("remove", 2), "r")) is Status.PROVED
    assert _status(Smt(reversed_remove, "planted: reversed")) is Status.FAILED
    assert _status(Smt(lambda: amplification.enumerated_witness_problem(3), "w")) is Status.PROVED


def test_product_pld_smt_catches_a_shifted_side():
    import sympy as sp

    from dpverify.theorems.privacy_loss import pld

    assert _status(Smt(lambda: pld.product_pld_problem(2), "product")) is Status.PROVED
    planted = _flipped_eq(lambda: pld.product_pld_problem(2), lambda r: r + sp.Rational(1, 100))
    assert _status(planted) is Status.FAILED
