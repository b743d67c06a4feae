"""Tests of the subsampling family: golden values by independent routes, enclosures, bad input.

Every reference is computed here with plain mpmath at 70 digits by a route other than the
product's formula: output-space quadrature of a hockey-stick or of a Rényi moment, enumeration
of subsets or of finite outputs, a brute-force grid, or root finding on one of those. The
product is evaluated at 15 and 50 digits and must (a) enclose the reference and (b) round to it
within 0.6 units in the last place.
"""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction

import mpmath
import pytest

from dpverify.reports.cli import main
from dpverify.theorems import get
from dpverify.theorems.core import bind
from dpverify.theorems.formulas.subsampled_gaussian import STANDARD_ORDERS
from dpverify.verifiers.evaluation import evaluate
from tests.common.golden import GoldenCases

MY_IDS = ("BBG-T8", "BBG-T9", "BBG-T10", "STK-ADDREM-VS-REPL", "STK-SUBSAMPLE-COMP",
          "SGM-1STEP-EXACT", "MTZ-SGM-RDP", "STK-ANALYTIC-RDP", "SGM-PLD-COMP", "STK-HOWTO")

mp = mpmath.MPContext()
mp.dps = 70


def F(x: str) -> mpmath.mpf:
    f = Fraction(x)
    return mp.mpf(f.numerator) / f.denominator


def npdf(y, mean, sd):
    return mp.exp(-((y - mean) / sd) ** 2 / 2) / (sd * mp.sqrt(2 * mp.pi))


# ------------------------------------------------------------------------------------------
# independent routes, written here


def rr(eps0):
    z = mp.exp(eps0)
    return [z / (1 + z), 1 / (1 + z)], [1 / (1 + z), z / (1 + z)]


def max_log_ratio(p, q):
    return max(abs(mp.log(a / b)) for a, b in zip(p, q, strict=True))


def subsampled_rr_eps(eps0, q):
    """Exact eps of ((1-q) RR(0) + q RR(1), RR(0)): the largest |log ratio| over outputs."""
    one, zero = rr(eps0)
    mix = [(1 - q) * b + q * a for a, b in zip(one, zero, strict=True)]
    return max_log_ratio(mix, zero)


def subsets_rr_eps(eps0, n, m):
    """BBG-T9 witness by enumeration of all size-m subsets of n records (record 0 = u)."""
    one, zero = rr(eps0)
    inside = sum(1 for s in itertools.combinations(range(n), m) if 0 in s)
    total = math.comb(n, m)
    p = [(inside * a + (total - inside) * b) / total for a, b in zip(one, zero, strict=True)]
    return max_log_ratio(p, zero)


def leak_subsampled_delta(eps0, delta0, q):
    """BBG-T8 claim 2: the exact delta (both orders) of the subsampled LEAK pair at eps'."""
    z = mp.exp(eps0)
    pin = [delta0, (1 - delta0) * z / (1 + z), (1 - delta0) / (1 + z)]
    pout = [mp.mpf(0), 1 / (1 + z), z / (1 + z)]
    mix = [(1 - q) * b + q * a for a, b in zip(pin, pout, strict=True)]
    x = 1 + q * (z - 1)
    hs = lambda a, b: mp.fsum(max(u - x * v, 0) for u, v in zip(a, b, strict=True))  # noqa: E731
    return max(hs(mix, pout), hs(pout, mix))


def grid_repl_eps(eps0, q):
    """Brute force over a 41 x 41 log-uniform grid of b, b' in [e^-eps, e^eps]."""
    pts = [mp.exp(-eps0 + 2 * eps0 * i / 40) for i in range(41)]
    return mp.log(max(((1 - q) + q * b) / ((1 - q) + q * c) for b in pts for c in pts))


def sgm_add_quad(q, s, eps):
    """∫ max(mix - e^eps N0, 0) dy with a breakpoint at the crossing (found numerically)."""
    ee = mp.exp(eps)
    f = lambda y: (1 - q) * npdf(y, 0, s) + q * npdf(y, 1, s) - ee * npdf(y, 0, s)  # noqa: E731
    # the crossing: where the log likelihood ratio (well scaled, unlike f) equals eps
    y0 = mp.findroot(lambda y: mp.log((1 - q) + q * mp.exp((2 * y - 1) / (2 * s**2))) - eps,
                     (-10 * s, 10 * s + 10), solver="illinois")
    return mp.quad(lambda y: max(f(y), 0), [-mp.inf, y0, y0 + 10 * s, mp.inf])


