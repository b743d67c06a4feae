"""Hypothesis DP (catalogue ``hypothesis_dp.md``): every evaluator against an independent route
computed here, at 15 and 50 digits; the finite GCE model against a brute force written here
with Fractions; Alg. 3 on 1000 random instances; the z3 proofs of Thm 1; the calculator and
``dpverify hdp``; ``hospital_series``.

Independent routes (none calls the product's formulas):
- randomized-response views enumerated in mpmath (``rr_pair_delta``); MV-OPT with deltas as the
  hockey-stick divergence of products of the worst four-output mechanisms ([KOV] Thm 3.3);
- eps forms by a plain bisection on those functions;
- Eq. (4) and Cor. 6/7 in their naive forms at 70 digits, and the telescoped form
  ``ln((prod(1 + e^eps_i) - 1)/(2^n - 1))`` of Cor. 6 (the exact RR maximum);
- Thm 3 as the sum over classes of enumerated RR products with the subsampled parameters.
"""

from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction

import mpmath
import pytest

from dpverify.reports.cli import main
from dpverify.theorems import all_theorems, get
from dpverify.theorems.core import InvalidParameter, bind
from dpverify.theorems.formulas.hdp import hdp_query, hdp_rows, hospital_series
from dpverify.theorems.numerics import gce
from dpverify.verifiers.dispatch import PROFILES, run_check
from dpverify.verifiers.evaluation import evaluate
from dpverify.verifiers.verdict import Status
from tests.common.golden import GoldenCases

mp = mpmath.MPContext()
mp.dps = 75


def F(x: str) -> mpmath.mpf:
    q = Fraction(x)
    return mp.mpf(q.numerator) / q.denominator


def L(text: str) -> list[mpmath.mpf]:
    return [F(x) for x in text.split(",")]


# ------------------------------------------------------------------------------------------
# independent routes


def rr_law(eps_list, b):
    """The law of n independent RR(eps_i) on database b_i, over {0,1}^n (mpmath)."""
    out = []
    for y in itertools.product((0, 1), repeat=len(eps_list)):
        p = mp.mpf(1)
        for e, bi, yi in zip(eps_list, b, y, strict=True):
            x = mp.exp(e)
            p *= (x if yi == bi else 1) / (1 + x)
        out.append(p)
    return out


def hs(p, q, eps):
    z = mp.exp(eps)
    return mp.fsum(max(a - z * c, 0) for a, c in zip(p, q, strict=True))


def rr_pair_delta(eps_list, b0, b1, eps):
    p, q = rr_law(eps_list, b0), rr_law(eps_list, b1)
    return max(hs(p, q, eps), hs(q, p, eps))


def worst_product_delta(eps_list, delta_list, eps):
    """Hockey-stick of the product of worst (eps_i, delta_i) four-output mechanisms (both
    orders): MV-OPT with deltas by [KOV] Thm 3.3."""
    laws_p, laws_q = [mp.mpf(1)], [mp.mpf(1)]
    for e, d in zip(eps_list, delta_list, strict=True):
        x = mp.exp(e)
        p = (d, (1 - d) * x / (1 + x), (1 - d) / (1 + x), 0)
        q = (0, (1 - d) / (1 + x), (1 - d) * x / (1 + x), d)
        laws_p = [a * b for a in laws_p for b in p]
        laws_q = [a * b for a in laws_q for b in q]
    return max(hs(laws_p, laws_q, eps), hs(laws_q, laws_p, eps))


def bisect_eps(f, delta, hi):
    """Least eps >= 0 with f(eps) <= delta (f nonincreasing), by 190 halvings (the bracket
    ends below 1e-55)."""
    if f(mp.mpf(0)) <= delta:
        return mp.mpf(0)
    lo, hi = mp.mpf(0), mp.mpf(hi)
    for _ in range(190):
        mid = (lo + hi) / 2
        if f(mid) <= delta:
            hi = mid
        else:
            lo = mid
    return (lo + hi) / 2


