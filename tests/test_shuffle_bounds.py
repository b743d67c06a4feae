"""Closed-form shuffle amplification bounds (EFMRTT19, BBGN19-BLANKET, FMT21-CLONES): golden
values at 30+ digits from an independent transcription (plain mpmath, the authors' code's
expressions as written there), the catalogue's worked numbers, inverses and domain errors."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest

from dpverify.theorems.ctx import ArbCtx, MpCtx, arb_endpoints
from dpverify.theorems.errors import InvalidParameter
from dpverify.theorems.formulas import shuffle_bounds as sb


def _mp(dps: int = 60) -> MpCtx:
    return MpCtx(int(dps * 3.33) + 20)


def _direct(expr_dps: int = 80):  # an isolated mpmath context for the independent route
    ctx = mpmath.MPContext()
    ctx.dps = expr_dps
    return ctx


# ------------------------------------------------------------------------------------------
# Independent transcriptions (the code lines of the sources, in plain mpmath, no ctx, no
# expm1/log1p/tanh rewriting)


def efm_eps_direct(eps0: str, n: int, delta: str) -> mpmath.mpf:
    m = _direct()
    return 12 * m.mpf(eps0) * m.sqrt(m.log(1 / m.mpf(delta)) / n)


def hoeffding_direct(gamma_lb, b, n: int, eps) -> mpmath.mpf:
    m = _direct()
    a = m.exp(eps) - 1
    d = 1 / (gamma_lb * n)
    d *= b**2 / (4 * a)
    d *= (1 - gamma_lb * (1 - m.exp(-2 * a**2 / b**2))) ** n
    return d


def generic_direct(eps0: str, n: int, eps: str) -> mpmath.mpf:
    m = _direct()
    e0, e = m.mpf(eps0), m.mpf(eps)
    return hoeffding_direct(m.exp(-e0), (m.exp(e) + 1) * (m.exp(e0) - m.exp(-e0)), n, e)


def rr_direct(eps0: str, k: int, n: int, eps: str) -> mpmath.mpf:
    m = _direct()
    e0, e = m.mpf(eps0), m.mpf(eps)
    gamma = k / (m.exp(e0) + k - 1)
    return hoeffding_direct(gamma, (1 - gamma) * k * (m.exp(e) + 1), n, e)


def laplace_direct(eps0: str, n: int, eps: str) -> mpmath.mpf:
    m = _direct()
    e0, e = m.mpf(eps0), m.mpf(eps)
    gamma = m.exp(-e0 / 2)
    return hoeffding_direct(gamma, (m.exp(e) + 1) * (m.exp(e0 / 2) - m.exp(-e0 / 2)), n, e)


def fmt_direct(eps0: str, n: int, delta: str) -> mpmath.mpf:
    m = _direct()
    e0, d = m.mpf(eps0), m.mpf(delta)
    return m.log(1 + m.expm1(e0) / (m.exp(e0) + 1) * 8 * (
        m.sqrt(m.exp(e0) * m.log(4 / d)) / m.sqrt(n) + m.exp(e0) / n))


def fmt_code_direct(eps0: str, n: int, delta: str) -> mpmath.mpf:
    m = _direct()
    e0, d = m.mpf(eps0), m.mpf(delta)
    a = 8 * (m.exp(e0) * m.log(4 / d)) ** m.mpf("0.5") / m.mpf(n) ** m.mpf("0.5")
    c = 8 * m.exp(e0) / n
    e = m.log(1 + a + c)
    b = 1 - m.exp(-e0)
    dd = 1 + m.exp(-e0 - e)
    return m.log(1 + (b / dd) * (a + c))


def close(x, y, tol: str = "1e-30") -> bool:
    return abs(mpmath.mpf(x) - mpmath.mpf(y)) <= mpmath.mpf(tol) * max(1, abs(mpmath.mpf(y)))


# ------------------------------------------------------------------------------------------
# 30-digit goldens


@pytest.mark.parametrize("eps0,n,delta", [("0.5", 10**4, "1e-6"), ("0.1", 5000, "1e-3"),
                                          ("0.25", 10**6, "1e-10")])
def test_efmrtt19_eps_golden(eps0, n, delta):
    c = _mp()
    got = sb.efmrtt19_eps(c, c.num(eps0), n, c.num(delta))
    assert close(got, efm_eps_direct(eps0, n, delta))
    # round trip: delta(eps(delta)) = delta
    back = sb.efmrtt19_delta(c, c.num(eps0), n, got)
    assert close(back, mpmath.mpf(delta), "1e-40")


@pytest.mark.parametrize("eps0,n,eps", [("0.5", 10**4, "0.05"), ("1", 1000, "0.5"),
                                        ("2", 300, "1.3"), ("0.1", 10**5, "0.01")])
def test_blanket_goldens(eps0, n, eps):
    c = _mp()
    assert close(sb.bbgn19_delta(c, c.num(eps0), n, c.num(eps)), generic_direct(eps0, n, eps))
    assert close(sb.bbgn19_delta_laplace(c, c.num(eps0), n, c.num(eps)),
                 laplace_direct(eps0, n, eps))
    for k in (2, 3, 10):
        assert close(sb.bbgn19_delta_rr(c, c.num(eps0), k, n, c.num(eps)),
                     rr_direct(eps0, k, n, eps))


@pytest.mark.parametrize("eps0,n,delta", [("0.5", 10**4, "1e-6"), ("4", 10**5, "1e-6"),
                                          ("1", 1000, "1e-8"), ("0.1", 10**3, "0.01")])
def test_fmt21_goldens(eps0, n, delta):
    c = _mp()
    assert close(sb.fmt21_eps(c, c.num(eps0), n, c.num(delta)), fmt_direct(eps0, n, delta))
    if Fraction(eps0) <= 1:
        assert close(sb.fmt21_eps_code(c, c.num(eps0), n, c.num(delta)),
                     fmt_code_direct(eps0, n, delta))


def test_fmt21_eps0_max_golden():
    c = _mp()
    m = _direct()
    for n, d in ((1000, "1e-6"), (10**4, "1e-6"), (10**5, "1e-8")):
        assert close(sb.fmt21_eps0_max(c, n, c.num(d)),
                     m.log(n / (16 * m.log(2 / m.mpf(d)))))


# ------------------------------------------------------------------------------------------
# The catalogue's worked values (configuration A: n = 10^4, eps0 = 0.5, delta = 1e-6)

CATALOGUE = [
    (lambda c: sb.efmrtt19_eps(c, c.num("0.5"), 10**4, c.num("1e-6")), "0.2230153313309903"),
    (lambda c: sb.efmrtt19_delta(c, c.num("0.5"), 10**4, c.num("0.2")), "1.494533852478e-5"),
    (lambda c: sb.bbgn19_eps(c, c.num("0.5"), 10**4, c.num("1e-6")), "0.05399556724800750"),
    (lambda c: sb.bbgn19_eps_rr(c, c.num("0.5"), 2, 10**4, c.num("1e-6")),
     "0.02155160150099849"),
    (lambda c: sb.bbgn19_eps_laplace(c, c.num("0.5"), 10**4, c.num("1e-6")),
     "0.02190928732696550"),
    (lambda c: sb.fmt21_eps(c, c.num("0.5"), 10**4, c.num("1e-6")), "0.09386816185202894"),
    (lambda c: sb.fmt21_eps_code(c, c.num(4), 10**5, c.num("1e-6")), "0.5378040242374513"),
    (lambda c: sb.fmt21_eps(c, c.num(4), 10**5, c.num("1e-6")), "0.5346339916517076"),
    (lambda c: sb.fmt21_eps0_max(c, 1000, c.num("1e-6")), "1.460421000084936"),
    (lambda c: sb.bbgn19_delta_rr(c, c.one, 3, 10, c.num("0.3")), "0.5858548"),
    (lambda c: sb.bbgn19_delta_rr(c, c.num(2), 3, 10, c.num("0.5")), "3.219363"),
    (lambda c: sb.bbgn19_delta_rr(c, c.one, 2, 200, c.num("0.5")), "9.631379743e-9"),
    (lambda c: sb.bbgn19_delta_rr(c, c.num("0.5"), 2, 200, c.num("0.2")), "3.735547141e-8"),
]


@pytest.mark.parametrize("f,value", CATALOGUE)
def test_catalogue_values(f, value):
    digits = len(value.split("e")[0].replace(".", "").lstrip("0"))
    tol = mpmath.mpf(10) ** (-digits + 1) * abs(mpmath.mpf(value))
    assert abs(f(_mp(40)) - mpmath.mpf(value)) <= tol
    lo, hi = arb_endpoints(f(ArbCtx(128)))
    assert lo <= Fraction(mpmath.nstr(f(_mp(40)), 40)) <= hi


def test_blanket_inverse_round_trip():
    c = _mp()
    for f_eps, f_delta in ((sb.bbgn19_eps, sb.bbgn19_delta),
                           (sb.bbgn19_eps_laplace, sb.bbgn19_delta_laplace)):
        e = f_eps(c, c.num("0.5"), 10**4, c.num("1e-6"))
        assert close(f_delta(c, c.num("0.5"), 10**4, e), mpmath.mpf("1e-6"), "1e-25")
    e = sb.bbgn19_eps_rr(c, c.one, 3, 10**3, c.num("1e-4"))
    assert close(sb.bbgn19_delta_rr(c, c.one, 3, 10**3, e), mpmath.mpf("1e-4"), "1e-25")


def test_eps_code_above_eps():
    c = _mp()
    for eps0 in ("0.1", "1", "3"):
        assert sb.fmt21_eps_code(c, c.num(eps0), 10**5, c.num("1e-6")) > sb.fmt21_eps(
            c, c.num(eps0), 10**5, c.num("1e-6"))


# ------------------------------------------------------------------------------------------
# Domain errors


@pytest.mark.parametrize("call", [
    lambda c: sb.efmrtt19_eps(c, c.num("0.5"), 1000, c.num("1e-6")),  # 0.705 > eps0
    lambda c: sb.efmrtt19_delta(c, c.num("0.5"), 10**4, c.num("0.6")),  # eps > eps0
    lambda c: sb.efmrtt19_delta(c, c.num("0.5"), 10**4, c.num("0.01")),  # delta > 0.01
    lambda c: sb.bbgn19_delta(c, c.num("0.5"), 10**4, c.num("0.5")),  # eps = eps0
    lambda c: sb.bbgn19_delta_rr(c, c.num("0.5"), 2, 10**4, c.zero),
    lambda c: sb.bbgn19_eps(c, c.num("0.5"), 10, c.num("1e-6")),  # n too small
    lambda c: sb.fmt21_eps(c, c.num(2), 1000, c.num("1e-6")),  # eps0 > eps0_max
    lambda c: sb.fmt21_eps0_max(c, 100, c.num("1e-6")),  # empty regime
    lambda c: sb.fmt21_eps_code(c, c.num("1.45"), 1000, c.num("1e-6")),  # code regime smaller
])
def test_domain_errors(call):
    with pytest.raises(InvalidParameter):
        call(_mp(30))


# ------------------------------------------------------------------------------------------
# The public evaluators (dpverify.evaluate, the evaluation contract)

EVALUATIONS = [
    ("EFMRTT19.eps", {"eps0": "0.3", "n": 5000, "delta": "1e-5"},
     lambda: efm_eps_direct("0.3", 5000, "1e-5")),
    ("BBGN19-BLANKET.delta", {"eps0": "0.8", "n": 2000, "eps": "0.3"},
     lambda: generic_direct("0.8", 2000, "0.3")),
    ("BBGN19-BLANKET.delta_rr", {"eps0": "0.8", "k": 5, "n": 2000, "eps": "0.3"},
     lambda: rr_direct("0.8", 5, 2000, "0.3")),
    ("BBGN19-BLANKET.delta_laplace", {"eps0": "0.8", "n": 2000, "eps": "0.3"},
     lambda: laplace_direct("0.8", 2000, "0.3")),
    ("FMT21-CLONES.eps", {"eps0": "1.5", "n": 50000, "delta": "1e-7"},
     lambda: fmt_direct("1.5", 50000, "1e-7")),
    ("FMT21-CLONES.eps_code", {"eps0": "1.5", "n": 50000, "delta": "1e-7"},
     lambda: fmt_code_direct("1.5", 50000, "1e-7")),
]


@pytest.mark.parametrize(("name", "params", "direct"), EVALUATIONS,
                         ids=[e[0] for e in EVALUATIONS])
def test_public_evaluators(name, params, direct):
    import dpverify

    e = dpverify.evaluate(name, digits=30, **params)
    lo, hi = e.enclosure
    value = Fraction(mpmath.nstr(direct(), 60))
    assert lo - Fraction(1, 10**40) <= value <= hi + Fraction(1, 10**40)
    assert close(mpmath.mpf(e.text), direct(), "1e-29")


@pytest.mark.parametrize("name", ["BBGN19-BLANKET.eps", "BBGN19-BLANKET.eps_rr",
                                  "BBGN19-BLANKET.eps_laplace"])
def test_public_inverse_evaluators(name):
    import dpverify

    params = {"eps0": "1.2", "n": 30000, "delta": "1e-7"}
    forward = {"eps": "delta", "eps_rr": "delta_rr", "eps_laplace": "delta_laplace"}
    evaluator = name.split(".")[1]
    if evaluator == "eps_rr":
        params["k"] = 4
    eps = dpverify.evaluate(name, digits=30, **params).text
    back = {k: v for k, v in params.items() if k != "delta"} | {"eps": eps}
    delta = dpverify.evaluate(f"BBGN19-BLANKET.{forward[evaluator]}", digits=30, **back).text
    assert close(mpmath.mpf(delta), mpmath.mpf("1e-7"), "1e-25")


@pytest.mark.parametrize(("name", "params", "message"), [
    ("EFMRTT19.eps", {"eps0": "0.6", "n": 10**4, "delta": "1e-6"}, "eps0 must be in (0, 0.5]"),
    ("EFMRTT19.eps", {"eps0": "0.5", "n": 999, "delta": "1e-3"}, "n must be"),
    ("EFMRTT19.delta", {"eps0": "0.5", "n": 10**4, "eps": "0.01"}, "delta <= 0.01"),
    ("BBGN19-BLANKET.delta_rr", {"eps0": "1", "k": 1, "n": 10, "eps": "0.5"}, "k must be"),
    ("BBGN19-BLANKET.eps_laplace", {"eps0": "1", "n": 10, "delta": "1e-9"}, "n too small"),
    ("FMT21-CLONES.eps0_max", {"n": 100, "delta": "1e-6"}, "n must exceed 16 log(2/delta)"),
])
def test_public_evaluators_refuse_with_the_domain(name, params, message):
    import dpverify

    with pytest.raises(InvalidParameter, match=message.replace("(", r"\(").replace(")", r"\)")
                       .replace("[", r"\[").replace("]", r"\]")):
        dpverify.evaluate(name, **params)
