"""Tests of the Fourier-domain composition of the PLD engine (theorems/numerics/pld/fourier.py)
and of ``method="fourier"`` in the driver.

References: the exact composition of the same one-step PLDs (``fmpz_poly`` powers without any
rescaling or trimming, evaluated in arb), the Gaussian profile in its rho form (q = 1) at 40
digits, exact binomial enumeration of k-fold randomized response.
"""

from __future__ import annotations

import sys
from fractions import Fraction

import flint
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.theorems.numerics import pld
from dpverify.theorems.numerics.pld import fourier, fourier_window, log_mgf, passes
from tests.test_pld import contains, gauss_eps, kfold_rr_delta, mp

DRIVER_MIN_SIZE = passes.FOURIER_MIN_SIZE


@pytest.fixture(autouse=True)
def _fourier_at_every_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """The driver's "fourier" composes small compositions exactly; these tests are about the
    Fourier route, so it is taken at every size (except where a test restores the rule)."""
    monkeypatch.setattr(passes, "FOURIER_MIN_SIZE", 0)


def exact_composition(ones: list[tuple[pld.DiscretePLD, int]]) -> pld.DiscretePLD:
    """The exact composition of the one-step PLDs: integer polynomial powers in units
    ``2^-(B K)``, no rescaling, no trimming."""
    poly, shift, total, finite, b_all, steps = flint.fmpz_poly([1]), Fraction(0), 1, 1, 0, 0
    for one, k in ones:
        poly *= one.poly**k
        shift += one.shift * k
        fin = int(one.poly(1))
        total *= (fin + one.inf) ** k
        finite *= fin**k
        b_all += one.B * k
        steps += k
    return pld.DiscretePLD(ones[0][0].kind, ones[0][0].h, shift, poly, total - finite, b_all,
                           0, steps)


def one_steps(pairs: list[tuple[pld.LossPair, int]], h: Fraction, kind: str
              ) -> list[tuple[pld.DiscretePLD, int]]:
    bits, tail = pld._plan(sum(k for _p, k in pairs), 1e-14)
    out = []
    for pair, k in pairs:
        up, lo = pld.one_step_plds(pair, h, bits, tail, lower=True)
        out.append((up if kind == "upper" else lo, k))
    return out


def check_brackets(ones: list[tuple[pld.DiscretePLD, int]], eps_list: list[str],
                   digits: float = 1e-8) -> None:
    """The Fourier bound is on the right side of the exact value at every eps, and close."""
    exact = exact_composition(ones)
    upper = ones[0][0].kind == "upper"
    for e in eps_list:
        eps = Fraction(e)
        lam = fourier.fourier_tilt(ones, float(eps))
        four = fourier.compose_fourier(ones, lam)
        ex = exact.delta_at(eps)
        got = four.delta_bound(eps)
        if upper:
            assert got.upper() >= ex.upper(), (e, got, ex)
            assert float(got.upper() - ex.lower()) <= digits * float(ex.lower()) + 1e-20, \
                (e, got, ex)
        else:
            assert got.lower() <= ex.lower(), (e, got, ex)
            assert float(ex.upper() - got.lower()) <= digits * float(ex.upper()) + 1e-20, \
                (e, got, ex)


CASES = [
    ([(pld.SubsampledGaussian(Fraction(1, 20), Fraction(1), "add"), 6)], Fraction(1, 128),
     ["0.2", "0.5", "1", "2"]),
    ([(pld.SubsampledGaussian(Fraction(1, 10), Fraction(4, 5), "remove"), 5)],
     Fraction(1, 128), ["0.3", "1", "2.5"]),
    ([(pld.SubsampledGaussian(Fraction(1), Fraction(2), "add"), 4)], Fraction(1, 256),
     ["0.1", "0.5", "1.5"]),
    ([(pld.Laplace(Fraction(1)), 5)], Fraction(1, 64), ["0.5", "2", "4"]),
    ([(pld.RandomizedResponse(Fraction(1, 2)), 9)], Fraction(1, 8), ["0.5", "1.5"]),
    ([(pld.SubsampledGaussian(Fraction(1, 20), Fraction(1), "add"), 3),
      (pld.SubsampledGaussian(Fraction(1, 8), Fraction(3, 2), "add"), 4)], Fraction(1, 128),
     ["0.3", "1", "2"]),
]