def pairs_fn(eps_list, pairs):
    """``eps -> max over the point pairs of the two-sided delta`` (laws enumerated once)."""
    cache = {b: rr_law(eps_list, b) for pair in pairs for b in pair}
    laws = [(cache[a], cache[b]) for a, b in pairs]
    return lambda eps: max(max(hs(p, q, eps), hs(q, p, eps)) for p, q in laws)


def at_most_pairs(n, m, neighboring):
    vs = list(itertools.product((0, 1), repeat=n))
    if neighboring == "add_remove":
        return [((0,) * n, b) for b in vs if sum(b) <= m]
    ms = [b for b in vs if sum(b) == m]
    return [(a, b) for a in ms for b in ms]


def at_most_delta(eps_list, m, eps, neighboring):
    return pairs_fn(eps_list, at_most_pairs(len(eps_list), m, neighboring))(eps)


def unit(n, i):
    return tuple(int(j == i) for j in range(n))


def one_hot_pairs(n, neighboring):
    if neighboring == "add_remove":
        return [((0,) * n, unit(n, i)) for i in range(n)]
    return [(unit(n, i), unit(n, j)) for i in range(n) for j in range(n) if i != j]


def one_hot_delta(eps_list, eps, neighboring):
    return pairs_fn(eps_list, one_hot_pairs(len(eps_list), neighboring))(eps)


def groups_pairs(nc, na, npp, neighboring):
    n = nc + na + npp
    ca = tuple(int(i < nc + na) for i in range(n))
    cp = tuple(int(i < nc or i >= nc + na) for i in range(n))
    return [((0,) * n, ca), ((0,) * n, cp)] + ([(ca, cp)] if neighboring == "replace_one" else [])


def groups_delta(c, a, p, eps, neighboring):
    return pairs_fn(c + a + p, groups_pairs(len(c), len(a), len(p), neighboring))(eps)


def kov_fn(eps0, k):
    """``eps -> delta`` of k-fold RR(eps0), the binomial form ([KOV] Thm 3.3), coefficients
    computed once."""
    x = mp.exp(eps0)
    norm = (1 + x) ** k
    terms = [(mp.binomial(k, i) * x**i / norm, mp.binomial(k, i) * x ** (k - i) / norm)
             for i in range(k + 1)]
    return lambda eps: mp.fsum(max(a - mp.exp(eps) * b, 0) for a, b in terms)


def kov_delta(eps0, k, eps):
    return kov_fn(eps0, k)(eps)


def sub_eps(e):
    return mp.log((1 + mp.exp(e)) / 2)


def uniform_fn(eps_list, delta_list=None):
    """Thm 3 at a common eps: classes of the first 1, each an enumerated RR product with the
    subsampled parameters (MV-OPT's optimum is attained by RR); laws enumerated once."""
    n = len(eps_list)
    delta_list = delta_list or [mp.mpf(0)] * n
    classes = []
    for i in range(n):
        params = [eps_list[i]] + [sub_eps(e) for e in eps_list[i + 1:]]
        k = len(params)
        keep = (1 - delta_list[i]) * mp.fprod(1 - d / 2 for d in delta_list[i + 1:])
        classes.append((mp.mpf(2 ** (n - 1 - i)) / (2**n - 1), keep,
                        rr_law(params, (0,) * k), rr_law(params, (1,) * k)))

    def f(eps):
        return mp.fsum(w * (1 - keep * (1 - max(hs(p, q, eps), hs(q, p, eps))))
                       for w, keep, p, q in classes)
    return f


def uniform_delta(eps_list, eps, delta_list=None):
    return uniform_fn(eps_list, delta_list)(eps)


def c6_primes(eps_list):
    return [eps_list[i] + mp.fsum(sub_eps(e) for e in eps_list[i + 1:])
            for i in range(len(eps_list))]


