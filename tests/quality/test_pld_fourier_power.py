"""Power of the Fourier-composition tests (tests/test_pld_fourier.py): planted faults in
theorems/numerics/pld/fourier.py must make their checks fail.

- the aliasing term dropped with a too-small window: the circular wrap-around then puts mass
  where it does not belong and the bound leaves the exact value's side;
- the weights of the tilt planted wrong by a relative 1e-6 (the constant ``C``): caught by the
  closeness part of the check (1e-8);
- the Cauchy-Schwarz factor of the transform errors in a query (fourier_pld.py) without its
  square root (``count / n`` for ``sqrt(count / n)``): caught by the weight-aligned error of
  the largest admissible 2-norm (tests/test_pld_fourier.py);

Not detectable by comparison, measured: the a-priori FFT round-off factor divided by 10^6
together with the power's rounding bound set to 0 leaves every case of
tests/test_pld_fourier.py on the right side (0 violations in 14 checks): the a-priori bounds
are orders of magnitude above the actual round-off, so only their derivation (module
docstring) vouches for them.
"""

from __future__ import annotations

from fractions import Fraction

import flint
import pytest

from dpverify.theorems.numerics import pld
from dpverify.theorems.numerics.pld import fourier, fourier_window
from tests.test_pld_fourier import (
    check_brackets,
    check_transform_error_covers_aligned_errors,
    one_steps,
)

PAIRS = [(pld.SubsampledGaussian(Fraction(1, 10), Fraction(1), "add"), 60)]
H = Fraction(1, 64)


def test_unplanted_check_passes() -> None:
    for kind in ("upper", "lower"):
        check_brackets(one_steps(PAIRS, H, kind), ["1.5", "2", "2.5"], 1e-7)


@pytest.mark.parametrize("kind", ["upper", "lower"])
def test_dropped_aliasing_term_is_caught(monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    monkeypatch.setattr(fourier_window._Chernoff, "tail", lambda *_a, **_k: flint.arb(0))
    monkeypatch.setattr(fourier_window, "TAIL", 0.5)
    with pytest.raises(AssertionError):
        check_brackets(one_steps(PAIRS, H, kind), ["1.5", "2", "2.5"], 1e-7)


def test_wrong_tilt_constant_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    real = fourier.compose_fourier

    def planted(*args: object, **kw: object) -> fourier.FourierPLD:
        out = real(*args, **kw)  # type: ignore[arg-type]
        out.log_c = out.log_c + flint.arb("1e-6")
        return out

    monkeypatch.setattr(fourier, "compose_fourier", planted)
    with pytest.raises(AssertionError):
        check_brackets(one_steps(PAIRS, H, "lower"), ["1.5", "2", "2.5"], 1e-7)


def test_transform_error_without_its_square_root_is_caught(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    def planted(self: fourier.FourierPLD, t0: int) -> flint.arb:
        n = len(self.values)
        count = min(Fraction(max(n - t0, 1)), 1 + 1 / (2 * self.lam_h))
        return flint.arb(self.eta) * flint.arb(float(count / n))

    monkeypatch.setattr(fourier.FourierPLD, "_transform_error", planted)
    with pytest.raises(AssertionError):
        check_transform_error_covers_aligned_errors()
