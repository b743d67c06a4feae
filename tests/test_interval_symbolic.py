"""The interval route's symbolic derivative engine: what it builds and what it simplifies."""

from __future__ import annotations

from typing import Any

import sympy as sp

from dpverify.theorems.claims import Box, Compare
from dpverify.verifiers.interval import pruning, verify_box
from dpverify.verifiers.interval.derivatives import (
    EXPANSION_ESTIMATE_MARGIN,
    MAX_DERIVATIVE_NODES,
    SIMPLIFY_SECONDS,
    _expanded_size_estimate,
    _size,
)
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


def test_thorough_simplifications_are_counted_not_timed(monkeypatch):
    # a fake CPU clock that advances only inside sympy.simplify: how many thorough
    # simplifications a check makes must not depend on how long each one takes
    clock, cost = [0.0], [0.0]
    calls: list[Any] = []
    real = sp.simplify

    def slow_simplify(e: Any, *a: Any, **k: Any) -> Any:
        calls.append(e)
        clock[0] += cost[0]
        return real(e, *a, **k)

    monkeypatch.setattr(sp, "simplify", slow_simplify)
    monkeypatch.setattr(pruning.time, "process_time", lambda: clock[0])
    x = sp.Symbol("x", positive=True)
    # each normal form is exp(i*x), 4 nodes, charged 16: an allowance of 5 of them
    forms = [sp.log(x**2) - 2 * sp.log(x) + sp.exp(i * x) for i in range(2, 10)]
    monkeypatch.setattr(pruning, "SIMPLIFY_WORK", 5 * 4**2)
    for cost[0] in (0.5, 0.01):  # 0.5 s each: the former 1 CPU-s allowance stopped after 2
        calls.clear()
        pruner = _Pruner(Compare(_zero, "ge", _zero, BOX, "interval"), BOX, {})
        pruner._simplify(x, thorough=True)  # an atom cannot shrink: not simplified, not charged
        for f in forms:
            pruner._simplify(f, thorough=True)
        assert [_size(c) for c in calls] == [4] * 5 and pruner.simplify_work == 80
    # the CPU-time guard still stops simplifications that would hang the check
    calls.clear()
    cost[0] = SIMPLIFY_SECONDS
    pruner = _Pruner(Compare(_zero, "ge", _zero, BOX, "interval"), BOX, {})
    for f in forms:
        pruner._simplify(f, thorough=True)
    assert len(calls) == 1


def test_hopeless_expansions_are_skipped_by_their_estimate(monkeypatch):
    expanded: list[Any] = []
    real = sp.expand
    monkeypatch.setattr(sp, "expand", lambda e, *a, **k: expanded.append(e) or real(e, *a, **k))
    x, y, z = sp.symbols("x y z", positive=True)
    pruner = _Pruner(Compare(_zero, "ge", _zero, BOX, "interval"), BOX, {})
    # 11 terms to the 6th power: 8008 terms, estimated far over 4 times the size rule's limit
    big = (1 + x + y + z + x * y + y * z + x * z + sp.log(x) + sp.exp(y) + x**2 + y**2) ** 6
    assert _expanded_size_estimate(big) > EXPANSION_ESTIMATE_MARGIN * (2 * _size(big) + 20)
    assert pruner._simplify(big) == sp.powsimp(big, combine="exp")
    assert expanded == []
    # a small product is expanded as before (the rule then decides on the expanded form)
    small = (x + 1) * (x - 1) + sp.exp(x) * sp.exp(y)
    assert pruner._simplify(small) == x**2 - 1 + sp.exp(x + y)
    assert expanded == [small]


def test_expansion_estimate_counts_distributed_terms():
    x, y, d = sp.symbols("x y d", positive=True)
    assert _expanded_size_estimate(x) == 1
    # (x + y)(x + 2): 4 terms of 3 nodes each, and their Add
    assert _expanded_size_estimate((x + y) * (x + 2)) == 13
    # (x + y)^3: 4 terms; log of a product splits into one log per factor
    assert _expanded_size_estimate((x + y) ** 3) > _expanded_size_estimate((x + y) ** 2)
    assert (_expanded_size_estimate(sp.log(sp.Rational(5, 4) / d))
            > _expanded_size_estimate(sp.log(d)))
