"""Tester's power on the closed-form shuffle bounds (EFMRTT19, BBGN19-BLANKET, FMT21-CLONES):
a planted wrong formula, patched into :mod:`dpverify.theorems.formulas.shuffle_bounds`, must make
the REGISTERED claim come out ``failed`` (certified counterexample or confirmed z3 model),
while the correct formula leaves the same check proved or certified.

Planted:
- FMT21 Thm 3.1 with tanh(eps0) for (e^eps0 - 1)/(e^eps0 + 1) = tanh(eps0/2): the SMT proof of
  eps <= eps_code (claim 2) finds a model;
- EFMRTT19 delta with the constant 6 for 12: the z3 round trip (claim 2) fails;
- the k-ary RR blanket probability without its numerator k: the generic bound no longer
  dominates the RR bound (claim 6, P part, the z3 model confirmed in mpmath). (Planted generic
  constants with e^{-eps0/2} or with sinh(eps0/2) are NOT caught there: the generic bound still
  dominates the RR one with them, so the check stays inconclusive at z3's model, as it must.)
- the RR blanket range without its factor k: the exact shuffled RR oracle at n = 200 exceeds
  the bound (claim 2, soundness) — caught by an exact lower bound, not by a stored number;
- the Hoeffding exponent -a^2/b^2 for -2a^2/b^2: the configuration-A worked values (claim 1).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

import dpverify.theorems.formulas.shuffle_bounds as sb
from dpverify.theorems import get
from dpverify.verifiers.dispatch import PROFILES, run_claim_check
from dpverify.verifiers.verdict import Status


def wrong_fmt21_eps_value(ctx: Any, eps0: Any, n: Any, delta: Any) -> Any:
    nn = sb._num(ctx, n)
    x = ctx.exp(eps0)
    return ctx.log1p(ctx.tanh(eps0) * 8 * (ctx.sqrt(x * ctx.log(4 / delta) / nn) + x / nn))


def wrong_efmrtt19_delta_value(ctx: Any, eps0: Any, n: Any, eps: Any) -> Any:
    r = eps / (6 * eps0)
    return ctx.exp(-sb._num(ctx, n) * r * r)


def wrong_rr_gamma(ctx: Any, eps0: Any, k: Any) -> Any:
    return 1 / (ctx.exp(eps0) + sb._num(ctx, k) - 1)


def wrong_rr_constants(ctx: Any, eps0: Any, k: Any, eps: Any) -> tuple[Any, Any]:
    kk = sb._num(ctx, k)
    one_minus_gamma = ctx.expm1(eps0) / (ctx.exp(eps0) + kk - 1)
    return sb.rr_blanket_gamma(ctx, eps0, kk), one_minus_gamma * (ctx.exp(eps) + 1)


def wrong_log_parts(ctx: Any, gamma_lb: Any, b: Any, eps: Any) -> tuple[Any, Any]:
    a = ctx.expm1(eps)
    return (ctx.log(b * b / (4 * a * gamma_lb)),
            ctx.log1p(gamma_lb * ctx.expm1(-a * a / (b * b))))


# (planted function name, replacement, theorem, claim, check index)
CASES: list[tuple[str, Callable[..., Any], str, int, int]] = [
    ("fmt21_eps_value", wrong_fmt21_eps_value, "FMT21-CLONES", 2, 0),
    ("efmrtt19_delta_value", wrong_efmrtt19_delta_value, "EFMRTT19", 2, 0),
    ("rr_blanket_gamma", wrong_rr_gamma, "BBGN19-BLANKET", 6, 0),
    ("rr_blanket_constants", wrong_rr_constants, "BBGN19-BLANKET", 2, 0),
    ("blanket_log_parts", wrong_log_parts, "BBGN19-BLANKET", 1, 0),
]
NAMES = ["fmt21_tanh_eps0", "efmrtt19_constant_6", "rr_gamma_without_k", "rr_range_without_k",
         "hoeffding_exponent_halved"]


@pytest.fixture
def planted(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    name, wrong = request.param
    monkeypatch.setattr(sb, name, wrong)
    yield


def _status(theorem: str, claim: int, check: int) -> Status:
    return run_claim_check(get(theorem), claim, check, PROFILES["quick"]).status


@pytest.mark.parametrize(("planted", "case"), [((c[0], c[1]), c) for c in CASES],
                         ids=NAMES, indirect=["planted"])
def test_planted_wrong_formula_is_caught(planted: None, case: Any) -> None:
    _, _, theorem, claim, check = case
    assert _status(theorem, claim, check) is Status.FAILED


@pytest.mark.parametrize("case", CASES, ids=NAMES)
def test_correct_formula_is_not_refuted(case: Any) -> None:
    _, _, theorem, claim, check = case
    assert _status(theorem, claim, check) in (Status.PROVED, Status.CERTIFIED)
