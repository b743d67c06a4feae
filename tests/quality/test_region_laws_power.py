"""The z3 region problems of the law identities (foundations/law_smt.py), of the finite-pair
PLD identities (privacy_loss/pld_pairs_smt.py) and of DR19-BR (bounded_range/identity_smt.py):
proved for the real formulas, refuted for planted wrong ones (so the problems are not vacuous
and do look at the formula bodies)."""

from __future__ import annotations

import pytest
import sympy as sp

from dpverify.theorems.claims import Smt
from dpverify.theorems.formulas.parallel_composition import clamped_geometric
from dpverify.theorems.foundations.law_smt import (
    adaptive_law_problem,
    bayes_em_reference_problem,
    clamped_law_problem,
)
from dpverify.theorems.numerics import finite
from dpverify.theorems.privacy_loss.pld import _finite_two_term as _two_term
from dpverify.theorems.privacy_loss.pld_pairs_smt import (
    log_abstraction,
    pure_level_iff_problem,
    reverse_moment_problem,
    two_term_problem,
    zero_patterns,
)
from dpverify.verifiers.smt.route import verify
from dpverify.verifiers.verdict import Budget, Status


def _status(build):
    return verify(Smt(build, "test"), Budget(seconds=60))[0]


def _moment(ctx, p, q, g):
    return ctx.fsum(m * g(z) for z, m in finite.privacy_loss_atoms(ctx, p, q))


@pytest.mark.parametrize("build", [
    lambda: clamped_law_problem(3, 3),
    bayes_em_reference_problem,
    lambda: adaptive_law_problem(2),
    lambda: reverse_moment_problem(lambda ctx, **_: (lambda z: z),
                                   lambda ctx, **_: (lambda z: -z), _moment, 2),
    lambda: two_term_problem(_two_term, finite.hockey_stick, 2),
    lambda: pure_level_iff_problem(finite.max_log_ratio, finite.hockey_stick_events, 2),
])
def test_region_problems_are_proved(build):
    assert _status(build) is Status.PROVED


def test_wrong_clamped_end_mass_is_refuted(monkeypatch):
    import dpverify.theorems.foundations.law_smt as law_smt

    def wrong(ctx, eps, s, lo, hi):  # the upper end without its 1/(1 + a)
        law = list(clamped_geometric(ctx, eps, s, lo, hi))
        if lo != hi:
            law[-1] = ctx.pow(ctx.exp(-eps), hi - s)
        return tuple(law)

    monkeypatch.setattr(law_smt, "clamped_geometric", wrong)
    assert _status(lambda: law_smt.clamped_law_problem(2, 2)) is Status.FAILED


def test_two_term_without_the_exponential_is_refuted():
    def wrong(ctx, p, q, eps):  # e^eps dropped in front of P[Z' < -eps]
        below = ctx.fsum(ctx.piecewise_lt(z, -eps, lambda m=m: m, lambda: ctx.zero)
                         for z, m in finite.privacy_loss_atoms(ctx, q, p))
        return _two_term(ctx, p, q, eps) + (ctx.exp(eps) - 1) * below

    assert _status(lambda: two_term_problem(wrong, finite.hockey_stick, 2)) is Status.FAILED


def test_reverse_moment_with_the_wrong_sign_is_refuted():
    build = lambda: reverse_moment_problem(  # noqa: E731
        lambda ctx, **_: (lambda z: z), lambda ctx, **_: (lambda z: z), _moment, 2)
    assert _status(build) is Status.FAILED


def test_one_sided_level_is_refuted():
    def one_sided(ctx, p, q):  # max log(P/Q) instead of max |log(P/Q)|
        return ctx.max(*(ctx.log(a / b) for a, b in zip(p, q, strict=True)))

    build = lambda: pure_level_iff_problem(one_sided, finite.hockey_stick_events, 2)  # noqa: E731
    assert _status(build) is Status.FAILED


def test_zero_patterns_and_log_abstraction():
    assert len(zero_patterns(1)) == 1 and len(zero_patterns(3)) == 8
    p, q = sp.symbols("p q", positive=True)
    (out,), logs = log_abstraction(sp.log(p / q))
    assert sp.expand(out - (logs[0] - logs[1])) == 0
    with pytest.raises(ValueError):
        log_abstraction(sp.log(p + q))


def test_dr19_het_equal_is_proved_and_a_wrong_root_is_refuted(monkeypatch):
    import dpverify.theorems.bounded_range.identity_smt as identity_smt

    assert _status(lambda: identity_smt.dr19_het_equal_problem([1, 3])) is Status.PROVED

    def wrong(ctx, eps_list, delta):  # sqrt(sum eps_i) instead of sqrt(sum eps_i^2)
        bias = ctx.fsum(e * ctx.expm1(e) for e in eps_list)
        return bias + ctx.sqrt(ctx.fsum(eps_list) * -ctx.log(delta) / 2)

    monkeypatch.setattr(identity_smt, "dr19_eps_het", wrong)
    assert _status(lambda: identity_smt.dr19_het_equal_problem([3])) is Status.FAILED


def test_c6_attainment_is_proved_and_a_loose_bound_is_refuted(monkeypatch):
    import dpverify.theorems.hypothesis_dp.universal_uniform as uu

    assert _status(lambda: uu._c6_attained_problem(2)) is Status.PROVED
    real = uu.c6_eps
    # a bound that is never attained: e^eps doubled
    monkeypatch.setattr(uu, "c6_eps", lambda ctx, e: real(ctx, e) + ctx.log(ctx.num(2)))
    assert _status(lambda: uu._c6_attained_problem(2)) is Status.FAILED


def test_par_joint_eps_is_proved_and_basic_composition_is_refuted():
    from dpverify.theorems.formulas.parallel_composition import par_eps
    from dpverify.theorems.foundations.composition import _par_counts_addremove
    from dpverify.theorems.foundations.law_smt import par_joint_eps_problem

    shapes = ((1, 1), (1, 2))
    assert _status(lambda: par_joint_eps_problem(_par_counts_addremove, par_eps, shapes)) \
        is Status.PROVED
    summed = lambda ctx, eps_list, neighboring: ctx.fsum(eps_list)  # noqa: E731
    assert _status(lambda: par_joint_eps_problem(_par_counts_addremove, summed, shapes)) \
        is Status.FAILED