def c6_weights(n):
    return [mp.mpf(2 ** (n - i)) / (2**n - 1) for i in range(1, n + 1)]


def c6_dprimes(dl):
    return [dl[i] + mp.fsum(dl[i + 1:]) / 2 for i in range(len(dl))]


# (theorem, evaluator, params, reference)
def _cases():
    six = "0.2,0.9,0.4,0.7,0.3,0.6"
    cases = []
    for nb in ("add_remove", "replace_one"):
        cases.append(("GCE-V1", "delta", {"eps_list": six, "m": "2", "eps": "0.5",
                                          "neighboring": nb},
                      lambda nb=nb: at_most_delta(L(six), 2, F("0.5"), nb)))
    cases.append(("GCE-V1", "eps", {"eps_list": "0.2,0.9,0.4,0.7", "m": "2", "delta": "1e-3"},
                  lambda: bisect_eps(pairs_fn(L("0.2,0.9,0.4,0.7"),
                                              at_most_pairs(4, 2, "add_remove")), F("1e-3"), 3)))
    el, dl = L("0.3,0.8,0.5"), L("0.01,0,0.002")

    def v1_deltas(e):
        return max(worst_product_delta([el[i] for i in s], [dl[i] for i in s], e)
                   for s in itertools.combinations(range(3), 2))

    cases.append(("GCE-V1", "delta", {"eps_list": "0.3,0.8,0.5", "m": "2", "eps": "0.4",
                                      "delta_list": "0.01,0,0.002"},
                  lambda: v1_deltas(F("0.4"))))
    cases.append(("GCE-V1", "eps", {"eps_list": "0.3,0.8,0.5", "m": "2", "delta": "0.05",
                                    "delta_list": "0.01,0,0.002"},
                  lambda: bisect_eps(v1_deltas, F("0.05"), 3)))
    for nb in ("add_remove", "replace_one"):
        cases.append(("GCE-V2", "delta", {"eps_list": six, "eps": "0.5", "neighboring": nb},
                      lambda nb=nb: one_hot_delta(L(six), F("0.5"), nb)))
    cases.append(("GCE-V2", "eps", {"eps_list": "0.2,0.9,0.4", "delta": "1e-2",
                                    "neighboring": "replace_one"},
                  lambda: bisect_eps(pairs_fn(L("0.2,0.9,0.4"), one_hot_pairs(3, "replace_one")),
                                     F("1e-2"), 3)))
    for nb in ("add_remove", "replace_one"):
        cases.append(("GCE-V3", "delta", {"eps_c": "0.2,0.9", "eps_a": "0.4,0.7",
                                          "eps_p": "0.3,0.6", "eps": "0.5", "neighboring": nb},
                      lambda nb=nb: groups_delta(L("0.2,0.9"), L("0.4,0.7"), L("0.3,0.6"),
                                                 F("0.5"), nb)))
    cases.append(("GCE-V3", "eps", {"eps_c": "", "eps_a": "0.4,0.7", "eps_p": "0.3",
                                    "delta": "1e-3", "neighboring": "replace_one"},
                  lambda: bisect_eps(pairs_fn(L("0.4,0.7,0.3"), groups_pairs(0, 2, 1,
                                                                             "replace_one")),
                                     F("1e-3"), 3)))
    cases.append(("GCE-PARCMP", "eps", {"eps0": "0.01", "m": "365", "delta": "1e-6"},
                  lambda: bisect_eps(kov_fn(F("0.01"), 365), F("1e-6"), 4)))
    cases.append(("GCE-PARCMP", "eps", {"eps0": "0.05", "m": "20", "delta": "1e-5",
                                        "neighboring": "replace_one"},
                  lambda: bisect_eps(kov_fn(F("0.05"), 40), F("1e-5"), 3)))
    cases.append(("GCE-PARCMP", "eps_parallel", {"eps0": "0.01", "m": "365",
                                                 "neighboring": "replace_one"},
                  lambda: F("7.3")))

    def e34(e, n):
        return mp.log(((1 + mp.exp(e)) ** n - 1) / (2**n - 1))

    for e, n in (("0.5", 6), ("1e-4", 20), ("3", 2)):
        cases.append(("GCE-E34", "eps", {"eps0": e, "n": str(n)},
                      lambda e=e, n=n: e34(F(e), n)))
        cases.append(("GCE-C7", "eps", {"eps0": e, "n": str(n)},
                      lambda e=e, n=n: e34(F(e), n)))
    cases.append(("GCE-E34", "eps_reverse", {"eps0": "0.3", "n": "3"},
                  lambda: mp.log((2**3 - 1) / ((1 + mp.exp(-F("0.3"))) ** 3 - 1))))
    cases.append(("GCE-E34", "factor", {"eps0": "1e-4", "n": "20"},
                  lambda: 20 * F("1e-4") / e34(F("1e-4"), 20)))
    cases.append(("GCE-C7", "delta", {"delta0": "1e-6", "n": "5"},
                  lambda: mp.fsum(c6_weights(5)[i] * (F("1e-6") + (4 - i) * F("1e-6") / 2)
                                  for i in range(5))))
    het = "0.4,0.7,0.3,0.9"
    dls = "0.01,0.002,0,0.02"
    cases.append(("GCE-C6", "eps", {"eps_list": het},
                  lambda: mp.log((mp.fprod(1 + mp.exp(e) for e in L(het)) - 1) / (2**4 - 1))))
    cases.append(("GCE-C6", "delta", {"delta_list": dls},
                  lambda: mp.fsum(w * d for w, d in zip(c6_weights(4), c6_dprimes(L(dls)),
                                                        strict=True))))
    cases.append(("GCE-C6", "eps_reverse", {"eps_list": het},
                  lambda: -mp.log(mp.fsum(w * mp.exp(-e) for w, e in
                                          zip(c6_weights(4), c6_primes(L(het)), strict=True)))))
    cases.append(("GCE-C6", "delta_reverse", {"eps_list": het, "delta_list": dls},
                  lambda: mp.fsum(w * mp.exp(-e) * d for w, e, d in
                                  zip(c6_weights(4), c6_primes(L(het)), c6_dprimes(L(dls)),
                                      strict=True))
                  / mp.fsum(w * mp.exp(-e) for w, e in zip(c6_weights(4), c6_primes(L(het)),
                                                           strict=True))))
    cases.append(("GCE-T3", "delta", {"eps_list": het, "eps": "0.9"},
                  lambda: uniform_delta(L(het), F("0.9"))))
    cases.append(("GCE-T3", "delta", {"eps_list": "0.5,0.5,0.2", "eps": "0.6",
                                      "delta_list": "0.001,0,0.004"},
                  lambda: uniform_delta(L("0.5,0.5,0.2"), F("0.6"), L("0.001,0,0.004"))))
    cases.append(("GCE-T3", "eps", {"eps_list": het, "delta": "1e-3"},
                  lambda: bisect_eps(uniform_fn(L(het)), F("1e-3"), 3)))
    return cases


