"""The float model's vectorised ``erfc`` (Cody 1969, :func:`pld.pairs.erfc_pair`) against libm's
``math.erfc`` over the range the float CDFs use (a float estimate, never a bound: the test
checks its stated accuracy, ~1e-15 relative where erfc does not underflow)."""

from __future__ import annotations

import math

import numpy as np

from dpverify.theorems.numerics.pld.pairs import erfc_float, erfc_pair


def _points() -> np.ndarray:
    rng = np.random.default_rng(3)
    edges = [0.0, 0.46875, 4.0, 26.5, 27.3]  # Cody's interval ends and the underflow
    near = [np.nextafter(e, s) for e in edges for s in (-np.inf, np.inf)]
    return np.concatenate([np.linspace(-8.0, 28.0, 40001), rng.uniform(-40.0, 40.0, 20000),
                           rng.normal(0.0, 0.3, 2000), edges, near, np.negative(edges),
                           np.negative(near), [1e-300, -1e-300, 5e-324, 40.0, -40.0, 1e6]])


def test_erfc_is_libm_within_1e_15_relative() -> None:
    x = _points()
    ref = np.array([math.erfc(v) for v in x.tolist()])
    got = erfc_float(x)
    normal = ref > 1e-300
    rel = np.abs(got[normal] - ref[normal]) / ref[normal]
    assert float(rel.max()) < 1e-15, float(x[normal][np.argmax(rel)])
    # where libm underflows (x > ~26.5) the approximation is at most a denormal too
    assert np.all(got[~normal] <= 1e-300) and np.all(got >= 0) and np.all(got <= 2)


def test_erfc_pair_is_both_sides() -> None:
    x = _points()
    below, above = erfc_pair(x)
    assert np.array_equal(below, erfc_float(x))
    ref = np.array([math.erfc(-v) for v in x.tolist()])
    normal = ref > 1e-300
    assert float(np.max(np.abs(above[normal] - ref[normal]) / ref[normal])) < 1e-15


def test_erfc_special_values() -> None:
    below, above = erfc_pair(np.array([np.inf, -np.inf, np.nan, 0.0]))
    assert below[0] == 0.0 and above[0] == 2.0 and below[1] == 2.0 and above[1] == 0.0
    assert math.isnan(below[2]) and math.isnan(above[2])
    assert below[3] == 1.0 == above[3]


def test_a_wrong_coefficient_is_caught() -> None:
    """Quality: one of Cody's coefficients off in its 12th digit moves erfc beyond the stated
    1e-15 somewhere in the range (so the comparison above can fail)."""
    from dpverify.theorems.numerics.pld import pairs

    x = np.linspace(0.5, 4.0, 2001)
    ref = np.array([math.erfc(v) for v in x.tolist()])
    saved = pairs._CODY_C
    try:
        pairs._CODY_C = (saved[0] * (1 + 1e-11), *saved[1:])
        got = erfc_float(x)
    finally:
        pairs._CODY_C = saved
    assert float(np.max(np.abs(got - ref) / ref)) > 1e-15


def test_recent_arguments_are_served_only_when_equal() -> None:
    """The float model's memo of the last two arguments returns erfc_pair's values for equal
    arguments and recomputes for any other (one changed entry, a different length)."""
    from dpverify.theorems.numerics.pld import pairs

    x = np.linspace(-6.0, 6.0, 1001)
    first = pairs._erfc_pair_recent(x.copy())
    again = pairs._erfc_pair_recent(x.copy())
    assert again is first
    changed = x.copy()
    changed[500] += 1e-3
    other = pairs._erfc_pair_recent(changed)
    for got, want in zip(other, erfc_pair(changed), strict=True):
        assert np.array_equal(got, want)
    shorter = pairs._erfc_pair_recent(x[:-1].copy())
    assert len(shorter[0]) == 1000
    assert np.array_equal(shorter[0], erfc_pair(x[:-1])[0])