@pytest.mark.parametrize("center", [3.0, 6.0])
def test_float_locators_agree_with_the_crossing_over_the_whole_range(center: float) -> None:
    """``eps_float`` skips the half range left of the tilted mode only when the crossing lies
    right of it, and first ends its range ``SCAN_REACH / (lam h)`` right of the mode (at
    center 6, short of the window's end): at every delta (crossings on both sides of the mode,
    and at the window's end) it returns what the whole range gives, within 1e-13 (relative;
    the terms left out weigh below e^-40). The eps search's locator (read off the query table
    around the mode, or scanned and the table rebuilt where the crossing lies outside it)
    agrees within 1e-10, and the table it leaves covers a crossing inside the window."""
    import math

    import numpy as np

    pair = pld.SubsampledGaussian(Fraction(1, 20), Fraction(1), "add")
    ones = one_steps([(pair, 300)], Fraction(1, 512), "upper")
    four = fourier.compose_fourier(ones, fourier.fourier_tilt(ones, center))  # 0.9: far left
    ref = int(np.argmax(four.values))
    c1, c2 = float(four.lam_h), float(four.h)
    a = max(0, ref - int(600 / (c1 + c2)) - 1)
    b = min(len(four.values), ref + int(600 / (c1 + c2)) + 1)
    module = sys.modules["dpverify.theorems.numerics.pld.fourier_pld"]
    assert (ref + module.SCAN_REACH / c1 < b) == (center == 6.0)
    z_ref = float(four.start + ref * four.h)
    scale = math.exp(float(four.log_c.mid()) - c1 * ref)
    inf = float(four.inf.mid())
    for delta in (0.9, 0.3, 1e-2, 1e-5, 1e-9, 1e-30):
        whole = four._crossing(a, ref, b, scale, inf, delta)
        want = z_ref + whole if whole is not None else z_ref + (a - ref) * c2
        assert abs(four.eps_float(delta) - want) <= 1e-13 * max(1.0, abs(want)), delta
        got = four._locate(delta)
        assert abs(got - want) <= 1e-10 * max(1.0, abs(want)), delta
        t0 = math.floor((Fraction(got) - four.start) / four.h) + 1
        if t0 < len(four.values):  # beyond the window a query needs no table
            assert four._table is not None and four._table.covers(t0), delta