CASES = _cases()
GOLDEN = GoldenCases(mp, CASES)


@pytest.mark.parametrize("i", range(len(CASES)), ids=GOLDEN.ids)
@pytest.mark.parametrize("digits", [15, 50])
def test_golden_value_by_independent_route(i: int, digits: int) -> None:
    GOLDEN.check(i, digits)


def test_every_evaluator_has_a_golden_case() -> None:
    covered = GOLDEN.covered
    for th in all_theorems():
        if th.family != "hypothesis_dp":
            continue
        for ev in th.evaluators:
            assert (th.id, ev.name) in covered, f"{th.id}.{ev.name} has no golden value"


def test_catalogue_worked_values() -> None:
    """Values printed in the catalogue (rounded there): PARCMP 0.790 / 1.151 / 3.65 / 7.30,
    T3 0.0779 / 0.239, C7 0.017143 / 0.042667, E34 factor ~ 2."""
    def ev(th, name, **params):
        e = get(th).evaluator(name)
        return mp.mpf(evaluate(e, bind(e.params, params, th), 20).value)

    assert mp.nstr(ev("GCE-PARCMP", "eps", eps0="0.01", m="365", delta="1e-6"), 12) == \
        "0.790112738286"
    assert mp.nstr(ev("GCE-PARCMP", "eps", eps0="0.01", m="365", delta="1e-6",
                      neighboring="replace_one"), 12) == "1.15127351271"
    assert mp.nstr(ev("GCE-T3", "delta", eps_list="0.4,0.7,0.3,0.9", eps="0.9"), 3) == "0.0779"
    assert mp.nstr(ev("GCE-C7", "delta", delta0="0.01", n="3"), 5) == "0.017143"
    assert mp.nstr(ev("GCE-C7", "delta", delta0="0.02", n="4"), 5) == "0.042667"


