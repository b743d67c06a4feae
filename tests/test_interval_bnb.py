"""Building blocks of the branch-and-bound improvements: smear splitting, the centred form
intersected with the natural enclosure, declared monotonicity on a Box."""

from __future__ import annotations

from fractions import Fraction

import flint
import pytest

from dpverify.theorems.claims import Box
from dpverify.verifiers.interval import Iv
from dpverify.verifiers.interval.boxes import SubBox, _split

F = Fraction


def test_split_follows_the_smear_not_the_width():
    sub = SubBox({"a": (F(0), F(100)), "b": (F(0), F(1))}, {})
    left, right = _split(sub, frozenset(), {"a": 1.0, "b": 5.0})
    assert left.reals["b"] == (F(0), F(1, 2)) and right.reals["b"] == (F(1, 2), F(1))
    assert left.reals["a"] == (F(0), F(100))
    # without scores (no derivatives), the widest side
    left, _ = _split(sub, frozenset())
    assert left.reals["a"] == (F(0), F(50))


def test_split_never_chooses_a_fixed_parameter():
    sub = SubBox({"a": (F(1), F(1)), "b": (F(0), F(1))}, {})
    left, _ = _split(sub, frozenset(), {"a": float("inf"), "b": 0.0})
    assert left.reals["b"] == (F(0), F(1, 2))


def test_split_unknown_smear_goes_first():
    # a derivative with no finite enclosure has smear inf: that side is split first
    sub = SubBox({"a": (F(0), F(1)), "b": (F(0), F(10))}, {})
    left, _ = _split(sub, frozenset(), {"a": float("inf"), "b": 3.0})
    assert left.reals["a"] == (F(0), F(1, 2))


def test_meet_is_the_intersection():
    a = Iv(flint.arb(-1), flint.arb(3))
    b = Iv(flint.arb(0), flint.arb(5))
    m = a.meet(b)
    assert m.lo == 0 and m.hi == 3
    assert Iv(flint.arb(-4), flint.arb(2)).magnitude() >= 4


@pytest.mark.parametrize("monotone", [{"z": 1}, {"x": 0}, {"x": 2}])
def test_box_rejects_a_bad_declaration(monotone):
    with pytest.raises(ValueError, match=r"Box\.monotone"):
        Box(reals={"x": ("0", "1")}, monotone=monotone)
