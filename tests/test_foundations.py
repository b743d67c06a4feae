"""Tests of the foundations family (``dpverify.theorems.foundations``): structure, golden values
by independent routes, bad input, and a quick run of every foundations claim with no
unexpected outcome.

Golden values are computed here by routes independent of the product's formulas: mpmath
quadrature of the output-space integral for the Gaussian delta, a separate closed-form
implementation with ``mpmath.findroot`` for eps*, a direct bisection on the binomial sum for the
multi-database example.
"""

from __future__ import annotations

import importlib.util
from fractions import Fraction

import mpmath
import pytest

import dpverify.theorems as theorems
from dpverify.reports.cli import main
from dpverify.theorems.core import Theorem, bind
from dpverify.theorems.ctx import ArbCtx, MpCtx, arb_endpoints
from dpverify.theorems.formulas.adaptive_rr import adaptive_rr_transcripts
from dpverify.theorems.formulas.classic_gaussian import classic_eps_star
from dpverify.theorems.formulas.parallel_composition import (
    clamped_geometric,
    gce_multi_database_eps,
)
from dpverify.verifiers.dispatch import PROFILES
from dpverify.verifiers.evaluation import evaluate
from dpverify.verifiers.numeric import decide
from dpverify.verifiers.runner import assemble, execute, plan

IDS = ("DEF-DP", "BLOG-LAP", "DR-CLASSIC-GAUSS", "BLOG-EXP", "SMITH-ADAPT-COMP", "PAR",
       "SMITH-POST", "SMITH-GROUP", "SMITH-BAYES", "SMITH-NAME-SHAME", "SMITH-LLOYD", "BLOG-DEF")


def _family() -> list[Theorem]:
    """The family's Theorem values, as the registry collects them (index order)."""
    return [t for t in theorems.all_theorems() if t.family == "foundations"]


# ------------------------------------------------------------------------------------------
# structure


def test_catalogue_order_family_and_aliases():
    assert tuple(t.id for t in _family()) == IDS
    assert all(t.encoded for t in _family())
    assert {theorems.module_of(i).rpartition(".")[0] for i in IDS} == {
        "dpverify.theorems.foundations"}
    aliases = {t.id: t.aliases for t in _family() if t.aliases}
    assert aliases == {"DR-CLASSIC-GAUSS": ("BLOG-GAUSS",), "SMITH-ADAPT-COMP": ("BLOG-SEQ",),
                       "PAR": ("BLOG-PAR",), "SMITH-POST": ("BLOG-POST",),
                       "SMITH-NAME-SHAME": ("SMITH-ADDITIVE",)}
    assert theorems.resolve("BLOG-GAUSS") == "DR-CLASSIC-GAUSS"
    assert theorems.get("SMITH-ADDITIVE").id == "SMITH-NAME-SHAME"


MUTATION_GUARDS = {"SMITH-ADAPT-COMP": (3,), "PAR": (5, 6), "SMITH-BAYES": (4, 5),
                   "SMITH-GROUP": (4,)}


def test_claim_numbers_and_errata():
    catalogue_claims = {"DEF-DP": 4, "BLOG-LAP": 2, "DR-CLASSIC-GAUSS": 6, "BLOG-EXP": 1,
                        "SMITH-ADAPT-COMP": 1, "PAR": 3, "SMITH-POST": 2, "SMITH-GROUP": 3,
                        "SMITH-BAYES": 3, "SMITH-NAME-SHAME": 2, "SMITH-LLOYD": 1, "BLOG-DEF": 3}
    errata = {"DR-CLASSIC-GAUSS": 7, "BLOG-DEF": 4}
    for th in _family():
        numbers = [c.number for c in th.claims]
        expected = list(range(1, catalogue_claims[th.id] + 1))
        if th.id in errata:
            expected.append(errata[th.id])
        if th.id in UNIVERSAL_ADDED:
            expected.append(UNIVERSAL_ADDED[th.id])
        if th.id in MUTATION_GUARDS:  # appended after the mutation harness found survivors
            expected += MUTATION_GUARDS[th.id]
        assert numbers == expected, th.id
        for c in th.claims:
            refuted = errata.get(th.id) == c.number
            assert c.expected == ("refuted" if refuted else "holds"), (th.id, c.number)
    routes = {(th.id, c.number): c.routes() for th in _family() for c in th.claims}
    assert routes[("DR-CLASSIC-GAUSS", 2)] == ("interval",)
    assert routes[("SMITH-GROUP", 3)] == ("property", "interval")
    assert "smt" in routes[("SMITH-LLOYD", 1)] and routes[("BLOG-DEF", 1)] == ("smt",)


