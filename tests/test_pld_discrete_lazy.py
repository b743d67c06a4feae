"""One-step PLDs whose ``fmpz_poly`` is built on demand (theorems/numerics/pld/_arith.py
``UnitCoefficients``, discrete.py ``DiscretePLD._trimmed_lazy``): the same coefficients, floats,
length, total and trimmed PLD as the built polynomial, bit for bit."""

from __future__ import annotations

from fractions import Fraction

import flint
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.theorems.numerics import pld
from dpverify.theorems.numerics.pld._arith import UnitAccumulator

BITS = 70


def _accumulated(values: list[int], extras: list[tuple[int, int]]) -> UnitAccumulator:
    acc = UnitAccumulator(len(values) + 2, BITS)  # two zeros at the top: dropped
    acc.add_floats(np.arange(len(values)), np.array([float(v) for v in values]))
    for i, v in extras:
        acc.add_int(i % len(values), v)
    return acc


def _same(a: pld.DiscretePLD, b: pld.DiscretePLD) -> None:
    assert (a.kind, a.h, a.shift, a.inf, a.B, a.trim, a.steps) == \
        (b.kind, b.h, b.shift, b.inf, b.B, b.trim, b.steps)
    assert len(a) == len(b) and a.total_units() == b.total_units()
    assert np.array_equal(a.unit_floats(), b.unit_floats())
    assert a.poly == b.poly


# values: small ones (the tails), floats that are exact integers near 2^53 and 2^62 (the int64
# split and the Python ints above 2^62), zeros; extras from add_int
VALUE = st.one_of(st.integers(0, 40), st.just(0), st.integers(2**52, 2**54),
                  st.integers(2**61, 2**63).map(lambda v: int(float(v))))


@settings(max_examples=200, deadline=None)
@given(values=st.lists(VALUE, min_size=1, max_size=30),
       extras=st.lists(st.tuples(st.integers(0, 100), st.integers(1, 2**66)), max_size=3),
       trim=st.integers(0, 2**55), kind=st.sampled_from(["upper", "lower"]))
def test_lazy_trimming_is_the_poly_trimming(values, extras, trim, kind) -> None:
    acc = _accumulated(values, extras)
    lazy = pld.DiscretePLD(kind, Fraction(1, 8), Fraction(-1, 4), acc.coefficients(), 5, BITS,
                           trim)
    poly, floats = acc.result()
    built = pld.DiscretePLD(kind, Fraction(1, 8), Fraction(-1, 4), poly, 5, BITS, trim)
    built.set_unit_floats(floats)
    _same(lazy, built)
    _same(lazy._trimmed(), built._trimmed())


def test_the_poly_is_built_once_and_keeps_its_floats() -> None:
    acc = _accumulated([3, 0, 2**60 + 2**9, 7, 0], [(1, 2**64 + 1)])
    d = pld.DiscretePLD("upper", Fraction(1, 8), Fraction(0), acc.coefficients(), 0, BITS, 4)
    floats = d.unit_floats()
    poly = d.poly
    assert d.poly is poly and d.unit_floats() is floats
    assert [int(c) for c in poly.coeffs()] == [3, 2**64 + 1, 2**60 + 2**9, 7]


@pytest.mark.parametrize("off_by", [1, -1])
def test_a_planted_wrong_suffix_is_caught(monkeypatch, off_by: int) -> None:
    """Quality: a suffix one coefficient too long or too short is told apart."""
    discrete = pld.discrete
    original = discrete._largest_within
    calls = []

    def planted(tail_sum, limit, budget):
        calls.append(1)
        got = original(tail_sum, limit, budget)
        return max(0, min(limit, got + off_by)) if len(calls) % 2 == 0 else got

    acc = _accumulated([5, 1, 1, 9, 4, 1, 1, 1], [])
    poly, _floats = acc.result()
    built = pld.DiscretePLD("upper", Fraction(1, 8), Fraction(0), poly, 0, BITS, 3)
    monkeypatch.setattr(discrete, "_largest_within", planted)
    lazy = pld.DiscretePLD("upper", Fraction(1, 8), Fraction(0), acc.coefficients(), 0, BITS, 3)
    with pytest.raises(AssertionError):
        _same(lazy._trimmed(), built._trimmed())


@pytest.mark.parametrize("bits", [94, 122, 123, 200, 400])
def test_unit_masses_at_any_number_of_bits(bits: int) -> None:
    """Past 122 bits the int64 split's shift exceeds 62 (a delta enclosure at a tiny delta asks
    for ~330 bits): every mass is a Python int then, exact, and the floats are its nearest."""
    acc = UnitAccumulator(6, bits)
    units = np.array([0.0, 3.0, 2.0**52 + 1, 2.0**80, 0.0, 7.0])
    acc.add_floats(np.arange(6), units)
    acc.add_int(2, 5)
    coeffs = acc.coefficients()
    want = [int(u) for u in units]
    want[2] += 5
    assert [coeffs.value(i) for i in range(coeffs.length)] == want[:coeffs.length]
    assert coeffs.poly() == flint.fmpz_poly(want[:coeffs.length])
    assert coeffs.total() == sum(want)
    assert list(coeffs.floats) == [float(w) for w in want[:coeffs.length]]


def test_a_delta_enclosure_at_a_tiny_delta() -> None:
    """The audit's reference for a tiny delta (thorough set, q = 1e-4, sigma = 5, k = 10 at eps
    = 1): the driver's first looks lower the tolerance until the plan asks for more than 122
    bits; it used to fail with 'negative shift count'. The upper end is ~3e-37 (the audit's
    earlier driver certified 4.6e-23), the lower end 0."""
    pairs = pld.sgm_pairs(Fraction(1, 10**4), Fraction(5))
    enc = pld.enclose_delta_composition([[(pairs[0], 10)], [(pairs[1], 10)]], Fraction(1),
                                        rel_width=1e-3, max_seconds=30)
    assert 0 <= enc.lo <= enc.hi < Fraction(1, 10**30)
