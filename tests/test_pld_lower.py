"""The vectorised lower one-step PLD (theorems/numerics/pld/lower.py): every atom re-checked
exactly in arb from the pair's CDFs (a partition of the outcomes whose loss is at least the
atom's grid point, with at least the emitted P-mass), held-out one-step values, the previous
pouring construction and finer grids as references."""

from __future__ import annotations

import sys
from fractions import Fraction

import flint
import mpmath
import numpy as np
import pytest

from dpverify.theorems.ctx import arb_precision
from dpverify.theorems.numerics import pld
from dpverify.theorems.numerics.pld import lower
from dpverify.theorems.numerics.pld.discretize import discretize, grid_for
from dpverify.theorems.numerics.pld.subsampled import SubsampledPair
from tests.test_subsampling import sgm_add_quad, sgm_remove_quad

discretize_module = sys.modules["dpverify.theorems.numerics.pld.discretize"]
mp = mpmath.MPContext()
mp.dps = 40
BITS, TAIL = 70, 1e-15


def _plans(monkeypatch: pytest.MonkeyPatch, pair: pld.LossPair, h: Fraction,
           taylor_min: int | None = 0) -> list[tuple[lower.Plan, int]]:
    """The exchange plans made by ``discretize`` (with the grid index of their first point)."""
    if taylor_min is not None:
        monkeypatch.setattr(discretize_module, "TAYLOR_MIN_STEPS", taylor_min)
    got: list[tuple[lower.Plan, int]] = []
    grid = grid_for(pair, h)

    def spy(bins, e_hi, z0, hf):
        plan = lower.exchange_plan(bins, e_hi, z0, hf)
        got.append((plan, round((Fraction(z0) - grid.offset) / h)))
        return plan.t, plan.mass

    monkeypatch.setattr(discretize_module, "lower_atoms", spy)
    discretize(pair, grid, BITS, TAIL)
    return got


def violations(pair: pld.LossPair, h: Fraction, plan: lower.Plan, ilo: int) -> list[str]:
    """Every way the plan fails to be a sound lower PLD, checked in arb at 200 bits from the
    pair's CDFs at the exact bin ends (independent of the float enclosures)."""
    grid = grid_for(pair, h)
    out: list[str] = []
    f, g, share = (np.asarray(x, dtype=float) for x in (plan.f, plan.g, plan.share))
    nb = len(share)
    for i in range(nb):  # the fractions of every bin: nonnegative, summing to at most 1
        used = [Fraction(share[i]), Fraction(f[i - 1]) if i else Fraction(0),
                Fraction(g[i + 1]) if i + 1 < nb else Fraction(0)]
        if min(used) < 0 or sum(used) > 1:
            out.append(f"bin {i}: fractions {used}")
    with arb_precision(200):
        def z(j: float) -> flint.arb:
            return pld._arb(grid.offset) + pld._arb(Fraction(ilo) + Fraction(j)) * pld._arb(h)

        ends = sorted(set(plan.bins.a.tolist()) | set(plan.bins.b.tolist()))
        cdf = {e: pair.cdf_sf(z(e)) for e in ends}

        def mass(a: float, b: float) -> tuple[flint.arb, flint.arb]:
            fa, fb = cdf[a], cdf[b]
            return ((fb[0] - fa[0]).intersection(fa[2] - fb[2]),
                    (fb[1] - fa[1]).intersection(fa[3] - fb[3]))

        pq = [mass(a, b) for a, b in zip(plan.bins.a.tolist(), plan.bins.b.tolist(),
                                         strict=True)]
        zero = (flint.arb(0), flint.arb(0))
        for j in range(nb):
            if not plan.keep[j] or plan.mass[j] == 0:
                continue
            nxt = pq[j + 1] if j + 1 < nb else zero
            prv = pq[j - 1] if j else zero
            fr = [flint.arb(share[j]), flint.arb(f[j]), flint.arb(g[j])]
            p = fr[0] * pq[j][0] + fr[1] * nxt[0] + fr[2] * prv[0]
            q = fr[0] * pq[j][1] + fr[1] * nxt[1] + fr[2] * prv[1]
            if not p - z(int(plan.t[j])).exp() * q >= 0:
                out.append(f"atom {j} at {int(plan.t[j])}: loss not certified >= its grid point")
            if not flint.arb(float(plan.mass[j])) <= p:
                out.append(f"atom {j}: mass {plan.mass[j]} above its P-mass {p}")
    return out


PAIRS = [
    ("sgm add C", lambda: pld.SubsampledGaussian(Fraction(256, 60000), Fraction(11, 10), "add")),
    ("sgm remove C",
     lambda: pld.SubsampledGaussian(Fraction(256, 60000), Fraction(11, 10), "remove")),
    ("sgm add 0.1", lambda: pld.SubsampledGaussian(Fraction(1, 10), Fraction(1), "add")),
    ("sgm remove 0.1", lambda: pld.SubsampledGaussian(Fraction(1, 10), Fraction(1), "remove")),
    ("gaussian", lambda: pld.SubsampledGaussian(Fraction(1), Fraction(2), "add")),
    ("laplace", lambda: pld.Laplace(Fraction(1))),
    ("subsampled laplace", lambda: SubsampledPair(pld.Laplace(Fraction(1)), Fraction(1, 5),
                                                  "remove")),
]


