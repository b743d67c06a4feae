"""Power of the query-table tests (tests/test_pld_fourier_query.py): planted faults in the
suffix-sum arithmetic of theorems/numerics/pld/fourier_pld.py ("Query table") must make the
check against the exact weighted sum (40 digits) fail.

- the suffix sums off by a relative 2^-30 (far above their rounding bound ~1e-13 here);
- the rounding radius of the sums dropped (the float sums taken as exact);
- the sums read one position late (``SA_{j+1}``: the query's first term left out);
- ``rho``'s cell offset lost (``e^{c2 (j - 1)}`` for ``e^{c2 j}``);
- the bound of the terms beyond a short table dropped (upper kind);
- the decaying tables' short factors off by a relative 1e-12 (their error bound unchanged):
  caught by the entrywise check against arb (tests/test_pld_fourier_query.py).

Not detectable this way, by construction: a rounding radius larger than needed (only
wider), and the weight tables' own error bound (:func:`.tilted.weights`, planted in
tests/test_pld_tilted.py).
"""

from __future__ import annotations

from fractions import Fraction

import flint
import pytest

from dpverify.theorems.numerics.pld import fourier, fourier_pld, passes
from dpverify.theorems.numerics.pld._arith import _arb
from tests.test_pld_fourier_query import (
    CASES,
    DECAY_RATES,
    DELTA,
    SHORT_MARGIN,
    SHORT_SPAN,
    check_decay_table,
    check_table_dots,
    composed,
)


@pytest.fixture(autouse=True)
def _fourier_at_every_size(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(passes, "FOURIER_MIN_SIZE", 0)


def table_check(kind: str = "upper", case: tuple = CASES[0]) -> None:
    four = composed(case, kind)
    four._locate(float(DELTA))
    check_table_dots(four)


def planted_dot(shift: int, cell: int, beyond: bool):  # type: ignore[no-untyped-def]
    """:meth:`.FourierPLD._table_dot` with the sums read ``shift`` positions late, ``rho``'s
    exponent ``e^{c2 (j + cell)}`` and the terms beyond the table counted or not."""

    def dot(self: fourier.FourierPLD, tab: fourier_pld._Table, t0: int, eps: Fraction
            ) -> flint.arb:
        j = t0 - tab.a
        k = min(j + shift, tab.b - tab.a)
        sa = fourier_pld._sum_ball(float(tab.sa[k]), tab.rel_a, tab.tiny)
        sb = fourier_pld._sum_ball(float(tab.sb[k]), tab.rel_b, tab.tiny)
        rho = _arb(eps - self.start - t0 * self.h).exp()
        out = _arb(self.lam_h * j).exp() * (sa - rho * _arb(self.h * (j + cell)).exp() * sb)
        if beyond and self.kind == "upper" and tab.b < len(self.values):
            if tab.beyond is None:
                tab.beyond = fourier_pld._positive_sum_up(self.values[tab.b:])
            out += (-_arb(self.lam_h * (tab.b - t0))).exp() * _arb(Fraction(tab.beyond))
        return out

    return dot


@pytest.mark.parametrize("kind", ["upper", "lower"])
def test_unplanted_checks_pass(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    table_check(kind)
    monkeypatch.setattr(fourier.FourierPLD, "_table_dot", planted_dot(0, 0, True))
    table_check(kind)  # the planted copy, unplanted, passes too
    monkeypatch.setattr(fourier_pld, "TABLE_SPAN", SHORT_SPAN)
    monkeypatch.setattr(fourier_pld, "TABLE_MARGIN", SHORT_MARGIN)
    table_check("upper", CASES[2])


@pytest.mark.parametrize("kind", ["upper", "lower"])
def test_sums_off_by_a_relative_2_pow_30_are_caught(kind: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    real = fourier_pld._suffix_inclusive
    monkeypatch.setattr(fourier_pld, "_suffix_inclusive",
                        lambda w: real(w) * (1 + 2.0**-30))
    with pytest.raises(AssertionError):
        table_check(kind)


@pytest.mark.parametrize("kind", ["upper", "lower"])
def test_dropped_rounding_radius_is_caught(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fourier_pld, "_sum_ball", lambda x, rel, tiny: flint.arb(x))
    with pytest.raises(AssertionError):
        table_check(kind)


@pytest.mark.parametrize("kind", ["upper", "lower"])
def test_sums_read_one_position_late_are_caught(kind: str,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fourier.FourierPLD, "_table_dot", planted_dot(1, 0, True))
    with pytest.raises(AssertionError):
        table_check(kind)


@pytest.mark.parametrize("kind", ["upper", "lower"])
def test_lost_cell_offset_is_caught(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fourier.FourierPLD, "_table_dot", planted_dot(0, -1, True))
    with pytest.raises(AssertionError):
        table_check(kind)


def test_dropped_terms_beyond_a_short_table_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fourier_pld, "TABLE_SPAN", SHORT_SPAN)
    monkeypatch.setattr(fourier_pld, "TABLE_MARGIN", SHORT_MARGIN)
    monkeypatch.setattr(fourier.FourierPLD, "_table_dot", planted_dot(0, 0, False))
    with pytest.raises(AssertionError):
        table_check("upper", CASES[2])


@pytest.mark.parametrize("c", DECAY_RATES)
def test_decay_factors_off_by_1e_12_are_caught(c: Fraction, monkeypatch: pytest.MonkeyPatch
                                               ) -> None:
    from dpverify.theorems.numerics.pld import decay

    real = decay.weights
    monkeypatch.setattr(decay, "weights",
                        lambda lam, n, cache=True: (real(lam, n, cache)[0] * (1 + 1e-12),
                                                    real(lam, n, cache)[1]))
    decay._RECIP.clear()
    try:
        check_decay_table(c, min(decay.capacity(c), 200_000))  # unplanted size
    except AssertionError:
        return
    finally:
        decay._RECIP.clear()
    pytest.fail("the planted table error was not caught")
