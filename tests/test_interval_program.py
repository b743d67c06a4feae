"""compile_interval's generated straight-line program against the recursive closures it
replaced: the same enclosure, end for end, and the same laziness of branches."""

from __future__ import annotations

import random
from fractions import Fraction

import flint
import pytest
import sympy as sp

from dpverify.theorems.ctx import arb_precision
from dpverify.verifiers.interval import Iv, compile_interval
from dpverify.verifiers.interval.enclosure import _CHAIN, _closures, _Undecided

x, y, z = sp.symbols("x y z", real=True)
_shared = sp.exp(-(x - y) ** 2 / 2) * sp.erfc(x * y + z)

EXPRESSIONS = [
    x * y + sp.Rational(1, 3) * z - 2,
    _shared + _shared**2 - sp.log(1 + _shared) + sp.sqrt(1 + _shared * x**2),
    (1 + x) ** sp.Rational(-1, 2) * (2 + y) ** sp.Rational(3, 7) + (1 + z) ** (x + 1),
    sp.Max(x, y, z**2) - sp.Min(x, y) + sp.Abs(x - y) * sp.pi + sp.E * sp.tanh(z),
    sp.loggamma(1 + x**2) + sp.polygamma(0, 2 + y) + sp.cosh(x - z) + sp.atan(y) / (3 + z),
    sp.Add(*[sp.exp(k * x) / (k + y**2) for k in range(1, 2 * _CHAIN + 5)]),
    sp.Mul(*[1 + x**2 / k for k in range(1, _CHAIN + 3)]),
    sp.Piecewise((x * _shared, x < y), (y - _shared, True)) + sp.sign(z) + sp.Heaviside(x),
]


def _boxes(n: int, seed: int) -> list[dict[str, Iv]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        env = {}
        for name in ("x", "y", "z"):
            lo = Fraction(rng.randint(-40, 40), rng.randint(1, 16))
            w = Fraction(rng.choice([0, 1, 1, 3]), rng.randint(1, 64))
            env[name] = Iv.exact(lo, lo + w)
        out.append(env)
    return out


def _same(a: flint.arb, b: flint.arb) -> bool:
    if not (a.is_finite() and b.is_finite()):
        return str(a) == str(b)
    return bool(a.mid() == b.mid() and a.rad() == b.rad())


@pytest.mark.parametrize("index", range(len(EXPRESSIONS)))
def test_program_equals_closures_end_for_end(index):
    expr = EXPRESSIONS[index]
    program = compile_interval(expr)
    closures = _closures(False)[0](expr)
    for env in _boxes(25, index):
        with arb_precision(64):
            a, b = program(env), closures(env)
        assert _same(a.lo, b.lo) and _same(a.hi, b.hi), (expr, env, a, b)


def test_program_evaluates_a_branch_only_where_its_condition_may_hold():
    undecided_inside = sp.Piecewise((x, y < 0), (-x, True))  # undecided for y in [-1, 1]
    expr = sp.Piecewise((undecided_inside, x < -5), (x**2, True))
    f = compile_interval(expr, strict_branches=True)
    env = {"x": Iv.exact(Fraction(0), Fraction(1)), "y": Iv.exact(Fraction(-1), Fraction(1))}
    with arb_precision(64):
        assert f(env).hi >= 1
        env["x"] = Iv.exact(Fraction(-7), Fraction(-6))
        with pytest.raises(_Undecided):
            f(env)


def test_program_rejects_what_the_closures_reject():
    from dpverify.theorems.ctx import Unsupported

    with pytest.raises(Unsupported):
        compile_interval(x + sp.Float(0.5))
    with pytest.raises(Unsupported):
        compile_interval(sp.sin(x) * y)