@pytest.mark.parametrize(("name", "make"), PAIRS, ids=[p[0] for p in PAIRS])
@pytest.mark.parametrize("h", [Fraction(1, 64), Fraction(3, 4096)])
def test_every_atom_is_certified(monkeypatch, name, make, h) -> None:
    pair = make()
    plans = _plans(monkeypatch, pair, h)
    assert plans
    for plan, ilo in plans:
        assert plan.keep.any()
        assert violations(pair, h, plan, ilo) == []


def test_point_by_point_route_is_certified(monkeypatch) -> None:
    pair = pld.SubsampledGaussian(Fraction(1, 100), Fraction(1), "remove")
    h = Fraction(1, 512)
    monkeypatch.setattr(pld.SubsampledGaussian, "cdf_series", lambda self, z: None)
    for plan, ilo in _plans(monkeypatch, pair, h, taylor_min=None):
        assert violations(pair, h, plan, ilo) == []


@pytest.mark.parametrize(("q", "sigma", "eps"), [("256/60000", "11/10", "0.01"),
                                                 ("1/100", "1", "0.1"), ("1/10", "4/5", "0.5")])
def test_one_step_lower_below_held_out_and_near_the_pouring(q, sigma, eps) -> None:
    """k = 1 against output-space quadrature; the new lower PLD is within a small fraction of
    the upper-lower width of the previous (poured) one."""
    qf, sf, ef = Fraction(q), Fraction(sigma), Fraction(eps)
    exact = {"add": sgm_add_quad(mp.mpf(qf.numerator) / qf.denominator, mp.mpf(sf.numerator)
                                 / sf.denominator, mp.mpf(ef.numerator) / ef.denominator),
             "remove": sgm_remove_quad(mp.mpf(qf.numerator) / qf.denominator,
                                       mp.mpf(sf.numerator) / sf.denominator,
                                       mp.mpf(ef.numerator) / ef.denominator)}
    h = Fraction(1, 2048)
    for pair in pld.sgm_pairs(qf, sf):
        grid = grid_for(pair, h)
        up, new = discretize(pair, grid, BITS, TAIL)
        _, old = discretize(pair, grid, BITS, TAIL, pour=True)
        d_up, d_new, d_old = (x.delta_bound(ef) for x in (up, new, old))
        truth = exact[pair.direction]
        assert float(d_new.upper()) <= float(truth) <= float(d_up.lower()) * (1 + 1e-12)
        width = float(d_up.mid()) - float(d_old.mid())
        assert abs(float(d_new.mid()) - float(d_old.mid())) <= 0.5 * width + 1e-15


def test_composed_lower_below_a_finer_upper() -> None:
    """k = 32 steps of scenario C's pairs: the lower bound at a coarse step stays below the
    upper bound at a 16 times finer one (the truth lies between), and is not trivially small."""
    eps = Fraction(1, 8)
    for pair in pld.sgm_pairs(Fraction(256, 60000), Fraction(11, 10)):
        _, lo = discretize(pair, grid_for(pair, Fraction(1, 256)), BITS, TAIL)
        up, _ = discretize(pair, grid_for(pair, Fraction(1, 4096)), BITS, TAIL, lower=False)
        d_lo = lo._trimmed().self_compose(32).delta_bound(eps)
        d_up = up._trimmed().self_compose(32).delta_bound(eps)
        assert float(d_lo.upper()) <= float(d_up.lower())
        if pair.direction == "add":  # remove: delta below the unit 2^-70 at this eps
            assert float(d_lo.mid()) > 0.5 * float(d_up.mid()) > 0


def test_outward_steps_are_bitwise_nextafter() -> None:
    """``_arith.up``/``down`` (integer steps on the encodings for large arrays) equal
    ``np.nextafter`` bit for bit: zeros of both signs, subnormals, the normal range's ends, the
    largest floats, infinities and NaN, at both sizes (below and above ``SMALL``)."""
    from dpverify.theorems.numerics.pld._arith import SMALL, down, up

    tiny, big = 5e-324, 1.7976931348623157e308
    special = np.array([0.0, -0.0, tiny, -tiny, 2 * tiny, 2.0**-1022, -(2.0**-1022),
                        np.nextafter(2.0**-1022, 0), 1.0, -1.0, 0.5, -0.5, 2.0**52, big, -big,
                        np.inf, -np.inf, np.nan, -np.nan])
    rng = np.random.default_rng(7)
    rand = rng.standard_normal(3 * SMALL) * 10.0 ** rng.integers(-320, 300, 3 * SMALL)
    with np.errstate(over="ignore"):
        for x in (special, np.concatenate([rand, special]), np.tile(special, SMALL)):
            for ours, direction in ((up, np.inf), (down, -np.inf)):
                got, want = ours(x), np.nextafter(x, direction)
                assert np.array_equal(got.view(np.int64), want.view(np.int64))
        for v in (1.0, -0.0, 3.5e-310):
            assert up(v) == np.nextafter(v, np.inf) and down(v) == np.nextafter(v, -np.inf)