# ------------------------------------------------------------------------------------------
# the finite GCE model against a brute force written here


def _brute_view_law(mechs, hyp):
    """Mixture law over the product space, enumerated view by view (dict of tuples)."""
    law: dict[tuple[int, ...], Fraction] = {}
    spaces = [range(len(m[0])) for m in mechs]
    for y in itertools.product(*spaces):
        total = Fraction(0)
        for b, w in hyp:
            p = Fraction(1)
            for m, bi, yi in zip(mechs, b, y, strict=True):
                p *= m[bi][yi]
            total += w * p
        law[y] = total
    return law


def _brute_delta(mechs, h0, h1, z):
    a, b = _brute_view_law(mechs, h0), _brute_view_law(mechs, h1)
    best = Fraction(0)
    keys = list(a)
    # every event, both inequalities (keys <= 16 here)
    for mask in range(2 ** len(keys)):
        sa = sum((a[k] for i, k in enumerate(keys) if mask >> i & 1), Fraction(0))
        sb = sum((b[k] for i, k in enumerate(keys) if mask >> i & 1), Fraction(0))
        best = max(best, sa - z * sb, sb - z * sa)
    return best


def test_gce_model_matches_brute_force() -> None:
    rng = random.Random(7)
    for _ in range(30):
        n = rng.randint(1, 3)
        mechs = tuple(gce.random_mechanism(rng, (2, 2)) for _ in range(n))
        h0, h1 = gce.random_hypothesis(rng, n), gce.random_hypothesis(rng, n)
        z = Fraction(rng.randint(100, 300), 100)
        assert gce.hdp_delta(mechs, h0, h1, z) == _brute_delta(mechs, h0, h1, z)
        # the classic delta is the maximum over per-round orders of (b, complement)
        classic = max(_brute_delta(mechs, gce.point(c), gce.point(tuple(1 - v for v in c)), z)
                      for c in itertools.product((0, 1), repeat=n))
        assert gce.classic_delta(mechs, z) == classic
        # Thm 1 (DP => HDP) on this instance
        assert gce.hdp_delta(mechs, h0, h1, z) <= classic


def test_random_dp_mechanism_is_dp() -> None:
    rng = random.Random(3)
    for _ in range(100):
        x = Fraction(rng.randint(101, 400), 100)
        d = Fraction(rng.randint(0, 9), 100)
        p, q = gce.random_dp_mechanism(rng, x, d)
        assert sum(p) == sum(q) == 1
        for a, b in ((p, q), (q, p)):
            assert sum((max(u - x * v, Fraction(0)) for u, v in zip(a, b, strict=True)),
                       Fraction(0)) <= d


