"""FMT21-NUM and SHUFFLE-RR-EXACT: golden values from independent routes.

Goldens (40 digits) were computed in mpmath at 80 digits by the routes that the product does
not use for the value under test: the direct O(n^2) double sum over (c, a) for the clone pair
(the product uses the O(n) recurrence), and plain-list polynomial products in mpmath for binary
RR (the product uses python-flint ``arb_poly``). The k-ary goldens are the count-vector
enumeration in mpmath; the k = 2 enumeration is checked against the binary m-formula.
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import flint
import pytest

from dpverify.theorems.ctx import ArbCtx, MpCtx
from dpverify.theorems.ctx.arb import arb_endpoints, arb_precision
from dpverify.theorems.errors import InvalidParameter
from dpverify.theorems.formulas import shuffle_exact as S
from dpverify.theorems.numerics.shuffle import rr_kary_max

CLONE_GOLDEN = [
    ((1, 50, "0.5"), "0.001115248542341368766272278539702707376571"),
    ((1, 10, "0.3"), "0.09170812217459042723118400916758643144221"),
    ((2, 50, "1"), "0.02718998580359078128430906034901321936569"),
    ((3, 100, "1"), "0.09616736264567438991646487602792054758338"),
    ((1, 200, "0.5"), "7.532641684069949253948892042003552219407e-8"),
]
RR2_GOLDEN = [
    ((10, 1, "0.3"), "0.05180966779980323427658634166526767777405"),
    ((20, 1, "0.5"), "0.004234543726168948681960414477731313849313"),
    ((50, 1, "0.5"), "0.00010335188759038870823904315003083196955"),
    ((200, 1, "0.5"), "4.001890618557913030611934733136680474702e-11"),
]
RRK_GOLDEN = [
    ((10, 1, 3, "0.3"), "0.0454467820162943709464575311843866746887"),
    ((8, 1, 4, "0.3"), "0.04586549905112924127470002022110594682524"),
    ((12, 1, 2, "0.3"), "0.03909283685117749031152045804441341898341"),
]


def _ends(x: flint.arb) -> tuple[F, F]:
    return arb_endpoints(x)


def _close(x: flint.arb, golden: str, tol: str) -> bool:
    lo, hi = _ends(x)
    g = F(golden)
    return lo - F(tol) <= g <= hi + F(tol) and hi - lo <= F(tol)


@pytest.mark.parametrize(("args", "golden"), CLONE_GOLDEN)
def test_clone_recurrence_matches_double_sum_golden(args: tuple, golden: str) -> None:
    eps0, n, eps = args
    x = ArbCtx(240).run(S.fmt21_num_delta, eps0=F(eps0), n=n, eps=F(eps))
    assert _close(x, golden, "1e-40")


@pytest.mark.parametrize(("args", "golden"), RR2_GOLDEN)
def test_rr_binary_matches_list_polynomial_golden(args: tuple, golden: str) -> None:
    n, eps0, eps = args
    x = ArbCtx(400).run(S.shuffle_rr_delta, eps0=F(eps0), n=n, eps=F(eps))
    assert _close(x, golden, "1e-40")


@pytest.mark.parametrize(("args", "golden"), RRK_GOLDEN)
def test_rr_kary_golden(args: tuple, golden: str) -> None:
    n, eps0, k, eps = args
    x = ArbCtx(240).run(S.shuffle_rr_delta, eps0=F(eps0), n=n, eps=F(eps), k=k)
    assert _close(x, golden, "1e-40")


def test_mp_context_agrees_with_arb() -> None:
    mp = MpCtx(200).run(S.fmt21_num_delta, eps0=F(1), n=50, eps=F(1, 2))
    assert abs(F(str(mp)) - F(CLONE_GOLDEN[0][1])) < F("1e-40")
    mp_rr = MpCtx(200).run(S.shuffle_rr_delta, eps0=F(1), n=20, eps=F(1, 2))
    assert abs(F(str(mp_rr)) - F(RR2_GOLDEN[1][1])) < F("1e-40")


def test_exact_recurrence_equals_double_sum_on_small_domain() -> None:
    for n, x0, x in itertools.product(range(1, 9), (F(3, 2), F(2), F(5)), (F(1), F(6, 5), F(7, 4))):
        assert S.clone_delta_exact(x0, n, x) == S.clone_delta_double_sum_exact(x0, n, x)


def test_exact_binary_equals_kary_with_k2_and_clone_dominates() -> None:
    for n, x0, x in itertools.product(range(1, 9), (F(3, 2), F(3)), (F(1), F(5, 4))):
        binary, _ = S.rr_binary_delta_exact(x0, n, x)
        kary, _ = S.rr_kary_delta_exact(x0, n, x, 2)
        assert binary == kary
        assert S.clone_delta_exact(x0, n, x) >= binary
        assert S.clone_delta_exact(x0, n, x) >= S.rr_kary_delta_exact(x0, n, x, 3)[0]


def test_worst_count_vectors_of_the_catalogue() -> None:
    import mpmath

    with mpmath.workdps(40):
        x0, x = mpmath.e, mpmath.exp(mpmath.mpf("0.3"))
        one = mpmath.mpf(1)
        _, c3 = rr_kary_max(x0, 10, x, 3, lambda v: max(v, 0), max, one)
        _, c4 = rr_kary_max(x0, 8, x, 4, lambda v: max(v, 0), max, one)
    assert c3 == (0, 0, 9)
    assert c4 == (0, 0, 7, 0)  # canonical form of the catalogue's (0, 0, 0, 7)


@pytest.mark.parametrize(("args", "value"), [
    ((4, 10**5, "1e-6"), "0.1697697472554856"),
    (("0.5", 10**4, "1e-6"), "0.02040145509731913"),
    ((1, 1000, "1e-6"), "0.1824123474805822"),
])
def test_fmt21_eps_catalogue_values_and_certified_bracket(args: tuple, value: str) -> None:
    eps0, n, delta = args
    ctx = ArbCtx(96)
    eps = ctx.run(S.fmt21_num_eps, eps0=F(eps0), n=n, delta=F(delta))
    lo, hi = _ends(eps)
    assert abs((lo + hi) / 2 - F(value)) < F("1e-15")
    assert hi - lo < F("1e-18")  # the delta balls at 96 bits decide no finer
    d_lo = ctx.run(S.fmt21_num_delta, eps0=F(eps0), n=n, eps=lo)
    d_hi = ctx.run(S.fmt21_num_delta, eps0=F(eps0), n=n, eps=hi)
    with arb_precision(96):
        target = flint.arb(flint.fmpq(*F(delta).as_integer_ratio()))
        assert d_lo > target
        assert d_hi <= target


def test_zero_at_and_beyond_eps0() -> None:
    ctx = ArbCtx(128)
    assert ctx.run(S.fmt21_num_delta, eps0=F(1), n=30, eps=F(1)) == 0
    assert ctx.run(S.shuffle_rr_delta, eps0=F(1), n=30, eps=F(2)) == 0
    assert S.clone_delta_exact(F(3), 10, F(3)) == 0


def test_rr_eps_round_trip() -> None:
    ctx = ArbCtx(96)
    d = ctx.run(S.shuffle_rr_delta, eps0=F(1), n=20, eps=F(1, 2))
    target = F(str(d.mid().str(30, radius=False)))
    eps = ctx.run(S.shuffle_rr_eps, eps0=F(1), n=20, delta=target)
    lo, hi = _ends(eps)
    assert abs((lo + hi) / 2 - F(1, 2)) < F("1e-20")


def test_enumeration_limits_refuse_up_front() -> None:
    with pytest.raises(InvalidParameter, match="n must be at most 500"):
        S.shuffle_rr_delta(ArbCtx(64), F(1), S.RR_BINARY_MAX_N + 1, F(1, 2))
    with pytest.raises(InvalidParameter, match="k-ary"):
        S.shuffle_rr_delta(ArbCtx(64), F(1), 14, F(1, 2), 4)


def test_eval_contract_values_enclosures_and_refusals() -> None:
    import mpmath

    import dpverify

    r = dpverify.evaluate("FMT21-NUM.eps", digits=15, eps0="4", n="100000", delta="1e-6")
    assert mpmath.nstr(r.value, 15) == "0.169769747255486"  # str() follows the global mp.dps
    lo, hi = r.enclosure
    assert hi - lo < F("1e-17")
    assert abs((lo + hi) / 2 - F("0.1697697472554856")) < F("1e-16")  # catalogue, 16 digits
    r = dpverify.evaluate("SHUFFLE-RR-EXACT", digits=20, eps0="1", n="8", eps="0.3", k="4")
    lo, hi = r.enclosure
    assert lo <= F(RRK_GOLDEN[1][1]) <= hi and hi - lo < F("1e-20")
    r = dpverify.evaluate("FMT21-NUM", digits=20, eps0="1", n="50", eps="2")
    assert r.value == 0
    for target, params, message in [
        ("SHUFFLE-RR-EXACT", {"eps0": "1", "n": "501", "eps": "0.1"}, "n must be at most 500"),
        ("SHUFFLE-RR-EXACT", {"eps0": "1", "n": "30", "eps": "0.1", "k": "3"}, "k-ary"),
        ("FMT21-NUM", {"eps0": "1", "n": "1000001", "eps": "0.1"}, "n must be at most"),
        ("FMT21-NUM.eps", {"eps0": "0", "n": "10", "delta": "0.1"}, "eps0 must be in"),
        ("FMT21-NUM.eps", {"eps0": "1", "n": "100001", "delta": "0.1"}, "n must be at most"),
        ("SHUFFLE-RR-EXACT.eps", {"eps0": "1", "n": "301", "delta": "0.1"}, "at most 300"),
        ("FMT21-NUM.eps", {"eps0": "1", "n": "10", "delta": "1"}, "delta must be in"),
    ]:
        with pytest.raises(InvalidParameter, match=message):
            dpverify.evaluate(target, **params)


def test_eps_is_zero_when_delta_at_zero_is_below_target() -> None:
    ctx = ArbCtx(96)
    d0 = ctx.run(S.fmt21_num_delta, eps0=F(1), n=30, eps=F(0))
    target = F(str(d0.mid().str(20, radius=False))) * 2
    assert ctx.run(S.fmt21_num_eps, eps0=F(1), n=30, delta=target) == 0


def test_no_clones_when_eps0_is_huge() -> None:
    """eps0 = 1000: C = 0 but for mass e^-1000, so delta = (x0 - x)/(x0 + 1) up to that mass
    (the float window choice must not underflow)."""
    ctx = ArbCtx(128)
    d = ctx.run(S.fmt21_num_delta, eps0=F(1000), n=10**5, eps=F(1, 2))
    lo, hi = _ends(d)
    assert 1 - F("1e-30") < lo <= hi < 1 + F("1e-30")


def test_exact_enumerations_on_flint_rationals_equal_the_fraction_route():
    """rr_binary/kary_delta_exact compute on python-flint fmpq: the same values and worst
    points as the engines on Fractions, returned as Fractions."""
    from fractions import Fraction

    from dpverify.theorems.formulas.shuffle_exact import (
        rr_binary_delta_exact,
        rr_kary_delta_exact,
    )
    from dpverify.theorems.numerics.shuffle import rr_binary_profile, rr_kary_max

    def pos(v: Fraction) -> Fraction:
        return max(v, Fraction(0))

    for x0, x in ((Fraction(3), Fraction(6, 5)), (Fraction(7, 3), Fraction(1))):
        for n in (1, 4, 9):
            prof = rr_binary_profile(x0, n, x, pos, Fraction(1), poly="list")
            value, m = rr_binary_delta_exact(x0, n, x)
            assert type(value) is Fraction and value == max(prof) and m == prof.index(value)
            for k in (2, 3):
                assert rr_kary_delta_exact(x0, n, x, k) == rr_kary_max(x0, n, x, k, pos, max,
                                                                       Fraction(1))


def test_approx_float_of_a_flint_rational_is_correctly_rounded():
    from fractions import Fraction

    import flint

    from dpverify.theorems.values import approx_float

    big = Fraction(10**40 + 1, 3 * 10**39)
    assert approx_float(flint.fmpq(big.numerator, big.denominator)) == float(big)