def sgm_remove_quad(q, s, eps):
    ee = mp.exp(eps)
    f = lambda y: npdf(y, 0, s) - ee * ((1 - q) * npdf(y, 0, s) + q * npdf(y, 1, s))  # noqa: E731
    if ee * (1 - q) >= 1:
        return mp.mpf(0)
    y0 = mp.findroot(lambda y: -mp.log((1 - q) + q * mp.exp((2 * y - 1) / (2 * s**2))) - eps,
                     (-10 * s - 10, 10 * s), solver="illinois")
    return mp.quad(lambda y: max(f(y), 0), [-mp.inf, y0 - 10 * s, y0, mp.inf])


def sgm_moment_quad(q, s, power):
    """E_{N0}[(1 - q + q e^{(2y-1)/(2 s^2)})^power] by quadrature."""
    return mp.quad(lambda y: npdf(y, 0, s) * (1 - q + q * mp.exp((2 * y - 1) / (2 * s**2)))
                   ** power, [-mp.inf, -2, 0, 1, power + 2, mp.inf])


def sgm_renyi_quad(q, s, alpha, direction="add"):
    power = alpha if direction == "add" else 1 - alpha
    return mp.log(sgm_moment_quad(q, s, power)) / (alpha - 1)


def sgm_binomial(q, s, a):
    return mp.log(mp.fsum(mp.binomial(a, k) * (1 - q) ** (a - k) * q**k
                          * mp.exp(mp.mpf(k * k - k) / (2 * s**2)) for k in range(a + 1))) / (a - 1)


_CURVES: dict[tuple, list] = {}


def tau_curve_ref(q, s):
    key = (str(q), str(s))
    if key not in _CURVES:
        _CURVES[key] = [(mp.mpf(a.numerator) / a.denominator,
                         sgm_binomial(q, s, int(a)) if a.denominator == 1
                         else sgm_renyi_quad(q, s, mp.mpf(a.numerator) / a.denominator))
                        for a in STANDARD_ORDERS]
    return _CURVES[key]


def rdp_eps_ref(q, s, k, delta, conversion):
    """min over the standard grid; integer orders by a binomial sum written here, fractional
    orders by quadrature."""
    best = mp.inf
    for al, tau in tau_curve_ref(q, s):
        if conversion == "balle":
            e = k * tau + mp.log((al - 1) / al) - (mp.log(delta) + mp.log(al)) / (al - 1)
        else:
            e = k * tau - mp.log(delta) / (al - 1)
        best = min(best, e)
    return max(best, 0)


def laplace_mix_renyi(q, b, alpha):
    """D_alpha((1-q) Lap(0,b) + q Lap(1,b) || Lap(0,b)) by output-space quadrature."""

    def lap(y, m):
        return mp.exp(-abs(y - m) / b) / (2 * b)

    total = mp.quad(lambda y: lap(y, 0) * ((1 - q) + q * lap(y, 1) / lap(y, 0)) ** alpha,
                    [-mp.inf, 0, 1, mp.inf])
    return mp.log(total) / (alpha - 1)


def rr_mix_renyi(q, eps0, alpha):
    one, zero = rr(eps0)
    mix = [(1 - q) * b + q * a for a, b in zip(one, zero, strict=True)]
    return mp.log(mp.fsum(m**alpha * z ** (1 - alpha) for m, z in zip(mix, zero, strict=True))) \
        / (alpha - 1)


def adv_ref(eps0, q, k, delta, delta0):
    e = mp.log(1 + q * (mp.exp(eps0) - 1))
    return k * e**2 / 2 + e * mp.sqrt(2 * k * mp.log(1 / (delta - k * q * delta0)))


# ------------------------------------------------------------------------------------------
# golden cases: (theorem, evaluator, params, thunk of the independent value)


