"""Tester's power on the composition family: planted wrong bounds must come out ``failed`` on
the interval route, with a counterexample that an independent mpmath computation confirms;
the correct bounds on the same boxes must come out ``proved``.

Planted:
- advanced composition WITHOUT the ``k eps0 (e^eps0 - 1)`` term, claimed >= the optimum;
- the optimal composition computed with eps0/2, claimed >= the optimum.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import mpmath
import pytest

from dpverify.theorems.claims import Box, Compare
from dpverify.theorems.composition.terms import delta_of_u, drv_bound, kov_delta_at, order_box
from dpverify.theorems.core import Theorem
from dpverify.theorems.formulas.kov_mv import kov_eps
from dpverify.verifiers.dispatch import PROFILES, run_claim_check
from dpverify.verifiers.verdict import Status
from tests.common.planted import planted_theorem
from tests.test_composition import eps_bisect


def _planted(check: Compare) -> Theorem:
    return planted_theorem(check, "composition", types=("BOUND",))


def _run(check: Compare) -> tuple[Status, dict]:
    v = run_claim_check(_planted(check), 1, 0, PROFILES["quick"])
    return v.status, v.evidence


def _mp(x: str | Fraction) -> mpmath.mpf:
    f = Fraction(x)
    return mpmath.mpf(f.numerator) / f.denominator


def _no_bias(ctx, eps0, k, delta):
    """Advanced composition without its bias term: eps0 sqrt(2 k ln(1/delta))."""
    return eps0 * ctx.sqrt(2 * k * -ctx.log(delta))


def test_advanced_composition_without_bias_term_fails():
    check = Compare(kov_delta_at(_no_bias), "le", delta_of_u, order_box(), "interval",
                    lhs_name="KOV-DELTA at eps0 sqrt(2k ln(1/delta))", rhs_name="delta")
    status, ev = _run(check)
    assert status is Status.FAILED, ev
    point = ev["counterexample"]
    with mpmath.workdps(50):
        e0, k, u = _mp(point["eps0"]), int(point["k"]), _mp(point["u"])
        delta = mpmath.e ** (-u**2 / 2)
        claimed = e0 * mpmath.sqrt(2 * k * mpmath.log(1 / delta))
        optimum = eps_bisect(e0, mpmath.mpf(0), k, delta)  # an independent mpmath route
        assert optimum > claimed


def test_advanced_composition_with_bias_term_is_proved():
    box = replace(order_box(), ints={"k": (1, 12)})
    check = Compare(kov_delta_at(drv_bound), "le", delta_of_u, box, "interval")
    status, ev = _run(check)
    assert status is Status.PROVED, ev


def _half_eps0(ctx, eps0, k, delta, **_):
    return kov_eps(ctx, eps0 / 2, 0, k, delta)


def _optimum(ctx, eps0, k, delta, **_):
    return kov_eps(ctx, eps0, 0, k, delta)


@pytest.mark.parametrize("k_range", [(1, 40), (5, 5)])
def test_optimal_composition_with_half_eps0_fails(k_range):
    box = Box(reals={"eps0": ("0.01", "1"), "delta": ("1e-10", "0.1")}, ints={"k": k_range},
              log_scale=frozenset({"eps0", "delta"}))
    check = Compare(_half_eps0, "ge", _optimum, box, "interval",
                    lhs_name="KOV-EPS(eps0/2)", rhs_name="KOV-EPS(eps0)")
    status, ev = _run(check)
    assert status is Status.FAILED, ev
    point = ev["counterexample"]
    with mpmath.workdps(50):
        e0, k, d = _mp(point["eps0"]), int(point["k"]), _mp(point["delta"])
        claimed = eps_bisect(e0 / 2, mpmath.mpf(0), k, d)
        optimum = eps_bisect(e0, mpmath.mpf(0), k, d)
        assert optimum > claimed


# The smt problems are built from the formula bodies: planted formulas give problems that z3
# refutes with a model (re-checked), where the correct formulas are proved.
def _smt(build) -> Status:
    from dpverify.theorems.claims import Smt

    return run_claim_check(_planted(Smt(build, "planted")), 1, 0, PROFILES["quick"]).status


def _het_third(ctx, eps_list, delta):
    s = ctx.fsum(e**2 for e in eps_list)
    return s / 3 + ctx.sqrt(2 * -ctx.log(delta) * s)


def _unclipped_kov34(ctx, eps0, k, dt):
    from dpverify.theorems.formulas.advanced_composition import kov34_eps_tilde

    return kov34_eps_tilde(ctx, eps0, k, dt, clip=False)


def _ratio_one_term_off(ctx, eps, k, a):
    from dpverify.theorems.composition.basic import _witness_ratio

    return _witness_ratio(ctx, eps, k, a) * ctx.exp(eps / (k + 1))


def test_smt_problems_of_planted_formulas_are_refuted(monkeypatch: pytest.MonkeyPatch) -> None:
    from dpverify.theorems.composition import smt_forms
    from dpverify.theorems.composition.basic import _witness_ratio
    from dpverify.theorems.formulas.advanced_composition import kov34_eps_tilde

    assert _smt(lambda: smt_forms.stk_het_equal_problem(5)) is Status.PROVED
    assert _smt(lambda: smt_forms.clipped_problem(kov34_eps_tilde)) is Status.PROVED
    assert _smt(lambda: smt_forms.witness_ratio_problem(_witness_ratio, 5)) is Status.PROVED
    assert _smt(lambda: smt_forms.clipped_problem(_unclipped_kov34)) is Status.FAILED
    assert _smt(lambda: smt_forms.witness_ratio_problem(_ratio_one_term_off, 5)) is Status.FAILED
    monkeypatch.setattr(smt_forms, "stk_eps_het", _het_third)
    assert _smt(lambda: smt_forms.stk_het_equal_problem(5)) is Status.FAILED
