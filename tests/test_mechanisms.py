"""Tests of the primitive mechanisms (formulas.gaussian, formulas.laplace, formulas.gdp): golden
values by independent routes, enclosures, bad input.

Every reference value is computed here with plain mpmath at 70 digits by a route other than the
product's formula: output-space or PLD quadrature, a Neyman–Pearson search written here, a
second closed form (the rho-form of the Gaussian profile), or root finding on one of those.
The product is then evaluated at 15 and 50 digits and must (a) enclose the reference and (b)
round to it within 0.6 units in the last place.
"""

from __future__ import annotations

import json
from fractions import Fraction

import mpmath
import pytest

from dpverify.reports.cli import main
from dpverify.theorems import get
from dpverify.theorems.core import bind
from dpverify.verifiers.evaluation import evaluate
from tests.common.golden import GoldenCases, check_golden

MY_IDS = ("STK-PLD-GAUSS", "STK-HT", "STK-APPROX-PLD", "BW-ANALYTIC-GAUSS", "STK-LAPLACE",
          "DRS-GDP", "MIR-RDP-GAUSS", "MIR-RDP-LAP")

mp = mpmath.MPContext()
mp.dps = 70


def F(x: str) -> mpmath.mpf:
    return mp.mpf(Fraction(x).numerator) / Fraction(x).denominator


def npdf(y, mean, sd):
    return mp.exp(-((y - mean) / sd) ** 2 / 2) / (sd * mp.sqrt(2 * mp.pi))


# ------------------------------------------------------------------------------------------
# independent routes, written here


def gauss_output_quad(sigma, eps):
    """∫ max(p - e^eps q, 0) over the line, p = N(1, s^2), q = N(0, s^2)."""
    y0 = sigma**2 * eps + mp.mpf(1) / 2  # the kink of the positive part, as a breakpoint only
    ee = mp.exp(eps)
    return mp.quad(lambda y: max(npdf(y, 1, sigma) - ee * npdf(y, 0, sigma), 0),
                   [-mp.inf, y0, y0 + 5 * sigma, mp.inf])


def gauss_rho_form(sigma, eps):
    """The second closed form Phi(-(eps - rho)/r) - e^eps Phi(-(eps + rho)/r), r = sqrt(2 rho)."""
    rho = 1 / (2 * sigma**2)
    r = mp.sqrt(2 * rho)
    return mp.ncdf(-(eps - rho) / r) - mp.exp(eps) * mp.ncdf(-(eps + rho) / r)


def gauss_neyman_pearson(sigma, eps):
    """sup over thresholds z of the power gap, by golden-section search on [-60, 100] (no use of
    the stationary point)."""
    mu = 1 / sigma
    ee = mp.exp(eps)

    def gap(z):
        return mp.ncdf(mu - z) - ee * mp.ncdf(-z)

    a, b = mp.mpf(-60), mp.mpf(100)
    g = (mp.sqrt(5) - 1) / 2
    c, d = b - g * (b - a), a + g * (b - a)
    fc, fd = gap(c), gap(d)
    for _ in range(200):
        if fc > fd:
            b, d, fd = d, c, fc
            c = b - g * (b - a)
            fc = gap(c)
        else:
            a, c, fc = c, d, fd
            d = a + g * (b - a)
            fd = gap(d)
    return max(fc, fd)


def gauss_pld_quad(rho, eps):
    s = mp.sqrt(2 * rho)
    return mp.quad(lambda z: max(1 - mp.exp(eps - z), 0) * npdf(z, rho, s),
                   [-mp.inf, eps, eps + 3 * s, mp.inf])


def laplace_output_quad(b, eps, sens):
    ee = mp.exp(eps)

    def lap(y, m):
        return mp.exp(-abs(y - m) / b) / (2 * b)

    kinks = sorted({mp.mpf(0), sens, (sens - eps * b) / 2, (sens + eps * b) / 2})
    return mp.quad(lambda y: max(lap(y, 0) - ee * lap(y, sens), 0), [-mp.inf, *kinks, mp.inf])


def renyi_quad(logp, logq, alpha, pts):
    total = mp.quad(lambda y: mp.exp(alpha * logp(y) + (1 - alpha) * logq(y)), pts)
    return mp.log(total) / (alpha - 1)


def gauss_renyi(sigma, alpha):
    return renyi_quad(lambda y: mp.log(npdf(y, 1, sigma)), lambda y: mp.log(npdf(y, 0, sigma)),
                      alpha, [-mp.inf, alpha - 5 * sigma, alpha, alpha + 5 * sigma, mp.inf])