def test_uniform_prior_is_subsampling() -> None:
    rng = random.Random(11)
    for _ in range(30):
        mechs = tuple(gce.random_mechanism(rng) for _ in range(rng.randint(1, 3)))
        n = len(mechs)
        law = _brute_view_law(mechs, gce.uniform(list(itertools.product((0, 1), repeat=n))))
        sub = [((m[0]), tuple((a + b) / 2 for a, b in zip(m[0], m[1], strict=True)))
               for m in mechs]
        assert tuple(law.values()) == gce.point_law(sub, (1,) * n)


# ------------------------------------------------------------------------------------------
# Alg. 3


def test_refinement_on_1000_random_instances() -> None:
    rng = random.Random(2024)
    for _ in range(1000):
        n = rng.randint(1, 5)
        h0 = gce.random_hypothesis(rng, n, (1, 8), denominator=50)
        h1 = gce.random_hypothesis(rng, n, (1, 8), denominator=50)
        r0, r1 = gce.refine(h0, h1)
        assert len(r0) == len(r1) <= len(h0) + len(h1) - 1
        assert all(w0 == w1 > 0 for (_, w0), (_, w1) in zip(r0, r1, strict=True))
        for h, r in ((h0, r0), (h1, r1)):
            for b, w in h:
                assert sum((v for c, v in r if c == b), Fraction(0)) == w


def test_refinement_rejects_bad_input() -> None:
    h = gce.point((0, 1))
    with pytest.raises(ValueError):
        gce.refine(h, (((0, 1), Fraction(1, 2)),))
    with pytest.raises(ValueError):
        gce.refine(h, (((0, 1), 0.5), ((1, 1), 0.5)))


# ------------------------------------------------------------------------------------------
# Thm 1 by z3 (RR, n = 2, 3) and the converse


@pytest.mark.parametrize("claim,check", [(1, 2), (1, 3), (1, 4), (1, 5), (5, 1), (5, 2)])
def test_theorem1_smt_proved(claim: int, check: int) -> None:
    v = run_check("GCE-T1", claim, check, PROFILES["quick"])
    assert v.status is Status.PROVED, v.summary


# ------------------------------------------------------------------------------------------
# scopes and the universal claims of issue 11

UNIVERSAL_ADDED = {"GCE-A1": 2, "GCE-A2": 2, "GCE-A3": 4, "GCE-V1": 5, "GCE-V2": 3, "GCE-V3": 3,
                   "GCE-HDPCALC": 3, "GCE-SUB": 2, "GCE-T3": 4, "GCE-C6": 3}
INSTANCE_CLAIMS = ({("GCE-T1", 2), ("GCE-T1", 3), ("GCE-PARCMP", 1), ("GCE-PARCMP", 2),
                    ("GCE-SUB", 1), ("GCE-C6", 1), ("GCE-C7", 1), ("GCE-C7", 4)}
                   | {("GCE-V1", n) for n in (1, 2, 3, 4)} | {("GCE-V2", 1), ("GCE-V2", 2)}
                   | {("GCE-V3", 1), ("GCE-V3", 2)} | {("GCE-E34", n) for n in (1, 2, 4)}
                   | {("GCE-T3", n) for n in (1, 2, 3)})


def test_scopes_and_universal_coverage() -> None:
    """Instance statements are marked; every theorem has a universal claim checked across a
    region; each added claim is searched by property AND attempted as a region proof."""
    family = [t for t in all_theorems() if t.family == "hypothesis_dp"]
    for th in family:
        for c in th.claims:
            assert (c.scope == "instance") == ((th.id, c.number) in INSTANCE_CLAIMS), (
                th.id, c.number)
        assert any(c.scope == "universal" and {"property", "smt", "interval"} & set(c.routes())
                   for c in th.claims), th.id
    for tid, number in UNIVERSAL_ADDED.items():
        claims = get(tid).claims
        assert claims[-1].number == number, tid
        routes = set(claims[-1].routes())
        assert claims[-1].scope == "universal" and "property" in routes, tid
        assert routes & {"smt", "interval"} or tid == "GCE-A3", tid  # A3: finite enumeration