def test_crossing_in_place_is_the_literal_profile() -> None:
    """The in-place crossing returns exactly (same float operations) what the literal
    profile ``scale (tail_a - e^{c2 d} tail_b) + inf`` gives, on every sub-range."""
    import math

    import numpy as np

    pair = pld.SubsampledGaussian(Fraction(1, 20), Fraction(1), "add")
    ones = one_steps([(pair, 300)], Fraction(1, 512), "upper")
    four = fourier.compose_fourier(ones, fourier.fourier_tilt(ones, 3.0))
    ref, n = int(np.argmax(four.values)), len(four.values)
    c1, c2 = float(four.lam_h), float(four.h)
    scale = math.exp(float(four.log_c.mid()) - c1 * ref)
    inf = float(four.inf.mid())

    def literal(a: int, b: int, delta: float) -> float | None:
        d = np.arange(a - ref, b - ref, dtype=float)
        w = np.maximum(four.values[a:b], 0.0) * np.exp(-c1 * d)
        tail_a = np.append(np.cumsum(w[::-1])[::-1][1:], 0.0)
        w = w * np.exp(-c2 * d)
        tail_b = np.append(np.cumsum(w[::-1])[::-1][1:], 0.0)
        with np.errstate(over="ignore", invalid="ignore"):
            prof = scale * (tail_a - np.exp(c2 * d) * tail_b) + inf
        above = np.flatnonzero(prof > delta)
        if not len(above):
            return None
        t = int(above[-1])
        if t >= len(d) - 1:
            return (b - ref) * c2
        num, den = scale * tail_a[t] + inf - delta, scale * tail_b[t]
        e = math.log(num / den) if num > 0 and den > 0 else d[t] * c2
        return min(max(e, d[t] * c2), d[t + 1] * c2)

    module = sys.modules["dpverify.theorems.numerics.pld.fourier_pld"]
    whole = module.CROSSING_CHUNK
    try:
        for chunk in (whole, 1, 2, 7, 64):  # chunks of every size: the same float operations
            module.CROSSING_CHUNK = chunk
            for a, b in ((0, n), (ref // 2, n), (ref - 3, ref + 3), (ref, ref + 1),
                         (n - 2, n)):
                for delta in (0.9, 1e-2, 1e-5, 1e-9, 1e-30, 10.0):
                    assert four._crossing(a, ref, b, scale, inf, delta) == literal(a, b, delta)
    finally:
        module.CROSSING_CHUNK = whole


def _literal_log_mgfs(parts: list, thetas: list[float], sign: float) -> list[float]:
    """The composition's log-MGFs ``sum_j k_j log sum_i xh_i e^{sign th i}``, entry by entry."""
    import math

    import numpy as np

    out = []
    for th in thetas:
        want = 0.0
        for p in parts:
            lv, idx = log_mgf._log_support(p.xh)
            e = lv + sign * th * idx
            top = float(np.max(e))
            want += p.k * (top + math.log(float(np.sum(np.exp(e - top)))))
        out.append(want)
    return out


def _locator_parts() -> list:
    ones = one_steps([(pld.SubsampledGaussian(Fraction(1, 20), Fraction(1), "add"), 300),
                      (pld.SubsampledGaussian(Fraction(1, 10), Fraction(2), "add"), 50)],
                     Fraction(1, 512), "upper")
    return [fourier._tilted_part(one, k, Fraction(1, 2**12)) for one, k in ones]


def test_chernoff_locator_on_entries_is_the_literal_log_sum_exp(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With blocks of one entry the window locator's log-MGFs (computed in place) are exactly
    the literal log-sum-exps ``top + log sum exp(lv +- th i - top)`` on every grid exponent."""
    monkeypatch.setattr(fourier_window, "BLOCK_SPREAD", 1e9)
    parts = _locator_parts()
    ch = fourier_window._Chernoff(parts)
    thetas = ch.thetas.tolist()
    assert ch.right.tolist() == _literal_log_mgfs(parts, thetas, 1.0)
    assert ch.left.tolist() == _literal_log_mgfs(parts, thetas, -1.0)


@pytest.mark.parametrize("spread", [8.0, 2.0, 0.5])
def test_chernoff_locator_on_blocks_bounds_the_entries_from_above(
        monkeypatch: pytest.MonkeyPatch, spread: float) -> None:
    """On blocks (Bennett's lemma) the locator's log-MGFs are at least the entries' (float
    tolerance 1e-12 relative) at every exponent, also for coarser blocks (smaller
    ``BLOCK_SPREAD``); at the default, within 0.1 of them at the exponents of the window's
    two tail bounds."""
    import numpy as np

    monkeypatch.setattr(fourier_window, "BLOCK_SPREAD", spread)
    parts = _locator_parts()
    assert any(len(fourier_window._blocks(p.xh)[0]) < len(log_mgf._log_support(p.xh)[0])
               for p in parts)  # blocks are formed
    ch = fourier_window._Chernoff(parts)
    thetas = ch.thetas.tolist()
    right, left = _literal_log_mgfs(parts, thetas, 1.0), _literal_log_mgfs(parts, thetas, -1.0)
    for got, want in ((ch.right, right), (ch.left, left)):
        for g, w in zip(got.tolist(), want, strict=True):
            assert g >= w - 1e-12 * max(1.0, abs(w)), (g, w)
    if spread == 8.0:
        total = sum(p.k * (len(p.xh) - 1) for p in parts)
        o, n = fourier_window._locate(total, ch, fourier_window._mean(parts))
        i = int(np.argmin(ch.left + ch.thetas * (o - 1)))
        j = int(np.argmin(ch.right - ch.thetas * (o + n)))
        assert ch.left[i] - left[i] <= 0.1 and ch.right[j] - right[j] <= 0.1


def test_blocked_window_is_the_entries_window() -> None:
    """The window placed by the blocked locator on scenario-like parts is the one the entries
    give, within one block per part of its start and the same length."""
    import numpy as np

    parts = _locator_parts()
    mean = fourier_window._mean(parts)
    o_b, n_b, _l, _r = fourier_window._window(parts, mean)
    old = fourier_window.BLOCK_SPREAD
    try:
        fourier_window.BLOCK_SPREAD = 1e9
        o_e, n_e, _l, _r = fourier_window._window(parts, mean)
    finally:
        fourier_window.BLOCK_SPREAD = old
    assert n_b == n_e
    widest = max(fourier_window._blocks(p.xh)[3] + 1 for p in parts)
    assert o_e - 2 * widest * len(parts) <= o_b <= o_e, (o_b, o_e)
    assert np.isfinite(mean)


def test_abs_up_in_place_is_the_literal_bound() -> None:
    """``_abs_up`` (in place) gives exactly ``up(sqrt(up(up(re^2) + up(im^2))))``, and it is
    at least the modulus of every complex number (checked in exact rationals)."""
    import numpy as np

    from dpverify.theorems.numerics.pld.fourier_pld import _up_nonneg

    rng = np.random.default_rng(7)
    z = (rng.standard_normal(2000) + 1j * rng.standard_normal(2000)) * np.exp(
        rng.uniform(-700, 700, 2000))
    z[:3] = [0, 1e-320j, 5e-324]
    with np.errstate(over="ignore"):
        want = _up_nonneg(np.sqrt(_up_nonneg(_up_nonneg(z.real * z.real)
                                             + _up_nonneg(z.imag * z.imag))))
        got = fourier._abs_up(z)
    assert np.array_equal(got, want)
    for v, bound in zip(z[:200].tolist(), got[:200].tolist(), strict=True):
        modulus_sq = Fraction(v.real) ** 2 + Fraction(v.imag) ** 2
        assert bound == float("inf") or Fraction(bound) ** 2 >= modulus_sq


def test_negligible_coefficients_are_not_powered(monkeypatch: pytest.MonkeyPatch) -> None:
    """Coefficients whose k-th power is provably below ``2^-CUT_BITS`` are not powered (step 3
    of :mod:`.fourier`): at k = 2000 (68 of 2049 powered) and k = 120 (333 of 1025) the bounds
    match those of powering every coefficient (``CUT_BITS`` huge: the cut is 0) to 1e-12, and
    at k = 120 they are on the right side of the exact composition."""
    pair = pld.SubsampledGaussian(Fraction(1, 20), Fraction(1), "add")
    for k, eps in ((2000, Fraction(3)), (120, Fraction(1))):
        for kind in ("upper", "lower"):
            ones = one_steps([(pair, k)], Fraction(1, 64), kind)
            lam = fourier.fourier_tilt(ones, float(eps))
            monkeypatch.setattr(fourier, "CUT_BITS", 200)
            cut = fourier.compose_fourier(ones, lam).delta_bound(eps)
            monkeypatch.setattr(fourier, "CUT_BITS", 10**9)
            full = fourier.compose_fourier(ones, lam).delta_bound(eps)
            end = (lambda b: b.upper()) if kind == "upper" else (lambda b: b.lower())
            assert abs(float(end(cut) - end(full))) <= 1e-12 * float(end(full))
            if k == 120:
                check_brackets(ones, [str(eps)])


@pytest.mark.parametrize(("pairs", "h", "eps_list"), CASES)
@pytest.mark.parametrize("kind", ["upper", "lower"])
def test_fourier_brackets_the_exact_composition(pairs: list, h: Fraction, eps_list: list[str],
                                                kind: str) -> None:
    check_brackets(one_steps(pairs, h, kind), eps_list)


@settings(max_examples=200, deadline=None)
@given(lam_h=st.fractions(min_value=0, max_value=2).map(lambda f: f.limit_denominator(2**20)),
       n_log=st.integers(min_value=1, max_value=22), t0_frac=st.floats(0.0, 1.0))
def test_transform_error_bounds_the_weights_2_norm(lam_h: Fraction, n_log: int,
                                                   t0_frac: float) -> None:
    """The factor of the transform errors in a query (Cauchy-Schwarz): at least ``||m||_2 /
    sqrt(n)`` for the largest admissible weights ``m_t = e^{-lam_h (t - t0)}``, t0 <= t < n
    (a geometric sum at 30 digits), and never above the l1 form (factor 1)."""
    n = 2**n_log
    t0 = min(int(t0_frac * n), n - 1)
    four = fourier.FourierPLD("upper", Fraction(1, 64), Fraction(0), lam_h, [0.0] * n,
                              flint.arb(0), 0.0, 1, 1.0, flint.arb(0), flint.arb(0),
                              flint.arb(0))
    got = four._transform_error(t0)
    with mp.workdps(30):
        r = mp.exp(-2 * mp.mpf(lam_h.numerator) / lam_h.denominator)
        count = n - t0
        norm2 = count if lam_h == 0 else (1 - r**count) / (1 - r)
        need = mp.sqrt(norm2 / n)
    assert float(got.upper()) >= float(need) * (1 - 1e-15)
    assert got.upper() <= 1


def weights_aligned_error(four: fourier.FourierPLD, eps: Fraction, size: float) -> list[float]:
    """A perturbation of the window of 2-norm ``size / sqrt(n)`` (within round-off) along the
    exact weights of the query at ``eps``, pointing down: the worst case of Cauchy-Schwarz."""
    import numpy as np

    n = len(four.values)
    t0 = int((eps - four.start) // four.h) + 1
    s = np.arange(n - t0, dtype=float)
    rho = float(mp.exp(eps - four.start - t0 * four.h))
    m = np.exp(-float(four.lam_h) * s) * (1 - rho * np.exp(-float(four.h) * s))
    out = np.zeros(n)
    out[t0:] = -m / float(np.linalg.norm(m)) * size / np.sqrt(n) * (1 - 1e-9)
    return out


def check_transform_error_covers_aligned_errors() -> None:
    """An upper PLD whose window carries a downward error along the query weights, of the
    largest 2-norm its transform bound ``eta`` allows, still bounds the unperturbed value;
    one of 10x that 2-norm does not (the check can fail)."""
    ones = one_steps([(pld.SubsampledGaussian(Fraction(1, 10), Fraction(1), "add"), 60)],
                     Fraction(1, 64), "upper")
    eps = Fraction(2)
    four = fourier.compose_fourier(ones, fourier.fourier_tilt(ones, float(eps)))
    assert four.lam_h > 0
    clean = four.values.copy()
    four.eta, four.eta_in, four._tables = 0.0, 0.0, None
    truth = four.delta_at(eps).upper()
    size = 1e-6 * float(truth) / float((four.log_c - mp_arb(four.lam_h)).exp().mid())
    for factor, holds in ((1.0, True), (10.0, False)):
        four.values = clean + weights_aligned_error(four, eps, size * factor)
        four.eta, four._tables = size, None
        assert (four.delta_at(eps).upper() >= truth) == holds, factor


def mp_arb(x: Fraction) -> flint.arb:
    return flint.arb(flint.fmpq(x.numerator, x.denominator))


def test_transform_error_covers_weight_aligned_errors() -> None:
    check_transform_error_covers_aligned_errors()


def test_fourier_window_with_aliasing_accounted() -> None:
    """k large enough that the window is shorter than the composition (Chernoff tails
    counted): still on the right side of the exact value, both kinds."""
    pairs = [(pld.SubsampledGaussian(Fraction(1, 10), Fraction(1), "add"), 60)]
    ups = one_steps(pairs, Fraction(1, 64), "upper")
    four = fourier.compose_fourier(ups, fourier.fourier_tilt(ups, 2.0))
    assert len(four) < 60 * (len(ups[0][0]) - 1) + 1  # a window, not the whole composition
    assert four.right.upper() > 0  # a right tail outside it is counted
    check_brackets(ups, ["1.5", "2", "2.5"], 1e-7)
    check_brackets(one_steps(pairs, Fraction(1, 64), "lower"), ["1.5", "2", "2.5"], 1e-7)


def test_fourier_eps_bounds_bracket_the_exact_ones() -> None:
    pairs = [(pld.SubsampledGaussian(Fraction(1, 20), Fraction(1), "add"), 8)]
    delta = Fraction(1, 10**4)
    for kind in ("upper", "lower"):
        ones = one_steps(pairs, Fraction(1, 128), kind)
        exact = exact_composition(ones)
        four = fourier.compose_fourier(ones, fourier.fourier_tilt(ones, 1.0))
        eps = four.eps_bound(delta)
        if kind == "upper":
            assert exact.delta_at(eps) <= pld._arb(delta)
        else:
            assert exact.delta_at(eps) > pld._arb(delta)


def test_query_below_the_window_is_trivial() -> None:
    pairs = [(pld.SubsampledGaussian(Fraction(1, 10), Fraction(1), "add"), 60)]
    for kind, trivial in (("upper", 1), ("lower", 0)):
        ones = one_steps(pairs, Fraction(1, 64), kind)
        four = fourier.compose_fourier(ones, fourier.fourier_tilt(ones, 2.5))
        below = four.start - 1
        assert four.delta_bound(below) == trivial


def test_fourier_enclosure_contains_the_gaussian_value() -> None:
    sigma, delta = Fraction(2), Fraction(1, 1000)
    for k in (1, 3, 8):
        enc = pld.enclose_eps(pld.sgm_pairs(Fraction(1), sigma), k, delta, rel_width=1e-4,
                              method="fourier")
        assert contains(enc, gauss_eps(mp.mpf(2) / mp.sqrt(k), mp.mpf(1) / 1000))
        assert enc.rel_width() <= 1e-4


def test_fourier_delta_encloses_randomized_response() -> None:
    for eps in ("1", "3"):
        enc = pld.enclose_delta([pld.RandomizedResponse(Fraction(1, 2))], 40, Fraction(eps),
                                h=Fraction(1, 64), method="fourier")
        assert contains(enc, kfold_rr_delta(mp.mpf("0.5"), 40, mp.mpf(eps)))


def test_fourier_heterogeneous_gaussians_match_the_gaussian_formula() -> None:
    parts = [(Fraction(1), Fraction(2), 3), (Fraction(1), Fraction(3), 5)]
    enc = pld.enclose_eps_composition(pld.sgm_composition(parts), Fraction(1, 10**4),
                                      rel_width=1e-4, method="fourier")
    s_eff = 1 / mp.sqrt(mp.mpf(3) / 4 + mp.mpf(5) / 9)
    assert contains(enc, gauss_eps(s_eff, mp.mpf(1) / 10**4))


def test_fourier_and_exact_enclosures_intersect() -> None:
    pairs = pld.sgm_pairs(Fraction(1, 50), Fraction(1))
    delta = Fraction(1, 10**5)
    exact = pld.enclose_eps(pairs, 300, delta, rel_width=1e-4, method="exact")
    four = pld.enclose_eps(pairs, 300, delta, rel_width=1e-4, method="fourier")
    assert four.lo <= exact.hi and exact.lo <= four.hi
    assert four.rel_width() <= 1e-4


def test_fourier_window_has_an_up_front_size_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fourier_window, "MAX_LENGTH", 64)
    ones = one_steps([(pld.SubsampledGaussian(Fraction(1, 10), Fraction(1), "add"), 60)],
                     Fraction(1, 64), "upper")
    with pytest.raises(pld.PrecisionExhausted):
        fourier.compose_fourier(ones, Fraction(1))


@settings(max_examples=5, deadline=None)
@given(q=st.sampled_from([Fraction(1, 50), Fraction(1, 10)]),
       sigma=st.sampled_from([Fraction(4, 5), Fraction(1), Fraction(3, 2)]),
       k=st.integers(1, 200))
def test_finer_fourier_enclosures_overlap_coarser_ones(q: Fraction, sigma: Fraction,
                                                       k: int) -> None:
    """Not containment by construction (grids of different steps do not nest; the driver
    intersects its own passes): the finer target's enclosure lies inside its first pass,
    overlaps the coarser enclosure, and is no wider unless it met its target."""
    pairs = pld.sgm_pairs(q, sigma)
    delta = Fraction(1, 10**5)
    coarse = pld.enclose_eps(pairs, k, delta, rel_width=1e-2, method="fourier")
    fine = pld.enclose_eps(pairs, k, delta, rel_width=2e-4, method="fourier")
    first = fine.passes[0]
    assert first["lo"] <= float(fine.lo) and float(fine.hi) <= first["hi"]
    assert coarse.lo <= fine.hi and fine.lo <= coarse.hi
    assert fine.hi - fine.lo <= coarse.hi - coarse.lo or fine.rel_width() <= 2e-4


def test_driver_falls_back_to_exact_when_fourier_cannot(monkeypatch: pytest.MonkeyPatch) -> None:
    pairs = pld.sgm_pairs(Fraction(1, 20), Fraction(1))
    delta, h = Fraction(1, 10**4), Fraction(1, 256)
    exact = pld.enclose_eps(pairs, 50, delta, h=h, method="exact")
    monkeypatch.setattr(fourier_window, "MAX_LENGTH", 16)
    pld._CACHE.clear()
    fell_back = pld.enclose_eps(pairs, 50, delta, h=h, method="fourier")
    assert (fell_back.lo, fell_back.hi) == (exact.lo, exact.hi)


def test_audit_reference_goes_through_the_default_method(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """Issue 14 item 4: the audit references compose with the engine's default method
    ("fourier"); their bounds overlap those of the exact path."""
    from dpverify.verifiers.accountants.reference import Reference
    from dpverify.verifiers.accountants.scenario import Scenario

    sc = Scenario.from_dict({"neighboring": "add_remove", "events": [
        {"mechanism": "gaussian", "sigma": 1.0, "count": 40,
         "sampling": {"scheme": "poisson", "q": 0.05}}]})
    four = Reference(sc, rel_width=1e-3, max_seconds=20, force_pld=True)
    b_four = four.epsilon(1e-5)
    assert {key[3] for key in four._pld_cache} == {"fourier"}
    monkeypatch.setattr(pld, "DEFAULT_METHOD", "exact")
    exact = Reference(sc, rel_width=1e-3, max_seconds=20, force_pld=True)
    b_exact = exact.epsilon(1e-5)
    assert {key[3] for key in exact._pld_cache} == {"exact"}
    assert b_four.lo <= b_exact.hi and b_exact.lo <= b_four.hi
    assert b_four.rel_width() <= 1e-3


def test_driver_composes_small_compositions_exactly(monkeypatch: pytest.MonkeyPatch) -> None:
    """Below ``FOURIER_MIN_SIZE`` (composed length x bits) "fourier" is the exact path; with
    the rule off, the same enclosure comes from the Fourier route (and differs)."""
    pairs = pld.sgm_pairs(Fraction(1, 10), Fraction(1))
    delta, h = Fraction(1, 10**5), Fraction(1, 64)
    exact = pld.enclose_eps(pairs, 3, delta, h=h, method="exact")
    four = pld.enclose_eps(pairs, 3, delta, h=h, method="fourier")
    assert (four.lo, four.hi) != (exact.lo, exact.hi)
    assert four.lo <= exact.hi and exact.lo <= four.hi
    monkeypatch.setattr(passes, "FOURIER_MIN_SIZE", DRIVER_MIN_SIZE)
    sized = pld.enclose_eps(pairs, 3, delta, h=h, method="fourier")
    assert (sized.lo, sized.hi) == (exact.lo, exact.hi)
    big = pld.enclose_eps(pairs, 3000, delta, h=h, method="fourier")
    big_exact = pld.enclose_eps(pairs, 3000, delta, h=h, method="exact")
    assert (big.lo, big.hi) != (big_exact.lo, big_exact.hi)
