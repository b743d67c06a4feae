"""Tester's power of the branch-and-bound improvements: a declared monotonicity is a hint that
is checked, never trusted; smear splitting and the centred form change how fast a box closes,
never the verdict. Planted unsound inequalities must be refuted with a certified
counterexample (re-evaluated independently in mpmath), their true versions proved."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from dpverify.theorems.claims import Box, Compare
from dpverify.theorems.ctx import MpCtx
from dpverify.verifiers.interval import verify_box
from dpverify.verifiers.interval.monotone import reduce_box
from dpverify.verifiers.interval.pruning import _Pruner
from dpverify.verifiers.verdict import Budget, Status


def run(lhs, op, rhs, box, **options):
    c = Compare(lhs, op, rhs, box, "interval")
    return verify_box(c, box, Budget(seconds=60, boxes=3000), **options)


def assert_refuted(lhs, op, rhs, ev):
    assert ev["certified"] is True
    point = {k: Fraction(v) for k, v in ev["counterexample"].items()}
    ctx = MpCtx(200)
    a, b = ctx.run(lhs, **point), ctx.run(rhs, **point)
    assert (a > b) if op == "le" else (a < b)


def y_lhs(ctx, y, **_):
    return y


def one(ctx, **_):
    return ctx.num(1)


def jump_lhs(ctx, x, **_):
    # x below 1, x - 5 from 1 on: increasing on each piece, with a jump down at x = 1
    return ctx.piecewise_lt(x, ctx.num(1), lambda: x, lambda: x - 5)


def minus_one(ctx, **_):
    return ctx.num(-1)


def exp_times_y(ctx, x, y, **_):
    return ctx.exp(x) * y


def linear_times_y(ctx, x, y, **_):
    return (1 + x) * y


@pytest.mark.parametrize("split", ["smear", "widest"])
def test_wrong_declaration_cannot_prove_a_false_claim(split):
    # y <= 1 on y in [0, 2] is false; trusting "the margin 1 - y increases in y" would decide
    # it at y = 0 and prove it
    box = Box(reals={"y": ("0", "2"), "z": ("0", "1")}, monotone={"y": 1})
    status, summary, ev = run(y_lhs, "le", one, box, split=split)
    assert status is Status.FAILED, summary
    assert_refuted(y_lhs, "le", one, ev)
    # the margin's true sign in y (-1) may be derived and used; the declared one never is
    steps = [s for f in ev.get("monotone_faces", []) for s in f["fixed"]]
    assert not any(s["how"].startswith("declared") for s in steps)
    assert all(s["sign"] == "-1" for s in steps if s["parameter"] == "y")


def test_wrong_declaration_is_refuted_not_used():
    # the reduction itself: the declared +1 is refuted on a sub-box; y is fixed at its true
    # worst end (2, derived sign -1) or not at all, never at 0
    box = Box(reals={"y": ("0", "2"), "z": ("0", "1")}, monotone={"y": 1})
    check = Compare(y_lhs, "le", one, box, "interval")
    engine = _Pruner(check, box, {}).engine({})
    red = reduce_box(engine, {n: (Fraction(lo), Fraction(hi)) for n, (lo, hi) in
                              box.reals.items()}, dict(box.monotone), math.inf)
    assert any("declared sign +1 of d(margin)/dy refuted" in n for n in red.notes)
    assert red.face["y"] in ((Fraction(2), Fraction(2)), (Fraction(0), Fraction(2)))
    assert not any(s["how"].startswith("declared") for s in red.steps)


def test_declaration_across_a_jump_is_not_used():
    # x - 5 [x >= 1] >= -1 fails on [1, 2]; increasing on each piece, so a declared +1 checked
    # piece by piece would decide it at x = 0
    box = Box(reals={"x": ("0", "2")}, monotone={"x": 1})
    status, summary, ev = run(jump_lhs, "ge", minus_one, box)
    assert status is Status.FAILED, summary
    assert "monotone_faces" not in ev
    point = {k: Fraction(v) for k, v in ev["counterexample"].items()}
    assert point["x"] >= 1


def test_true_declaration_is_certified_and_used():
    # e^x y >= (1 + x) y: the margin (e^x - 1 - x) y increases in y (its derivative is >= 0
    # but not certified by one enclosure on x in [-1, 3]: sub-boxes certify it); at y = 0 it
    # is 0 >= 0, which no enclosure of the whole box certifies
    box = Box(reals={"x": ("-1", "3"), "y": ("0", "2")}, monotone={"y": 1})
    status, summary, ev = run(exp_times_y, "ge", linear_times_y, box)
    assert status is Status.PROVED, summary
    (face,) = ev["monotone_faces"]
    step = next(s for s in face["fixed"] if s["parameter"] == "y")
    assert step["sign"] == "+1" and step["fixed_at"] == "0"
    assert step["how"].startswith("declared, certified on")


def test_planted_false_inequality_refuted_with_every_option():
    # e^x y >= (1 + 2x) y is false near x = 0.5, y = 2 (e^0.5 < 2)
    def rhs(ctx, x, y, **_):
        return (1 + 2 * x) * y

    box = Box(reals={"x": ("-2", "3"), "y": ("0", "2")}, monotone={"y": 1})
    for split in ("smear", "widest"):
        for reduce in (True, False):
            status, summary, ev = run(exp_times_y, "ge", rhs, box, split=split, reduce=reduce)
            assert status is Status.FAILED, (split, reduce, summary)
            assert_refuted(exp_times_y, "ge", rhs, ev)


def test_derived_monotonicity_reduces_the_box():
    # x^3 + y >= 3x - 2 on x in [0, 2], y in [0, 5]: no declaration; the margin's derivative
    # in y (1) is certified on the whole box, which is then decided on the face y = 0
    def lhs(ctx, x, y, **_):
        return x * x * x + y

    def rhs(ctx, x, y, **_):
        return 3 * x - 2

    box = Box(reals={"x": ("0", "2"), "y": ("0", "5")})
    status, summary, ev = run(lhs, "ge", rhs, box)
    assert status is Status.PROVED, summary
    steps = [s for f in ev["monotone_faces"] for s in f["fixed"]]
    assert [(s["parameter"], s["fixed_at"], s["how"]) for s in steps] == [
        ("y", "0", "derived on the whole box")]


def test_smear_closes_an_anisotropic_box_in_fewer_boxes():
    # the margin varies along x only, while y is the widest side: splitting along y is wasted
    def lhs(ctx, x, y, **_):
        return 3 * x - 2 - y / 1000000

    def rhs(ctx, x, y, **_):
        return x * x * x

    box = Box(reals={"x": ("0", "2"), "y": ("0", "100")})
    smear = run(lhs, "le", rhs, box, split="smear", reduce=False)
    widest = run(lhs, "le", rhs, box, split="widest", reduce=False)
    # x^3 - 3x + 2 = (x - 1)^2 (x + 2) >= 0, tight at x = 1: both prove it
    assert smear[0] is Status.PROVED and widest[0] is Status.PROVED
    assert smear[2]["boxes_processed"] < widest[2]["boxes_processed"]