@pytest.mark.parametrize("theorem,claim", [("GCE-A3", 4), ("GCE-T3", 4), ("GCE-C6", 3),
                                           ("GCE-SUB", 2), ("GCE-HDPCALC", 3)])
def test_added_region_proofs_close(theorem: str, claim: int) -> None:
    th = get(theorem)
    c = next(c for c in th.claims if c.number == claim)
    for i, check in enumerate(c.checks):
        if check.route != "property":
            v = run_check(theorem, claim, i, PROFILES["quick"])
            assert v.status is Status.PROVED, (theorem, claim, i, v.summary)


# ------------------------------------------------------------------------------------------
# the calculator, `dpverify hdp`, hospital_series


def _hdp_json(capsys, *args):
    assert main(["hdp", *args, "--format", "json", "--digits", "20"]) == 0
    return json.loads(capsys.readouterr().out)


def test_cli_hdp_matches_evaluators(capsys) -> None:
    doc = _hdp_json(capsys, "--eps-list", "0.5,0.5,0.5,0.5", "--constraint", "at-most", "--m",
                    "2", "--delta", "1e-6")
    rows = {r["key"]: r for r in doc["rows"]}
    ref = bisect_eps(pairs_fn(L("0.5,0.5"), at_most_pairs(2, 2, "add_remove")), F("1e-6"), 2)
    assert abs(mp.mpf(rows["hdp"]["eps"]) - ref) < mp.mpf("1e-18")
    assert mp.mpf(rows["classic_basic"]["eps"]) == 2
    assert mp.mpf(rows["parallel"]["eps"]) == 1
    ref_all = bisect_eps(kov_fn(F("0.5"), 4), F("1e-6"), 3)
    assert abs(mp.mpf(rows["classic_optimal"]["eps"]) - ref_all) < mp.mpf("1e-18")
    assert mp.mpf(rows["hdp"]["eps"]) < mp.mpf(rows["classic_optimal"]["eps"])


def test_cli_hdp_other_constraints(capsys) -> None:
    doc = _hdp_json(capsys, "--eps-list", "0.2,0.9,0.4,0.7,0.3,0.6", "--constraint", "groups",
                    "--common", "1,2", "--group", "3,4", "--group", "5,6", "--neighboring",
                    "replace_one", "--eps", "0.5")
    hdp = mp.mpf(doc["rows"][0]["delta"])
    ref = groups_delta(L("0.2,0.9"), L("0.4,0.7"), L("0.3,0.6"), F("0.5"), "replace_one")
    assert abs(hdp - ref) < mp.mpf("1e-18")
    doc = _hdp_json(capsys, "--eps-list", "0.4,0.7,0.3,0.9", "--constraint", "uniform-nonzero",
                    "--eps", "0.9")
    assert abs(mp.mpf(doc["rows"][0]["delta"]) - uniform_delta(L("0.4,0.7,0.3,0.9"),
                                                                F("0.9"))) < mp.mpf("1e-18")
    assert doc["rows"][3]["delta"] is None  # parallel: no guarantee below 4 x 0.9
    doc = _hdp_json(capsys, "--eps-list", "0.2,0.9,0.4", "--constraint", "exactly-one",
                    "--eps", "0.5")
    assert abs(mp.mpf(doc["rows"][0]["delta"]) - one_hot_delta(L("0.2,0.9,0.4"), F("0.5"),
                                                                "add_remove")) < mp.mpf("1e-18")