def test_sources_cite_arxiv_where_available():
    assert theorems.get("DEF-DP").source.arxiv == "2209.13697"
    assert "1805.06530v2" in theorems.get("DR-CLASSIC-GAUSS").source.cite()
    assert "Thm A.1" in theorems.get("DR-CLASSIC-GAUSS").source.locator
    assert "Lemma 1.7" in theorems.get("SMITH-GROUP").source.locator


# ------------------------------------------------------------------------------------------
# golden values (independent routes)


def _eval(target: str, digits: int, **params: str) -> str:
    name, _, ev_name = target.partition(".")
    ev = theorems.get(name).evaluator(ev_name)
    return evaluate(ev, bind(ev.params, params, target), digits).value


def _mp_gauss_output_quad(sigma, eps):
    """``∫ (N(1, sigma^2) - e^eps N(0, sigma^2))_+``: positive exactly above
    ``y0 = sigma^2 eps + 1/2``."""
    y0 = sigma**2 * eps + mpmath.mpf(1) / 2
    z = mpmath.exp(eps)
    return mpmath.quad(lambda y: mpmath.npdf(y, 1, sigma) - z * mpmath.npdf(y, 0, sigma),
                       [y0, y0 + 5 * sigma, y0 + 20 * sigma, mpmath.inf])


def _same(value: str, reference, digits: int) -> bool:
    return mpmath.almosteq(mpmath.mpf(value), reference, rel_eps=mpmath.mpf(10) ** (1 - digits))


@pytest.mark.parametrize("digits", [15, 50])
def test_classic_gauss_golden(digits):
    with mpmath.workdps(digits + 20):
        sigma = mpmath.sqrt(2 * mpmath.log(mpmath.mpf(125000))) / 10  # 1.25/1e-5 = 125000
        true = _mp_gauss_output_quad(sigma, mpmath.mpf(10))
        got_sigma = _eval("DR-CLASSIC-GAUSS.sigma", digits, eps="10", delta="1e-5")
        got_true = _eval("DR-CLASSIC-GAUSS.true_delta", digits, eps="10", delta="1e-5")
        assert _same(got_sigma, sigma, digits)
        assert _same(got_true, true, digits)
    assert got_sigma.startswith("0.48448052626")  # the catalogue prints 0.48448053
    assert got_true.startswith("0.0000226537")  # the catalogue prints 2.265e-5
    assert Fraction(got_true) > Fraction("1e-5")


def test_eps_star_golden_by_findroot_and_quadrature():
    with mpmath.workdps(70):
        delta = mpmath.mpf("1e-5")

        def gap(e):  # own closed form: Phi(a - b) - e^eps Phi(-a - b), written with erfc
            s = mpmath.sqrt(2 * mpmath.log(mpmath.mpf(5) / 4 / delta)) / e
            a, b = 1 / (2 * s), e * s
            return (mpmath.erfc(-(a - b) / mpmath.sqrt(2))
                    - mpmath.exp(e) * mpmath.erfc((a + b) / mpmath.sqrt(2))) / 2 - delta

        root = mpmath.findroot(gap, (8, 9), solver="anderson")
        got = _eval("DR-CLASSIC-GAUSS.eps_star", 50, delta="1e-5")
        assert _same(got, root, 50)
        # the quadrature route confirms that the true delta equals the target at eps*
        s = mpmath.sqrt(2 * mpmath.log(mpmath.mpf(5) / 4 / delta)) / root
        assert mpmath.almosteq(_mp_gauss_output_quad(s, root), delta, rel_eps=mpmath.mpf(10) ** -40)
    assert got.startswith("8.4197713015")  # the table prints 8.4198


def test_eps_star_is_an_enclosure_in_arb():
    star = ArbCtx(200).run(classic_eps_star, delta=Fraction(1, 10))
    lo, hi = arb_endpoints(star)
    assert 0 < hi - lo < Fraction(1, 10**50)
    with mpmath.workdps(80):
        def gap(e):
            s = mpmath.sqrt(2 * mpmath.log(mpmath.mpf(5) / 4 * 10)) / e
            return (mpmath.ncdf(1 / (2 * s) - e * s)
                    - mpmath.exp(e) * mpmath.ncdf(-1 / (2 * s) - e * s) - mpmath.mpf(1) / 10)

        root = mpmath.findroot(gap, (5, 6.5), solver="anderson")
        assert mpmath.mpf(lo.numerator) / lo.denominator <= root
        assert root <= mpmath.mpf(hi.numerator) / hi.denominator


