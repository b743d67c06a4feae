"""The interval route's symbolic derivative engine: what it builds and what it simplifies."""

from __future__ import annotations

from typing import Any

import sympy as sp

from dpverify.theorems.claims import Box, Compare
from dpverify.verifiers.interval import verify_box
from dpverify.verifiers.interval.derivatives import MAX_DERIVATIVE_NODES
from dpverify.verifiers.interval.pruning import _circular, _Pruner
from dpverify.verifiers.verdict import Budget, Status

BOX = Box(reals={"x": ("0", "1")})


def _sum_of_maxima(ctx: Any, x: Any, **_: Any) -> Any:
    # 40 positive parts of distinct exponentials: a symbolic form of > 1000 nodes
    total = ctx.zero
    for i in range(1, 41):
        a = ctx.exp(x * ctx.num(f"{i}/7")) * ctx.num(f"1/{i + 1}")
        b = ctx.exp(ctx.num(f"{i}/11")) * ctx.sqrt(ctx.num(i + 2)) / (1 + ctx.exp(ctx.num(i)))
        total = total + ctx.pos(a - b) + ctx.max(a, b * x)
    return total


def _zero(ctx: Any, **_: Any) -> Any:
    return ctx.zero


def test_a_form_too_large_to_differentiate_goes_to_automatic_differentiation():
    check = Compare(_sum_of_maxima, "ge", _zero, BOX, "interval")
    pruner = _Pruner(check, BOX, {})
    engine = pruner.engine({})
    assert engine is not None and engine.kind == "dual"
    assert any(f"more than {MAX_DERIVATIVE_NODES}" in n for n in pruner.notes), pruner.notes
    # decided by its size, not by a time limit: no symbolic step ran out of time
    assert not any("Timeout" in n for n in pruner.notes), pruner.notes
    status, summary, _ = verify_box(check, BOX, Budget(seconds=60, boxes=200))
    assert status is Status.PROVED, summary


def test_maxima_are_built_as_sympy_reduces_the_small_ones():
    # Max(0, t) of a nonnegative t is t: the reduction the symbolic forms rely on is kept
    def lhs(ctx: Any, x: Any, **_: Any) -> Any:
        return ctx.pos(x * x) + ctx.max(ctx.num(1), ctx.num(2))

    check = Compare(lhs, "ge", _zero, BOX, "interval")
    engine = _Pruner(check, BOX, {}).engine({})
    assert engine.kind == "sympy"
    assert not engine.g.has(sp.Max)


def test_no_thorough_simplification_of_circular_functions(monkeypatch):
    calls: list[Any] = []
    real = sp.simplify
    monkeypatch.setattr(sp, "simplify", lambda e, *a, **k: calls.append(e) or real(e, *a, **k))
    x = sp.Symbol("x", positive=True)
    pruner = _Pruner(Compare(_zero, "ge", _zero, BOX, "interval"), BOX, {})
    assert _circular(sp.tanh(x) + x) and _circular(sp.sin(x)) and not _circular(sp.exp(x))
    pruner._simplify(sp.log(1 + 8 * sp.tanh(x / 2)) - x, thorough=True)
    assert calls == []
    pruner._simplify(sp.log(x**2) - 2 * sp.log(x) + sp.exp(x), thorough=True)
    assert len(calls) == 1