@pytest.mark.parametrize("args", [
    ["--constraint", "at-most", "--m", "5", "--delta", "1e-6"],
    ["--constraint", "at-most", "--delta", "1e-6"],
    ["--constraint", "at-most", "--m", "2", "--delta", "1.5"],
    ["--constraint", "at-most", "--m", "2"],
    ["--constraint", "at-most", "--m", "2", "--delta", "0.1", "--eps", "1"],
    ["--constraint", "groups", "--group", "1,9", "--delta", "0.1"],
    ["--constraint", "groups", "--common", "1", "--group", "1,2", "--delta", "0.1"],
    ["--constraint", "uniform-nonzero", "--neighboring", "replace_one", "--delta", "0.1"],
    ["--constraint", "nope", "--delta", "0.1"],
    ["--constraint", "exactly-one", "--delta", "0.1", "--delta-list", "0.1"],
])
def test_cli_hdp_bad_input(capsys, args) -> None:
    assert main(["hdp", "--eps-list", "0.5,0.5,0.5,0.5", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("dpverify: error: ") and err.count("\n") == 1


def test_hdp_rows_notes_without_guarantee() -> None:
    q = hdp_query("0.5,0.5", "at-most", m=1, delta="1e-6", delta_list="1e-3,0")
    rows = {r.key: r for r in hdp_rows(q)}
    assert rows["classic_basic"].formula is None and "no guarantee" in rows["classic_basic"].note
    assert rows["parallel"].formula is None and "pure-DP only" in rows["parallel"].note
    with pytest.raises(InvalidParameter):
        hdp_query("0.5", "groups", delta="0.1")


def test_hospital_series() -> None:
    s = hospital_series("0.01", 365, "1e-6", [1, 10, 100, 365])
    assert set(s) == {"m", "hdp", "classic_optimal", "classic_basic", "parallel"}
    assert all(len(v) == 4 for v in s.values())
    assert abs(s["hdp"][-1] - 0.790112738286) < 1e-12
    assert s["hdp"][-1] == s["classic_optimal"][-1]
    assert s["parallel"] == [0.01, 0.1, 1.0, 3.65]
    assert all(a < b for a, b in zip(s["hdp"], s["hdp"][1:], strict=False))
    assert all(h <= p for h, p in zip(s["hdp"], s["parallel"], strict=True))
    with pytest.raises(InvalidParameter):
        hospital_series("0.01", 10, "1e-6", [11])


def test_uniform_prior_falls_back_to_cor6_when_large() -> None:
    from dpverify.theorems.core import Evaluator

    q = hdp_query(",".join(["0.1"] * 80), "uniform-nonzero", delta="1e-6")
    row = hdp_rows(q)[0]
    assert "GCE-C6" in row.note
    value = evaluate(Evaluator("hdp", (), lambda ctx: row.formula(ctx), "hdp"), {}, 30).value
    ref = mp.log(((1 + mp.exp(F("0.1"))) ** 80 - 1) / (2**80 - 1))
    assert abs(mp.mpf(value) - ref) < mp.mpf("1e-28")


def test_events_delta_rational_path_is_the_literal_enumeration():
    """Exact laws take the incremental-subset path of gce.events_delta: its value is the
    literal Def. 2/3 enumeration (every event summed directly), for random rational laws on 1..7
    outcomes, integer entries included, and laws where no event is positive (value 0)."""
    from dpverify.theorems.numerics import gce

    def literal(p, q, z):
        best = Fraction(0)
        for r in range(1, len(p) + 1):
            for event in itertools.combinations(range(len(p)), r):
                ps, qs = sum(p[i] for i in event), sum(q[i] for i in event)
                best = max(best, ps - z * qs, qs - z * ps)
        return best

    rng = random.Random(20261126)
    for _ in range(60):
        n = rng.randint(1, 7)
        p = [Fraction(rng.randint(0, 9), rng.randint(1, 9)) for _ in range(n)]
        q = [Fraction(rng.randint(0, 9), rng.randint(1, 9)) for _ in range(n)]
        z = Fraction(rng.randint(1, 40), 10)
        assert gce.events_delta(p, q, z) == literal(p, q, z)
    assert gce.events_delta((1, 0), (0, 1), Fraction(1)) == 1
    assert gce.events_delta((Fraction(1, 2),) * 2, (Fraction(1, 2),) * 2, Fraction(2)) == 0