def test_multi_database_eps_by_bisection():
    mp = MpCtx(120)
    eps0 = mpmath.mpf("0.01")
    with mpmath.workdps(30):
        p = mpmath.exp(eps0) / (1 + mpmath.exp(eps0))
        for m, neighbouring, printed in ((365, "add_remove", "0.790"),
                                         (365, "replace_one", "1.151")):
            k = m if neighbouring == "add_remove" else 2 * m
            # the binomial PLD of k-fold RR(eps0): loss (k - 2i) eps0 with these weights
            atoms = [((k - 2 * i) * eps0, mpmath.binomial(k, i) * p ** (k - i) * (1 - p) ** i)
                     for i in range(k + 1)]

            def delta(e, atoms=atoms):
                return mpmath.fsum(w * -mpmath.expm1(e - loss) for loss, w in atoms if loss > e)

            lo, hi = mpmath.mpf(0), mpmath.mpf(3)
            for _ in range(60):  # plain bisection: delta is decreasing in e
                mid = (lo + hi) / 2
                lo, hi = (mid, hi) if delta(mid) > mpmath.mpf("1e-6") else (lo, mid)
            got = mp.run(gce_multi_database_eps, eps0=Fraction(1, 100), m=m,
                         delta=Fraction(1, 10**6), neighboring=neighbouring)
            assert mpmath.almosteq(got, hi, rel_eps=mpmath.mpf(10) ** -15)
            assert abs(float(got) - float(printed)) < 5e-4


def test_closed_form_evaluators():
    assert _eval("BLOG-LAP.b", 15, eps="0.5", sensitivity="3") == "6.00000000000000"
    assert _eval("PAR.eps", 15, eps_list="0.3,0.5,0.8") == "0.800000000000000"
    assert _eval("BLOG-PAR.eps", 15, eps_list="0.3,0.5,0.8",
                 neighboring="replace_one") == "1.60000000000000"
    assert _eval("SMITH-GROUP.eps", 15, eps0="0.4", k="5") == "2.00000000000000"
    with mpmath.workdps(60):
        ref = 3 * mpmath.exp(2) * mpmath.mpf("1e-6")
        assert _same(_eval("SMITH-GROUP.delta", 50, eps0="1", delta0="1e-6", k="3"), ref, 50)
    assert _eval("SMITH-NAME-SHAME.delta", 15, delta0="0.01", eps="7") == "0.0100000000000000"
    assert Fraction(_eval("SMITH-LLOYD.b", 15, eps="0.5", k="6")) == 48
    assert Fraction(_eval("SMITH-LLOYD.eps_step", 15, eps="2", k="10")) == Fraction(1, 10)


def test_finite_objects_are_distributions():
    ctx = MpCtx(100)
    law = ctx.run(clamped_geometric, eps=Fraction(7, 10), s=1, lo=-2, hi=2)
    assert mpmath.almosteq(sum(law), 1, rel_eps=1e-25)
    f = Fraction
    transcripts = ctx.run(adaptive_rr_transcripts, eps_list=(f(1, 2), f(1)),
                          frac=(f(1), f(1, 3), f(1, 2)), flip=(0, 1, 0), bit=1)
    assert len(transcripts) == 4 and mpmath.almosteq(sum(transcripts), 1, rel_eps=1e-25)
    # a tight tree (frac = 1, no flips) attains sum eps_i exactly
    p = ctx.run(adaptive_rr_transcripts, eps_list=(f(1, 2), f(1)), frac=(f(1),) * 3,
                flip=(0,) * 3, bit=0)
    q = ctx.run(adaptive_rr_transcripts, eps_list=(f(1, 2), f(1)), frac=(f(1),) * 3,
                flip=(0,) * 3, bit=1)
    assert mpmath.almosteq(mpmath.log(p[0] / q[0]), mpmath.mpf(3) / 2, rel_eps=1e-25)


# ------------------------------------------------------------------------------------------
# bad input