def laplace_renyi(b, alpha, sens):
    return renyi_quad(lambda y: -abs(y) / b - mp.log(2 * b),
                      lambda y: -abs(y - sens) / b - mp.log(2 * b),
                      alpha, [-mp.inf, 0, sens, mp.inf])


# ------------------------------------------------------------------------------------------
# references: (theorem, evaluator, params, thunk of the independent value)


def _cases():
    s1 = F("1")
    cases = []
    for sig, e in (("1", "1"), ("0.5", "3"), ("0.2", "40")):
        def ref(sig=sig, e=e):
            return gauss_output_quad(F(sig), F(e))
        cases += [
            ("BW-ANALYTIC-GAUSS", "delta", {"sigma": sig, "eps": e}, ref),
            ("STK-HT", "delta", {"sigma": sig, "eps": e}, ref),
        ]
    cases.append(("DRS-GDP", "delta", {"mu": "2", "eps": "3"},
                  lambda: gauss_pld_quad(mp.mpf(2), mp.mpf(3))))  # mu = 2: rho = 2
    cases.append(("STK-HT", "delta", {"sigma": "1/3", "eps": "-2"},
                  lambda: gauss_output_quad(mp.mpf(1) / 3, mp.mpf(-2))))

    def bw_eps_ref():
        return mp.findroot(lambda e: gauss_rho_form(s1, e) - F("1e-5"), mp.mpf(4))

    cases += [
        ("BW-ANALYTIC-GAUSS", "eps", {"sigma": "1", "delta": "1e-5"}, bw_eps_ref),
        ("DRS-GDP", "eps", {"mu": "1", "delta": "1e-5"}, bw_eps_ref),
        ("BW-ANALYTIC-GAUSS", "sigma", {"eps": "1", "delta": "1e-5"},
         lambda: mp.findroot(lambda s: gauss_rho_form(s, mp.mpf(1)) - F("1e-5"), mp.mpf(4))),
        ("STK-PLD-GAUSS", "mean", {"sigma": "0.7"}, lambda: 1 / (2 * F("0.7") ** 2)),
        ("STK-PLD-GAUSS", "tail", {"sigma": "0.5", "eps": "1"},  # rho = 2: Z ~ N(2, 4)
         lambda: mp.quad(lambda z: npdf(z, 2, 2), [1, 2, mp.inf])),
        ("STK-LAPLACE", "delta", {"b": "1", "eps": "0.3"},
         lambda: laplace_output_quad(mp.mpf(1), F("0.3"), mp.mpf(1))),
        ("STK-LAPLACE", "delta", {"b": "2", "eps": "0.2", "sensitivity": "1.5"},
         lambda: laplace_output_quad(mp.mpf(2), F("0.2"), F("1.5"))),
        ("STK-LAPLACE", "delta", {"b": "1/3", "eps": "-4"},  # below -eps0 = -3
         lambda: laplace_output_quad(mp.mpf(1) / 3, mp.mpf(-4), mp.mpf(1))),
        ("STK-LAPLACE", "eps", {"b": "1", "delta": "0.1"},
         lambda: mp.findroot(lambda e: laplace_output_quad(mp.mpf(1), e, mp.mpf(1)) - F("0.1"),
                             (mp.mpf("0.7"), mp.mpf("0.9")), solver="secant")),
        ("DRS-GDP", "mu_k", {"mu": "0.5", "k": "7"}, lambda: mp.sqrt(7) / 2),
        ("DRS-GDP", "rho", {"mu": "0.3"}, lambda: F("0.045")),
        ("DRS-GDP", "mu_clt", {"q": "0.01", "sigma": "1", "k": "4"},
         lambda: F("0.02") * mp.sqrt(mp.e - 1)),
        ("MIR-RDP-GAUSS", "tau", {"sigma": "0.8", "alpha": "3.5"},
         lambda: gauss_renyi(F("0.8"), F("3.5"))),
        ("MIR-RDP-LAP", "tau", {"b": "1.25", "alpha": "1.5"},
         lambda: laplace_renyi(F("1.25"), F("1.5"), mp.mpf(1))),
        ("MIR-RDP-LAP", "tau", {"b": "1/3", "alpha": "7", "sensitivity": "2"},
         lambda: laplace_renyi(mp.mpf(1) / 3, mp.mpf(7), mp.mpf(2))),
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
            assert (th, ev.name) in covered, f"{th}.{ev.name} has no independent golden value"


def test_independent_routes_agree() -> None:
    """The three Gaussian routes written here agree with each other (so a golden value is not
    an artefact of one route)."""
    for sig, e in (("1", "1"), ("0.5", "3"), ("2.5", "0.3"), ("0.2", "40")):
        q = gauss_output_quad(F(sig), F(e))
        assert abs(q - gauss_rho_form(F(sig), F(e))) < mp.mpf("1e-60")
        assert abs(q - gauss_neyman_pearson(F(sig), F(e))) < mp.mpf("1e-60")
        assert abs(q - gauss_pld_quad(1 / (2 * F(sig) ** 2), F(e))) < mp.mpf("1e-60")


def test_catalogue_golden_eps() -> None:
    """BW eps at (sigma, delta) = (1, 1e-5) is 4.377178095681... (catalogue BW claim 2)."""
    i = next(i for i, c in enumerate(CASES) if c[:2] == ("BW-ANALYTIC-GAUSS", "eps"))
    assert mp.nstr(GOLDEN.reference(i), 13) == "4.377178095681"


def test_laplace_closed_form_matches_pld_atoms() -> None:
    """The catalogue's Laplace profile against the PLD written here: atom +eps0 (mass 1/2), atom
    -eps0 (mass e^{-eps0}/2), continuous loss (1 - 2y)/b for y in (0, 1)."""
    from dpverify.theorems.ctx import MpCtx
    from dpverify.theorems.formulas.laplace import laplace_delta

    ctx = MpCtx(200)
    for eps0, eps in (("1", "0.3"), ("2", "0"), ("0.5", "0.49"), ("3", "3.5"), ("1", "-0.7")):
        e0, e = F(eps0), F(eps)
        b = 1 / e0

        def gain(z, e=e):
            return max(1 - mp.exp(e - z), 0)

        cont = mp.quad(lambda y, b=b, gain=gain: gain((1 - 2 * y) / b) * mp.exp(-y / b) / (2 * b),
                       [0, max(min((1 - e * b) / 2, 1), 0), 1])
        ref = gain(e0) / 2 + gain(-e0) * mp.exp(-e0) / 2 + cont
        got = ctx.run(laplace_delta, b=1 / Fraction(eps0), eps=Fraction(eps), sensitivity=1)
        assert abs(mp.mpf(got) - ref) < mp.mpf("1e-55")


def test_laplace_exact_zero_at_eps0() -> None:
    ev = get("STK-LAPLACE").evaluator("delta")
    r = evaluate(ev, bind(ev.params, {"b": "2", "eps": "0.5"}), 30)
    assert r.value == "0" and r.enclosure == ("0", "0")


def test_sgm_one_step_helper_matches_quadrature() -> None:
    """SGM-1STEP-EXACT as DRS-GDP claim 3 uses it, against a quadrature written here, and the
    catalogue's 0.19945."""
    from dpverify.theorems.ctx import ArbCtx
    from dpverify.theorems.formulas.subsampled_gaussian import sgm1_delta as _sgm_delta
    from dpverify.theorems.formulas.subsampled_gaussian import sgm1_eps as _sgm_eps

    q, s = F("0.01"), mp.mpf(1)

    def ref(eps):
        ee = mp.exp(eps)

        def mix(y):
            return (1 - q) * npdf(y, 0, s) + q * npdf(y, 1, s)

        def kink(sign):  # where the log-ratio log(mix/q) crosses sign*eps, found numerically
            h = lambda y: mp.log(mix(y) / npdf(y, 0, s)) - sign * eps  # noqa: E731
            if h(mp.mpf(-40)) * h(mp.mpf(40)) > 0:
                return []
            lo, hi = mp.mpf(-40), mp.mpf(40)  # h is monotone: bisection
            for _ in range(260):
                mid = (lo + hi) / 2
                lo, hi = (mid, hi) if h(mid) * h(lo) > 0 else (lo, mid)
            return [lo]

        base = [-mp.inf, -3, 0, 1, 3, mp.inf]
        return max(
            mp.quad(lambda y: max(mix(y) - ee * npdf(y, 0, s), 0), sorted(base + kink(1))),
            mp.quad(lambda y: max(npdf(y, 0, s) - ee * mix(y), 0), sorted(base + kink(-1))))

    ctx = ArbCtx(200)
    for eps in ("0.005", "0.2"):
        got = ctx.run(_sgm_delta, q=Fraction("0.01"), sigma=1, eps=Fraction(eps))
        assert abs(mp.mpf(got.mid().str(60, radius=False)) - ref(F(eps))) < mp.mpf("1e-25")
    e = ctx.run(_sgm_eps, q=Fraction("0.01"), sigma=1, delta=Fraction("1e-5"))
    assert abs(float(e.mid()) - 0.19945) < 5e-6


# ------------------------------------------------------------------------------------------
# bad input and the CLI


@pytest.mark.parametrize("argv", [
    ["eval", "BW-ANALYTIC-GAUSS.delta", "sigma=-1", "eps=1"],
    ["eval", "BW-ANALYTIC-GAUSS.eps", "sigma=1", "delta=1.5"],
    ["eval", "BW-ANALYTIC-GAUSS.nope", "sigma=1", "eps=1"],
    ["eval", "BW-ANALYTIC-GAUSS.delta", "sigma=1"],
    ["eval", "STK-LAPLACE.delta", "b=0", "eps=1"],
    ["eval", "STK-LAPLACE.eps", "b=1", "delta=0"],
    ["eval", "DRS-GDP.mu_k", "mu=1", "k=0"],
    ["eval", "DRS-GDP.mu_clt", "q=1.5", "sigma=1", "k=1"],
    ["eval", "MIR-RDP-LAP.tau", "b=1", "alpha=1"],
    ["eval", "MIR-RDP-GAUSS.tau", "sigma=1", "alpha=2", "beta=3"],
    ["eval", "STK-HT.delta", "sigma=abc", "eps=1"],
])
def test_bad_input_exits_2(argv, capsys) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.startswith("dpverify: error:")


def test_eval_json_30_digits_with_enclosure(capsys) -> None:
    assert main(["eval", "STK-HT.delta", "sigma=0.2", "eps=40", "--digits", "30",
                 "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    ref = gauss_output_quad(F("0.2"), F("40"))
    check_golden(mp, doc["value"], doc["enclosure"], ref, 30)


# ------------------------------------------------------------------------------------------
# structure and the quick run


def test_catalogue_order_and_claim_numbers() -> None:
    from dpverify.theorems import all_theorems

    THEOREMS = [t for t in all_theorems() if t.id in MY_IDS]
    assert tuple(t.id for t in THEOREMS) == MY_IDS
    expected_claims = {"STK-PLD-GAUSS": 4, "STK-HT": 2, "STK-APPROX-PLD": 6,
                       "BW-ANALYTIC-GAUSS": 5, "STK-LAPLACE": 5, "DRS-GDP": 5,
                       "MIR-RDP-GAUSS": 2, "MIR-RDP-LAP": 3}
    for t in THEOREMS:
        assert [c.number for c in t.claims] == list(range(1, expected_claims[t.id] + 1))


def test_stationarity_smt_is_proved_and_has_power() -> None:
    """STK-HT claim 2's SMT problems are proved; moving the threshold breaks them."""
    import sympy as sp

    from dpverify.theorems.claims import Smt, SmtProblem
    from dpverify.verifiers import smt
    from dpverify.verifiers.verdict import Budget, Status

    claim = next(c for c in get("STK-HT").claims if c.number == 2)
    checks = [c for c in claim.checks if isinstance(c, Smt)]
    assert len(checks) == 3
    moved_status = []
    for check in checks:
        status, _, _ = smt.verify(check, Budget(seconds=30))
        assert status is Status.PROVED
        # the same problem with the threshold moved to z_s = eps/mu (no mu/2)
        problem = check.build()
        mu, eps, zs = (sp.Symbol(n, real=True) for n in ("mu", "eps", "z_s"))
        moved = tuple(sp.Eq(mu * zs, eps) if h == sp.Eq(mu * zs, eps + mu**2 / 2) else h
                      for h in problem.hypotheses)
        assert moved != problem.hypotheses
        wrong = SmtProblem(problem.variables, moved, problem.goal, problem.substitutions)
        status, _, _ = smt.verify(Smt(lambda wrong=wrong: wrong, "moved threshold"),
                                  Budget(seconds=30))
        moved_status.append(status)
    # below the moved threshold the gap still increases; above it and at it the claims break
    assert moved_status[0] is Status.PROVED
    assert moved_status[1] is not Status.PROVED and moved_status[2] is not Status.PROVED


def test_quick_run_has_no_unexpected_outcome(tmp_path) -> None:
    code = main(["run", *MY_IDS, "--jobs", "2", "--out", str(tmp_path), "--format", "json"])
    doc = json.loads((tmp_path / "latest.json").read_text())
    bad = [(t["id"], c["number"], c["headline"]) for t in doc["theorems"] for c in t["claims"]
           if c["outcome"] != "as_expected"]
    assert code == 0 and not bad, bad