def _cases():
    cases = [
        ("BBG-T8", "eps", {"eps0": "1", "q": "0.1"}, lambda: subsampled_rr_eps(F("1"), F("0.1"))),
        ("BBG-T8", "delta", {"delta0": "1e-3", "q": "0.1"},
         lambda: leak_subsampled_delta(F("1"), F("1e-3"), F("0.1"))),
        ("BBG-T9", "eps", {"eps0": "0.7", "q": "3/7"}, lambda: subsets_rr_eps(F("0.7"), 7, 3)),
        ("BBG-T9", "delta", {"delta0": "0.05", "q": "4/5"},
         lambda: leak_subsampled_delta(F("4"), F("0.05"), F("4/5"))),
        ("STK-ADDREM-VS-REPL", "eps", {"eps0": "1", "q": "0.1", "neighboring": "replace_one"},
         lambda: grid_repl_eps(F("1"), F("0.1"))),
        ("STK-ADDREM-VS-REPL", "eps", {"eps0": "3", "q": "0.5", "neighboring": "add_remove"},
         lambda: subsampled_rr_eps(F("3"), F("0.5"))),
        ("STK-SUBSAMPLE-COMP", "eps", {"eps0": "1", "q": "0.01", "k": "100", "delta": "1e-5",
                                       "delta0": "1e-8"},
         lambda: adv_ref(F("1"), F("0.01"), 100, F("1e-5"), F("1e-8"))),
        ("SGM-1STEP-EXACT", "delta", {"q": "0.1", "sigma": "0.8", "eps": "0.1",
                                      "direction": "add"},
         lambda: sgm_add_quad(F("0.1"), F("0.8"), F("0.1"))),
        ("SGM-1STEP-EXACT", "delta", {"q": "0.5", "sigma": "2", "eps": "0.01",
                                      "direction": "remove"},
         lambda: sgm_remove_quad(F("0.5"), F("2"), F("0.01"))),
        ("SGM-1STEP-EXACT", "delta", {"q": "0.01", "sigma": "1", "eps": "1"},
         lambda: max(sgm_add_quad(F("0.01"), F("1"), F("1")),
                     sgm_remove_quad(F("0.01"), F("1"), F("1")))),
        ("SGM-1STEP-EXACT", "eps", {"q": "0.01", "sigma": "1", "delta": "1e-5"},
         lambda: mp.findroot(lambda e: sgm_add_quad(F("0.01"), F("1"), e) - F("1e-5"),
                             (mp.mpf("0.1994"), mp.mpf("0.1995")), solver="secant")),
        ("MTZ-SGM-RDP", "tau", {"q": "0.01", "sigma": "1", "alpha": "8"},
         lambda: sgm_renyi_quad(F("0.01"), F("1"), mp.mpf(8))),
        ("MTZ-SGM-RDP", "tau", {"q": "0.2", "sigma": "2", "alpha": "2.5"},
         lambda: sgm_renyi_quad(F("0.2"), F("2"), F("2.5"))),
        ("MTZ-SGM-RDP", "tau", {"q": "0.5", "sigma": "0.7", "alpha": "3", "direction": "remove"},
         lambda: sgm_renyi_quad(F("0.5"), F("0.7"), mp.mpf(3), "remove")),
        ("MTZ-SGM-RDP", "eps", {"q": "0.01", "sigma": "1", "k": "1000", "delta": "1e-5"},
         lambda: rdp_eps_ref(F("0.01"), F("1"), 1000, F("1e-5"), "balle")),
        ("MTZ-SGM-RDP", "eps_mironov", {"q": "0.01", "sigma": "1", "k": "1000",
                                        "delta": "1e-5"},
         lambda: rdp_eps_ref(F("0.01"), F("1"), 1000, F("1e-5"), "mironov")),
        ("STK-ANALYTIC-RDP", "tau", {"q": "0.001", "sigma": "0.8", "alpha": "20"},
         lambda: sgm_renyi_quad(F("0.001"), F("0.8"), mp.mpf(20))),
        ("STK-ANALYTIC-RDP", "tau_laplace", {"q": "0.3", "b": "1", "alpha": "4"},
         lambda: laplace_mix_renyi(F("0.3"), mp.mpf(1), mp.mpf(4))),
        ("STK-ANALYTIC-RDP", "tau_rr", {"q": "0.05", "eps0": "1", "alpha": "10"},
         lambda: rr_mix_renyi(F("0.05"), mp.mpf(1), mp.mpf(10))),
    ]
    return cases


CASES = _cases()
GOLDEN = GoldenCases(mp, CASES)


@pytest.mark.parametrize("i", range(len(CASES)), ids=GOLDEN.ids)
@pytest.mark.parametrize("digits", [15, 50])
def test_golden_value_by_independent_route(i: int, digits: int) -> None:
    GOLDEN.check(i, digits)


def test_every_evaluator_has_a_golden_case() -> None:
    covered = GOLDEN.covered
    for th in MY_IDS:
        for ev in get(th).evaluators:
            if ev.enclosure_only or ev.vector:
                continue  # SGM-PLD-COMP: tests/test_pld.py; tau_orders: tests/test_exposure.py
            assert (th, ev.name) in covered, f"{th}.{ev.name} has no independent golden value"