@pytest.mark.parametrize("argv, message", [
    (["DR-CLASSIC-GAUSS.sigma", "eps=0", "delta=1e-5"], "eps must be in (0, inf); got 0"),
    (["DR-CLASSIC-GAUSS.true_delta", "eps=1", "delta=1.5"], "delta must be in (0, 1); got 1.5"),
    (["BLOG-GAUSS.eps_star", "delta=0"], "delta must be in (0, 1); got 0"),
    (["BLOG-LAP.b", "eps=1", "sensitivity=-1"], "sensitivity must be in (0, inf); got -1"),
    (["PAR.eps", "eps_list=0.3,-1"], "eps_list must be in [0, inf); got -1"),
    (["PAR.eps", "eps_list=0.3", "neighboring=bounded"], "neighboring must be one of"),
    (["SMITH-GROUP.eps", "eps0=1", "k=0"], "k must be an integer >= 1; got 0"),
    (["SMITH-GROUP.delta", "eps0=1", "delta0=1.5", "k=2"], "delta0 must be in [0, 1]; got 1.5"),
    (["SMITH-NAME-SHAME.delta", "delta0=0", "eps=1"], "delta0 must be in (0, 1); got 0"),
    (["SMITH-LLOYD.b", "eps=1", "k=2.5"], "k must be an integer >= 1"),
    (["SMITH-LLOYD.eps_step", "eps=1"], "missing parameter k"),
])
def test_bad_input_is_a_usage_error(capsys, argv, message):
    assert main(["eval", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


# ------------------------------------------------------------------------------------------
# claims


def test_interval_claims_hold_at_sample_points():
    """The interval checks may stay inconclusive; their statements must hold at box points."""
    gauss = theorems.get("DR-CLASSIC-GAUSS").claims[1].checks[0]
    for eps in ("0.01", "0.37", "1"):
        for delta in ("1e-15", "3e-8", "0.9"):
            d = decide(gauss, {"eps": Fraction(eps), "delta": Fraction(delta)})
            assert d.holds is True and d.certified
    group = theorems.get("SMITH-GROUP").claims[2].checks[0]
    for k in (2, 6):
        for mu in ("0.05", "1", "3"):
            for eps in ("0", "2.5", "5"):
                d = decide(group, {"k": k, "mu": Fraction(mu), "eps": Fraction(eps)})
                assert d.holds is True and d.certified


# Universal claims added for issue 11 (no check across the parameter space before).
UNIVERSAL_ADDED = {"BLOG-LAP": 3, "BLOG-EXP": 2, "SMITH-ADAPT-COMP": 2, "PAR": 4,
                   "SMITH-POST": 3, "SMITH-NAME-SHAME": 3}
INSTANCE_CLAIMS = {("DR-CLASSIC-GAUSS", n) for n in (1, 3, 4, 5, 6)} | {
    ("PAR", 3), ("SMITH-GROUP", 1), ("SMITH-GROUP", 2), ("SMITH-BAYES", 1), ("SMITH-BAYES", 2),
    ("SMITH-NAME-SHAME", 1)}


def test_scopes_and_universal_coverage():
    """Instance statements are marked; every added universal claim is searched by property
    AND attempted as a region proof (smt or interval), and every theorem has a universal claim
    checked across a region."""
    for th in _family():
        for c in th.claims:
            assert (c.scope == "instance") == ((th.id, c.number) in INSTANCE_CLAIMS), (
                th.id, c.number)
        assert any(c.scope == "universal" and {"property", "smt", "interval"} & set(c.routes())
                   for c in th.claims), th.id
    for tid, number in UNIVERSAL_ADDED.items():
        claim = next(c for c in theorems.get(tid).claims if c.number == number)
        assert claim.scope == "universal" and "property" in claim.routes(), tid
        assert {"smt", "interval"} & set(claim.routes()), tid


@pytest.fixture(scope="module")
def quick_run():
    """Every foundations claim on the quick profile, run once (interval checks are exercised by
    ``test_interval_claims_hold_at_sample_points`` and the interval verifier's own tests; they
    are left out to keep this file fast)."""
    tasks = plan(list(IDS), routes=("oracle", "numeric", "property", "smt"))
    verdicts = execute(tasks, PROFILES["quick"], jobs=1)
    return assemble(tasks, verdicts, PROFILES["quick"], "test", 0.0, ids=list(IDS))


def _claim(doc, theorem_id, number):
    th = next(t for t in doc["theorems"] if t["id"] == theorem_id)
    return next(c for c in th["claims"] if c["number"] == number)


def test_blog_gauss_counterexample_lies_above_eps_star(quick_run):
    v = _claim(quick_run, "DR-CLASSIC-GAUSS", 7)["verdicts"][0]  # the property search
    assert v["status"] == "failed" and v["evidence"]["certified"]
    cex = {k: Fraction(x) for k, x in v["evidence"]["counterexample"].items()}
    star = MpCtx(100).run(classic_eps_star, delta=cex["delta"])
    assert cex["eps"] > Fraction(str(star))


def test_quick_run_has_no_unexpected_outcome(quick_run):
    have_smt = importlib.util.find_spec("dpverify.verifiers.smt") is not None
    for th in quick_run["theorems"]:
        for claim in th["claims"]:
            where = (th["id"], claim["number"], claim["headline"])
            assert claim["outcome"] != "unexpected", where
            if claim["outcome"] == "error":  # only while verifiers/smt.py does not exist
                assert not have_smt and "smt" in claim["routes"], where
                for v in claim["verdicts"]:
                    assert v["route"] == "smt" or v["status"] != "error", where
            if claim["expected"] == "holds" and "smt" not in claim["routes"]:
                assert claim["headline"] in ("proved", "certified", "passed"), where
    errata = {(t["id"], c["number"]): c for t in quick_run["theorems"] for c in t["claims"]
              if c["expected"] == "refuted"}
    assert set(errata) == {("DR-CLASSIC-GAUSS", 7), ("BLOG-DEF", 4)}
    for c in errata.values():
        assert c["headline"] == "failed" and c["outcome"] == "as_expected"
        assert all("counterexample" in v["evidence"] for v in c["verdicts"])
