"""KOV-EPS's inverse does not depend on its float guess of the piece: a guess far off is
replaced by a certified bisection (a mutant that swapped the guess's arguments made every
GCE-PARCMP check inconclusive)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from dpverify.theorems.ctx import ArbCtx, arb_precision
from dpverify.theorems.formulas import kov_mv


@pytest.mark.parametrize("eps0,k,delta", [("0.01", 365, "1e-6"), ("0.3", 40, "1e-3"),
                                          ("1", 9, "0.2")])
def test_a_far_off_guess_gives_the_same_certified_answer(monkeypatch, eps0, k, delta):
    ctx = ArbCtx(200)
    with arb_precision(200):
        right = kov_mv.kov_eps(ctx, Fraction(eps0), Fraction(0), k, Fraction(delta))
    calls = []
    real = kov_mv._certified_piece

    def counted(*args):
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(kov_mv, "_guess_piece", lambda eps0, k, log_t, j0: k)  # the top piece
    monkeypatch.setattr(kov_mv, "_certified_piece", counted)
    with arb_precision(200):
        wrong_guess = kov_mv.kov_eps(ctx, Fraction(eps0), Fraction(0), k, Fraction(delta))
    assert right.overlaps(wrong_guess) and abs(right.mid() - wrong_guess.mid()) < 1e-50
    assert right.rad() < 1e-50 and wrong_guess.rad() < 1e-50
    assert calls or k < 100  # far off for k = 365 (widening alone reaches it for small k)