def test_catalogue_worked_values() -> None:
    """SGM-1STEP-EXACT claim 4 (0.19945) and MTZ-SGM-RDP claim 4 (8.936e-4, 3.0879)."""
    i = next(i for i, c in enumerate(CASES) if c[:2] == ("SGM-1STEP-EXACT", "eps"))
    assert mp.nstr(GOLDEN.reference(i), 5) == "0.19945"
    assert mp.nstr(sgm_renyi_quad(F("0.01"), mp.mpf(1), mp.mpf(8)), 4) == "0.0008936"
    assert mp.nstr(sgm_binomial(F("0.01"), mp.mpf(1), 16), 5) == "3.0879"


@pytest.mark.parametrize("alpha", ["1.25", "1.5", "1.75", "2.25", "2.5", "3.5", "4.5"])
def test_fractional_series_equals_quadrature(alpha: str) -> None:
    """MTZ-SGM-RDP claim 5 at every fractional order of the standard grid (the claim itself
    checks one order to keep the quick profile fast)."""
    from dpverify.theorems.ctx import MpCtx
    from dpverify.theorems.formulas.subsampled_gaussian import sgm_rdp_series

    ctx = MpCtx(200)
    series = ctx.run(sgm_rdp_series, q=Fraction(1, 100), sigma=Fraction(1), alpha=Fraction(alpha))
    ref = sgm_renyi_quad(F("0.01"), mp.mpf(1), F(alpha))
    assert abs(mp.mpf(series) - ref) < mp.mpf("1e-40") * abs(ref)


def test_rdp_eps_is_a_sound_upper_bound_at_one_step() -> None:
    """BALLE20-CONV claim 3 / SGM-1STEP-EXACT claim 4: 0.19945 <= RDP eps 0.956..."""
    ev = get("MTZ-SGM-RDP").evaluator("eps")
    rdp = evaluate(ev, bind(ev.params, {"q": "0.01", "sigma": "1", "k": "1", "delta": "1e-5"}),
                   15)
    assert mp.mpf(rdp.value) > mp.mpf("0.95") > mp.mpf("0.19945")


def test_scenario_c_rdp_values() -> None:
    """Scenario C_floor: RDP with the improved conversion (2.597 on the standard grid; dp_accounting
    reports 2.5966 on its own grid) and Mironov's (3.009, the TF-Privacy tutorial's 3.01)."""
    params = {"q": "256/60000", "sigma": "1.1", "k": "14062", "delta": "1e-5"}
    for name, expected in (("eps", "2.597"), ("eps_mironov", "3.009")):
        ev = get("MTZ-SGM-RDP").evaluator(name)
        assert evaluate(ev, bind(ev.params, params), 4).value == expected


# ------------------------------------------------------------------------------------------
# bad input, CLI


def test_slack_must_be_positive(capsys) -> None:
    code = main(["eval", "STK-SUBSAMPLE-COMP.eps", "eps0=1", "q=0.5", "k=10", "delta=1e-5",
                 "delta0=1e-5"])
    assert code == 2
    assert "slack" in capsys.readouterr().err


def test_bad_sampling_rate(capsys) -> None:
    assert main(["eval", "BBG-T8.eps", "eps0=1", "q=1.5"]) == 2
    assert "q must be in (0, 1]" in capsys.readouterr().err


def test_direction_choice(capsys) -> None:
    assert main(["eval", "SGM-1STEP-EXACT.delta", "q=0.01", "sigma=1", "eps=1",
                 "direction=sideways"]) == 2


def test_pld_eval_reports_an_enclosure(capsys) -> None:
    assert main(["eval", "SGM-PLD-COMP.eps", "q=1", "sigma=2", "k=4", "delta=1e-5",
                 "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    lo, hi = (mp.mpf(x) for x in doc["enclosure"])
    exact = mp.findroot(lambda e: mp.ncdf(1 / (2 * mp.mpf(1)) - e) - mp.exp(e)
                        * mp.ncdf(-1 / (2 * mp.mpf(1)) - e) - F("1e-5"), 4)  # sigma/sqrt(k) = 1
    assert lo <= exact <= hi
    assert hi - lo < mp.mpf("1e-2") * hi
    # the value has as many digits as the enclosure supports, and lies inside it
    assert lo <= mp.mpf(doc["value"]) <= hi or abs(mp.mpf(doc["value"]) - exact) < hi - lo


def test_theorems_are_registered() -> None:
    for th in MY_IDS:
        t = get(th)
        assert t.encoded and t.family == "subsampling" and t.claims
    assert get("STK-SUBSAMPLE").id == "BBG-T8"
    assert get("STK-SHARP-RDP").id == "MTZ-SGM-RDP"