def test_owned_outward_steps_are_bitwise_nextafter() -> None:
    """``_arith.up_owned``/``down_owned`` (in place on a temporary; chunked) equal
    ``np.nextafter`` bit for bit on the special values and random floats, at both sizes, 1-D and
    2-D in both orders, in one and in several chunks."""
    from dpverify.theorems.numerics.pld._arith import SMALL, down, down_owned, up, up_owned

    tiny, big = 5e-324, 1.7976931348623157e308
    special = np.array([0.0, -0.0, tiny, -tiny, 2.0**-1022, -(2.0**-1022), 1.0, -1.0, big,
                        -big, np.inf, -np.inf, np.nan, -np.nan])
    rng = np.random.default_rng(11)
    rand = rng.standard_normal(3 * SMALL) * 10.0 ** rng.integers(-320, 300, 3 * SMALL)
    with np.errstate(over="ignore"):
        mixed = np.concatenate([rand, special])
        square = np.resize(mixed, (SMALL // 8, 24))  # 2-D, C and Fortran order
        for x in (special, mixed, np.tile(mixed, 3), square, np.asfortranarray(square)):
            for ours, direction in ((up_owned, np.inf), (down_owned, -np.inf)):
                want = np.nextafter(x, direction)
                got = ours(x.copy(order="K"))
                assert np.array_equal(got.view(np.int64), want.view(np.int64))
        for ours, direction in ((up, np.inf), (down, -np.inf)):  # a Fortran-ordered operand
            got, want = ours(np.asfortranarray(square)), np.nextafter(square, direction)
            assert np.array_equal(got.view(np.int64), want.view(np.int64))


def _real_bins(h: Fraction) -> tuple[lower.Bins, np.ndarray, float, float]:
    """The lower bins of B's add pair on the grid of step h (a mass at the edge of the support:
    merges and promotions happen) and their ``e^z`` enclosure."""
    got = []

    def spy(bins, e_hi, z0, hf):
        got.append((bins, e_hi, z0, hf))
        return lower.lower_atoms(bins, e_hi, z0, hf)

    pair = pld.SubsampledGaussian(Fraction(1, 1000), Fraction(4, 5), "add")
    original = discretize_module.lower_atoms
    discretize_module.lower_atoms = spy
    try:
        discretize(pair, grid_for(pair, h), BITS, TAIL)
    finally:
        discretize_module.lower_atoms = original
    return got[0]


@pytest.mark.parametrize("seed", [0, 1])
def test_local_recomputation_equals_the_whole_arrays(seed: int) -> None:
    """After a merge (``_merge_down``, ``_merge_stuck``), ``_carried`` (only the bins next to a
    changed one recomputed) gives the
    targets, excesses and fractions of ``_targets``/``_borrowing`` on the whole merged array bit
    for bit; ``_promotion`` (the next grid point's borrowing at the heavy bins only) equals its
    whole-array form."""
    bins, e_hi, z0, h = _real_bins(Fraction(1, 8192))
    n = len(e_hi)
    bins = lower.Bins(np.maximum(bins.p_lo, 0.0), bins.p_hi, np.maximum(bins.q_lo, 0.0),
                      bins.q_hi, bins.a, bins.b)
    t = lower._targets(bins, n, z0, h)
    state = (t, *lower._borrowing(bins, t, e_hi))
    rng = np.random.default_rng(seed)
    sel = rng.random(len(bins)) < 0.01
    sel[[1, 2, len(bins) - 1]] = True  # at the bottom and at the top, adjacent ones
    merged, removed, changed = lower._merge_down(bins, sel)
    got = lower._carried(merged, removed, changed, state, e_hi, z0, h)
    t_all = lower._targets(merged, n, z0, h)
    want = (t_all, *lower._borrowing(merged, t_all, e_hi))
    for a, b in zip(got, want, strict=True):
        assert np.array_equal(np.asarray(a).view(np.uint8), np.asarray(b).view(np.uint8))
    stuck = rng.random(len(bins)) < 0.002
    stuck[[1, len(bins) - 2]] = True
    merged2, removed, changed = lower._merge_stuck(bins, stuck, e_hi, z0, h)
    got = lower._carried(merged2, removed, changed, state, e_hi, z0, h)
    t_all2 = lower._targets(merged2, n, z0, h)
    want2 = (t_all2, *lower._borrowing(merged2, t_all2, e_hi))
    for a, b in zip(got, want2, strict=True):
        assert np.array_equal(np.asarray(a).view(np.uint8), np.asarray(b).view(np.uint8))
    x, surplus = want[1], want[2]
    heavy, promote = lower._promotion(merged, t_all, x, surplus, e_hi)
    _x, surplus_up, f_up = lower._borrowing(merged, np.minimum(t_all + 1, n - 1), e_hi)
    assert np.array_equal(promote, heavy & ~surplus_up & (f_up <= 1) & (t_all + 1 < n))
    assert heavy.any()  # the heavy bins at the edge were checked
