"""Region proofs of the fdp family: each SMT problem closes, and a planted wrong formula body
turns it into a refutation (so the problem is built from the code, not from a copy)."""

from __future__ import annotations

import pytest

from dpverify.theorems.claims import Smt
from dpverify.verifiers.smt.route import verify
from dpverify.verifiers.verdict import Budget, Status


def _status(build: object) -> Status:
    status, _, _ = verify(Smt(build, "test"), Budget(seconds=30))  # type: ignore[arg-type]
    return status


def test_np_characterization_is_proved_for_every_pair_on_three_outcomes() -> None:
    from dpverify.theorems.fdp.smt_pairs import characterization_problem

    assert _status(characterization_problem) is Status.PROVED


def test_np_characterization_refutes_a_planted_rejection_order(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Rejecting by INCREASING q/p (the groups reversed) gives a concave curve: refuted."""
    from dpverify.theorems.fdp import smt_pairs
    from dpverify.theorems.formulas.tradeoff_composition import np_vertices_in_order

    def reversed_order(p, q, groups, zero, one):  # type: ignore[no-untyped-def]
        return np_vertices_in_order(p, q, groups[::-1], zero, one)

    monkeypatch.setattr(smt_pairs, "np_vertices_in_order", reversed_order)
    assert _status(smt_pairs.characterization_problem) is Status.FAILED


# DRS-SUBSAMPLE's new evaluators: the registered claims 3 and 5 refute planted formulas.
def _claim_checks(theorem: str, number: int) -> tuple:  # type: ignore[type-arg]
    from dpverify.theorems import get

    return next(c for c in get(theorem).claims if c.number == number).checks


def _statuses(theorem: str, number: int) -> list[Status]:
    from tests.common.planted import planted_verdict

    return [planted_verdict(check, "fdp").status for check in _claim_checks(theorem, number)]


def test_subsample_gauss_claim_holds_and_refutes_a_planted_kink(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """x* = Phi(-mu) instead of Phi(-mu/2): the line of slope -1 starts off the curve."""
    from dpverify.theorems.fdp import subsample_pld
    from dpverify.theorems.formulas import tradeoff

    assert set(_statuses("DRS-SUBSAMPLE", 3)) <= {Status.PASSED, Status.CERTIFIED}

    def wrong(ctx, q, sigma, fpr):  # type: ignore[no-untyped-def]
        mu = 1 / sigma
        xs = ctx.ncdf(-mu)
        ys = tradeoff.subsample_gauss_fq(ctx, mu, q, xs)
        return ctx.piecewise_lt(xs, fpr, lambda: ctx.max(xs + ys - fpr, tradeoff.subsample_gauss_f(
            ctx, q, sigma, fpr)), lambda: tradeoff.subsample_gauss_fq(ctx, mu, q, fpr))

    monkeypatch.setattr(subsample_pld, "subsample_gauss_f", wrong)
    assert Status.FAILED in _statuses("DRS-SUBSAMPLE", 3)


def test_subsample_approx_claim_refutes_a_hull_without_the_inverse(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """C_q as the hull of f_q's vertices alone (f_q^{-1} forgotten): the profile at eps = 0
    and the gap at the kink change."""
    from dpverify.theorems.fdp import subsample_pld
    from dpverify.theorems.formulas import tradeoff

    assert set(_statuses("DRS-SUBSAMPLE", 5)) == {Status.CERTIFIED}

    def wrong_vertices(ctx, eps0, delta0, q):  # type: ignore[no-untyped-def]
        kink = (1 - delta0) / (1 + ctx.exp(eps0))
        f = ((ctx.zero, 1 - delta0), (kink, kink), (1 - delta0, ctx.zero), (ctx.one, ctx.zero))
        return tradeoff.lower_hull(ctx, [(a, q * b + (1 - q) * (1 - a)) for a, b in f])

    monkeypatch.setattr(subsample_pld, "subsample_approx_vertices", wrong_vertices)
    monkeypatch.setattr(tradeoff, "subsample_approx_vertices", wrong_vertices)
    assert Status.FAILED in _statuses("DRS-SUBSAMPLE", 5)


def test_clt_band_check_refutes_a_planted_composition(monkeypatch: pytest.MonkeyPatch) -> None:
    """k-fold RR vertices of the wrong eps0 (1.5 eps0): the band maxima no longer match."""
    from fractions import Fraction

    from dpverify.theorems.fdp import clt
    from dpverify.theorems.formulas.tradeoff_composition import rr_hom_vertices

    assert clt._band("0.5", 10)[0] is True
    assert clt._grid_max(None, "0.5", 10, "0.03091566") is True
    monkeypatch.setattr(clt, "_BAND_MEMO", {})
    monkeypatch.setattr(clt, "rr_hom_vertices",
                        lambda c, e, k: rr_hom_vertices(c, e * c.num(Fraction(3, 2)), k))
    assert clt._grid_max(None, "0.5", 10, "0.03091566") is False


@pytest.mark.parametrize("name", ["iff", "fenchel_young", "envelope"])
def test_profile_problems_are_proved_on_two_outcomes(name: str) -> None:
    from dpverify.theorems.fdp import smt_pairs

    build = {"iff": smt_pairs.dp_iff_fdp_problem, "fenchel_young": smt_pairs.fenchel_young_problem,
             "envelope": lambda: smt_pairs.fenchel_young_problem(envelope=True)}[name]
    assert _status(build) is Status.PROVED


@pytest.mark.parametrize("name", ["iff", "fenchel_young", "envelope"])
def test_profile_problems_refute_a_one_sided_hockey_stick(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """H_x(P||Q) without its max(0, .) clamp (sum of p_i - x q_i = 1 - x <= 0): the profile
    collapses and every statement is refuted."""
    from dpverify.theorems.fdp import smt_pairs

    def no_clamp(p, q, x, max_=max):  # type: ignore[no-untyped-def]
        return sum(pi - x * qi for pi, qi in zip(p, q, strict=True))

    monkeypatch.setattr(smt_pairs, "hockey_stick", no_clamp)
    build = {"iff": smt_pairs.dp_iff_fdp_problem, "fenchel_young": smt_pairs.fenchel_young_problem,
             "envelope": lambda: smt_pairs.fenchel_young_problem(envelope=True)}[name]
    assert _status(build) is Status.FAILED


def test_dual_max_cases_are_proved_on_two_outcomes() -> None:
    """DRS-DUALITY claim 7: every case (larger-ratio outcome, x <= r / x >= r / q = 0) closes."""
    from dpverify.theorems.fdp import smt_pairs

    for first, piece in smt_pairs.DUAL_MAX_CASES:
        assert _status(lambda f=first, p=piece: smt_pairs.dual_max_problem(f, p)) is Status.PROVED


def test_dual_max_cases_refute_the_reverse_order_profile(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """delta(x) = H_x(Q||P) instead of H_x(P||Q): its breakpoint q/p of the other outcome is not
    a candidate, and the maximum is missed."""
    from dpverify.theorems.fdp import smt_pairs
    from dpverify.theorems.formulas.tradeoff_composition import hockey_stick

    monkeypatch.setattr(smt_pairs, "hockey_stick",
                        lambda p, q, x, max_=max: hockey_stick(q, p, x, max_))
    statuses = [_status(lambda f=first, p=piece: smt_pairs.dual_max_problem(f, p))
                for first, piece in smt_pairs.DUAL_MAX_CASES]
    assert Status.FAILED in statuses
