"""The foundations region proofs (theorems/foundations/region_smt.py): each z3 problem proves
its claim, and the same problem with a planted error (a dropped factor, a wrong inequality, an
abstraction that forgets the sign of the exponent) is refuted or left unproved."""

from __future__ import annotations

import dataclasses

import pytest
import sympy as sp

from dpverify.theorems.claims import Smt
from dpverify.theorems.foundations import region_smt as R
from dpverify.theorems.foundations.definition import _size_addremove_min, _size_profile
from dpverify.verifiers import smt
from dpverify.verifiers.verdict import Budget, Status


def _status(build, seconds: float = 20.0) -> Status:
    return smt.verify(Smt(build, "test"), Budget(seconds=seconds))[0]


@pytest.mark.parametrize("build", [
    R.hs_events_problem(3), R.hs_curve_problem(3, "nonincreasing"), R.hs_curve_problem(3, "ends"),
    R.hs_curve_problem(2, "convex"), R.hs_curve_problem(2, "affine"), R.group_two_problem(2),
    R.size_witness_problem(_size_profile, _size_addremove_min, 4), R.post_ratio_problem(2, 3),
    R.lap_range_problem, R.lap_tight_problem, R.ns_converse_problem,
    lambda: R.bayes_posterior_problem(1, 2),
])
def test_region_problems_are_proved(build):
    assert _status(build) is Status.PROVED


def _with_goal(build, change):
    def planted():
        problem = build()
        return dataclasses.replace(problem, goal=change(problem))
    return planted


def test_group_step_without_the_factor_is_refuted():
    # (1 + x) d -> d: the group-of-two bound is false without the factor
    def drop(problem):
        x, d = sp.Symbol("x", positive=True), sp.Symbol("d", real=True)
        return problem.goal.subs((1 + x) * d, d)
    assert _status(_with_goal(R.group_two_problem(2), drop)) is Status.FAILED


def test_reversed_monotonicity_is_refuted():
    def flip(problem):
        # H(w2) <= H(w1) planted as H(w2) > H(w1)
        return sp.Gt(problem.goal.lhs, problem.goal.rhs)
    assert _status(_with_goal(R.hs_curve_problem(2, "nonincreasing"), flip)) is Status.FAILED


def test_posterior_ratio_one_is_refuted():
    # with one record the ratio lies in [1/L, L], not at 1: L^2 -> 1 must be refuted
    def no_room(problem):
        big_l = sp.Symbol("L", positive=True)
        return problem.goal.subs(big_l**2, 1)
    assert _status(_with_goal(lambda: R.bayes_posterior_problem(1, 2), no_room)) \
        is Status.FAILED


def test_exp_abstraction_keeps_only_sound_facts():
    a = sp.Symbol("a", real=True)
    expr, hyps, syms = R.exp_abstraction(1 - sp.exp(a / 2 - a / 2 + a))
    assert syms and expr == 1 - syms[0]
    # with no sign information on a, 1 - e^a > 0 must not be provable
    from dpverify.theorems.claims import SmtProblem
    problem = SmtProblem({"a": "real", str(syms[0]): "real"}, tuple(hyps), sp.Gt(expr, 0))
    assert _status(lambda: problem) is Status.FAILED
