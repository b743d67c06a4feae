"""The accountant audit: scenario vocabulary, certified references (against independent routes
computed here in mpmath), verdict logic, forked calls, baseline comparison, CLI, reports. The
pytest plugin and the built-in adapters: tests/test_audit_plugin.py.

The accountants below are written here, independently of the product: ``ExactAccountant``
evaluates the exact profiles (Gaussian closed form at mu, randomized-response / pure / approx DP
by enumerating the privacy-loss atoms, their mixtures by conditioning the Gaussian profile on the
atoms, one Laplace step) in mpmath at 40 digits; ``ConservativeAccountant`` inflates it; and
``RdpSgmAccountant`` is the textbook RDP accountant of the Poisson-subsampled Gaussian (integer
orders, binomial expansion, Mironov's conversion), an upper bound by construction. None may ever
be called UNSOUND.
"""

from __future__ import annotations

import json
import math
import os
import time
from fractions import Fraction
from typing import Any

import mpmath as mp
import pytest

from dpverify.theorems.core import InvalidParameter
from dpverify.verifiers.accountants.audit import (
    AuditOptions,
    audit,
    call,
    compare,
    exit_code,
    judge,
    load_records,
)
from dpverify.verifiers.accountants.reference import Bound, Reference, reference_for
from dpverify.verifiers.accountants.scenario import (
    Event,
    Sampling,
    Scenario,
    ScenarioCase,
    fmt_number,
    parse_cases,
    query_name,
)

ISSUE_JSON = {
    "neighboring": "add_remove",
    "events": [
        {"mechanism": "gaussian", "sigma": 1.1, "count": 14062,
         "sampling": {"scheme": "poisson", "q": 0.0042667}},
        {"mechanism": "laplace", "b": 2.0, "count": 3, "sampling": None},
        {"mechanism": "randomized_response", "eps0": 1.0, "count": 10, "sampling": None},
        {"mechanism": "pure_dp", "eps0": 0.5, "count": 4, "sampling": None},
        {"mechanism": "approx_dp", "eps0": 0.5, "delta0": 1e-6, "count": 4, "sampling": None},
    ],
}


def S(events: list[dict[str, Any]], neighboring: str = "add_remove") -> Scenario:
    return Scenario.from_dict({"neighboring": neighboring, "events": events})


def case(cid: str, events: list[dict[str, Any]], deltas: list[float] = (),  # type: ignore
         epsilons: list[float] = (), neighboring: str = "add_remove") -> ScenarioCase:  # type: ignore
    return ScenarioCase(cid, S(events, neighboring), tuple(deltas), tuple(epsilons))


# ==========================================================================================
# independent accountants (mpmath)


def _phi(x: Any) -> Any:
    return mp.ncdf(x)


class ExactAccountant:
    """Exact profiles computed independently in mpmath (see the module docstring)."""

    name = "exact (tests)"

    def _model(self, sc: Any) -> tuple[Any, dict[Fraction, Any], Any, tuple[Any, Any] | None]:
        key = (json.dumps(sc.to_dict(), sort_keys=True), mp.mp.dps)
        cache = self.__dict__.setdefault("_cache", {})
        if key not in cache:
            cache[key] = self._build(sc)
        return cache[key]

    def _build(self, sc: Any) -> tuple[Any, dict[Fraction, Any], Any, tuple[Any, Any] | None]:
        musq = mp.mpf(0)
        atoms: dict[Fraction, Any] = {Fraction(0): mp.mpf(1)}
        keep = mp.mpf(1)
        laplace = None
        rel = sc["neighboring"]
        for ev in sc["events"]:
            if ev["sampling"] is not None:
                raise NotImplementedError("no subsampling in the exact test accountant")
            m = ev["mechanism"]
            if m == "gaussian":
                s = mp.mpf(repr(ev["sigma"])) / (2 if rel == "replace_one" else 1)
                musq += ev["count"] / s**2
            elif m == "laplace":
                if len(sc["events"]) != 1 or ev["count"] != 1:
                    raise NotImplementedError("only one Laplace step")
                sens = 2 if rel == "replace_one" else 1
                laplace = (mp.mpf(sens) / mp.mpf(repr(ev["b"])), None)
            else:
                e0 = Fraction(repr(ev["eps0"]))
                x = mp.e ** mp.mpf(repr(ev["eps0"]))
                p_hi, p_lo = x / (1 + x), 1 / (1 + x)
                for _ in range(ev["count"]):
                    new: dict[Fraction, Any] = {}
                    for loss, p in atoms.items():
                        new[loss + e0] = new.get(loss + e0, 0) + p * p_hi
                        new[loss - e0] = new.get(loss - e0, 0) + p * p_lo
                    atoms = new
                if m == "approx_dp":
                    keep *= (1 - mp.mpf(repr(ev["delta0"]))) ** ev["count"]
        return mp.sqrt(musq), atoms, keep, laplace

    def _delta(self, sc: Any, eps: Any) -> Any:
        mu, atoms, keep, laplace = self._model(sc)
        if laplace is not None:
            e0 = laplace[0]
            if eps >= e0:
                return mp.mpf(0)
            if eps < -e0:
                return 1 - mp.e**eps
            return 1 - mp.e ** ((eps - e0) / 2)

        def gauss(c: Any) -> Any:
            if mu == 0:
                return max(mp.mpf(0), 1 - mp.e**c)
            return _phi(mu / 2 - c / mu) - mp.e**c * _phi(-mu / 2 - c / mu)

        rest = mp.fsum(p * gauss(eps - mp.mpf(loss.numerator) / loss.denominator)
                       for loss, p in atoms.items())
        return 1 - keep * (1 - rest)

    def delta(self, scenario: Any, epsilon: float) -> float:
        with mp.workdps(40):
            return float(self._delta(scenario, mp.mpf(epsilon)))

    def epsilon(self, scenario: Any, delta: float) -> float:
        with mp.workdps(40):
            d = mp.mpf(delta)
            lo, hi = mp.mpf(0), mp.mpf(1)
            if self._delta(scenario, lo) <= d:
                return 0.0
            for _ in range(200):
                if self._delta(scenario, hi) <= d:
                    break
                lo, hi = hi, 2 * hi
            else:
                return math.inf
            for _ in range(160):
                mid = (lo + hi) / 2
                if self._delta(scenario, mid) <= d:
                    hi = mid
                else:
                    lo = mid
            return float(hi)


class ConservativeAccountant(ExactAccountant):
    """Deliberately conservative: eps x 1.2 + 0.01; delta at eps/1.2 (>= the true delta)."""

    name = "conservative (tests)"

    def epsilon(self, scenario: Any, delta: float) -> float:
        return super().epsilon(scenario, delta) * 1.2 + 0.01

    def delta(self, scenario: Any, epsilon: float) -> float:
        return super().delta(scenario, epsilon / 1.2)


class RdpSgmAccountant:
    """RDP of the Poisson-subsampled Gaussian at integer orders (binomial expansion, Mironov,
    Talwar, Zhang arXiv 1908.10530 Thm 5 / Abadi et al. moments accountant), composed over the
    events and converted with Mironov's ``eps = R + log(1/delta)/(alpha - 1)``: an upper bound."""

    name = "rdp-sgm (tests)"
    orders = tuple(range(2, 65))

    def _rdp(self, sc: Any) -> list[Any]:
        if sc["neighboring"] != "add_remove":
            raise NotImplementedError("add/remove only")
        total = [mp.mpf(0)] * len(self.orders)
        for ev in sc["events"]:
            if ev["mechanism"] != "gaussian":
                raise NotImplementedError("Gaussian only")
            s = mp.mpf(repr(ev["sigma"]))
            q = mp.mpf(1) if ev["sampling"] is None else mp.mpf(repr(ev["sampling"]["q"]))
            for i, a in enumerate(self.orders):
                if q == 1:
                    r = a / (2 * s**2)
                else:
                    terms = [mp.binomial(a, k) * (1 - q) ** (a - k) * q**k
                             * mp.e ** ((k * k - k) / (2 * s**2)) for k in range(a + 1)]
                    r = mp.log(mp.fsum(terms)) / (a - 1)
                total[i] += ev["count"] * r
        return total

    def epsilon(self, scenario: Any, delta: float) -> float:
        with mp.workdps(30):
            rdp = self._rdp(scenario)
            return float(min(r + mp.log(1 / mp.mpf(delta)) / (a - 1)
                             for a, r in zip(self.orders, rdp, strict=True)))

    def delta(self, scenario: Any, epsilon: float) -> float:
        with mp.workdps(30):
            rdp = self._rdp(scenario)
            return float(min(1, min(mp.e ** ((a - 1) * (r - epsilon))
                                    for a, r in zip(self.orders, rdp, strict=True))))


FAST = AuditOptions(timeout=30, rel_width=1e-2, ref_seconds=10)



# closed-form scenarios (the exact accountant answers all of them)
CLOSED = [
    case("g10", [{"mechanism": "gaussian", "sigma": 2.0, "count": 10}], [1e-5, 1e-10], [1.0]),
    case("g-het", [{"mechanism": "gaussian", "sigma": 1.5, "count": 5},
                   {"mechanism": "gaussian", "sigma": 3.0, "count": 20}], [1e-3], [2.0]),
    case("g-repl", [{"mechanism": "gaussian", "sigma": 4.0, "count": 10}], [1e-5], [4.0],
         "replace_one"),
    case("lap1", [{"mechanism": "laplace", "b": 1.0, "count": 1}], [1e-3], [0.5, 0.0]),
    case("rr10", [{"mechanism": "randomized_response", "eps0": 1.0, "count": 10}], [1e-6],
         [5.0], "replace_one"),
    case("pure-het", [{"mechanism": "pure_dp", "eps0": 0.5, "count": 4},
                      {"mechanism": "pure_dp", "eps0": 1.0, "count": 3}], [1e-5], [1.0]),
    case("approx", [{"mechanism": "approx_dp", "eps0": 0.5, "delta0": 1e-6, "count": 4}],
         [1e-5, 1e-7], [1.0]),
]
SGM = case("sgm", [{"mechanism": "gaussian", "sigma": 1.0, "count": 100,
                    "sampling": {"scheme": "poisson", "q": 0.02}}], [1e-5], [1.0])
MIXED = case("mixed", [{"mechanism": "gaussian", "sigma": 2.0, "count": 5},
                       {"mechanism": "randomized_response", "eps0": 0.5, "count": 3}],
             [1e-5], [1.0])


# ==========================================================================================
# scenario vocabulary


def test_issue_json_round_trips_exactly() -> None:
    sc = Scenario.from_dict(ISSUE_JSON)
    assert sc.to_dict() == ISSUE_JSON
    assert json.loads(json.dumps(sc.to_dict())) == ISSUE_JSON
    assert Scenario.from_json(sc.to_json()) == sc
    assert hash(Scenario.from_dict(ISSUE_JSON)) == hash(sc)
    # read either way: attributes or the JSON shape
    assert sc.events[0].sampling.q == sc["events"][0]["sampling"]["q"] == 0.0042667
    assert sc["events"][4]["delta0"] == 1e-6 and sc["neighboring"] == "add_remove"
    assert list(sc["events"][1]) == ["mechanism", "b", "count", "sampling"]
    assert sc["events"][1]["sampling"] is None
    # sampling absent = null
    d = {"neighboring": "replace_one", "events": [{"mechanism": "laplace", "b": 1, "count": 2}]}
    assert Scenario.from_dict(d).to_dict()["events"][0]["sampling"] is None


def test_values_are_frozen() -> None:
    sc = Scenario.from_dict(ISSUE_JSON)
    with pytest.raises(AttributeError):
        sc.neighboring = "replace_one"  # type: ignore[misc]
    ev = Event("gaussian", count=3, sigma=1.0, sampling=Sampling(0.5))
    assert ev.to_dict() == {"mechanism": "gaussian", "sigma": 1.0, "count": 3,
                            "sampling": {"scheme": "poisson", "q": 0.5}}


@pytest.mark.parametrize("bad, message", [
    ({"neighboring": "bounded", "events": []}, "neighboring must be one of add_remove"),
    ({"neighboring": "add_remove", "events": []}, "events must be a non-empty list"),
    ({"neighboring": "add_remove", "events": [{"mechanism": "gauss", "sigma": 1, "count": 1}]},
     "mechanism must be one of"),
    ({"neighboring": "add_remove", "events": [{"mechanism": "gaussian", "sigma": 0,
                                               "count": 1}]}, "sigma must be > 0; got 0"),
    ({"neighboring": "add_remove", "events": [{"mechanism": "gaussian", "sigma": 1,
                                               "count": 0}]}, "count must be an integer >= 1"),
    ({"neighboring": "add_remove", "events": [{"mechanism": "gaussian", "sigma": 1,
                                               "count": 2.5}]}, "count must be an integer"),
    ({"neighboring": "add_remove", "events": [{"mechanism": "gaussian", "count": 1}]},
     "needs 'sigma'"),
    ({"neighboring": "add_remove", "events": [{"mechanism": "gaussian", "sigma": 1, "b": 1,
                                               "count": 1}]}, "unknown key 'b'"),
    ({"neighboring": "add_remove", "events": [{"mechanism": "approx_dp", "eps0": 1,
                                               "delta0": 1.0, "count": 1}]},
     "delta0 must be in [0, 1)"),
    ({"neighboring": "add_remove", "events": [{"mechanism": "gaussian", "sigma": 1, "count": 1,
                                               "sampling": {"scheme": "shuffle", "q": 0.1}}]},
     "sampling scheme must be one of poisson"),
    ({"neighboring": "add_remove", "events": [{"mechanism": "gaussian", "sigma": 1, "count": 1,
                                               "sampling": {"scheme": "poisson", "q": 1.5}}]},
     "q must be in (0, 1]"),
    ({"neighboring": "add_remove", "events": [{"mechanism": "laplace", "b": "2", "count": 1}]},
     "b must be a number"),
])
def test_invalid_scenarios_name_the_parameter(bad: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidParameter) as e:
        Scenario.from_dict(bad)
    assert message in str(e.value)


def test_scenario_files_validate() -> None:
    ok = [{"id": "a", "scenario": ISSUE_JSON, "deltas": [1e-5], "epsilons": [1.0]}]
    (c,) = parse_cases(ok)
    assert c.id == "a" and c.deltas == (1e-5,) and c.epsilons == (1.0,)
    assert c.to_dict()["scenario"] == ISSUE_JSON
    with pytest.raises(InvalidParameter, match="used twice"):
        parse_cases(ok + ok)
    with pytest.raises(InvalidParameter, match=r"deltas must be in \(0, 1\)"):
        parse_cases([{"id": "a", "scenario": ISSUE_JSON, "deltas": [1.5]}])
    with pytest.raises(InvalidParameter, match="at least one query"):
        parse_cases([{"id": "a", "scenario": ISSUE_JSON}])
    with pytest.raises(InvalidParameter, match="scenario a: event 2 \\(laplace\\): b must be"):
        bad = json.loads(json.dumps(ISSUE_JSON))
        bad["events"][1]["b"] = -1
        parse_cases([{"id": "a", "scenario": bad, "deltas": [1e-5]}])
    with pytest.raises(InvalidParameter, match="non-empty JSON list"):
        parse_cases({"id": "a"})


def test_query_names() -> None:
    assert query_name("epsilon", 1e-5) == "epsilon@delta=1e-5"
    assert query_name("delta", 1.0) == "delta@epsilon=1"
    assert query_name("delta", 0.5) == "delta@epsilon=0.5"
    assert fmt_number(1e-10) == "1e-10" and fmt_number(2.5e-7) == "2.5e-7"


# ==========================================================================================
# certified references against independent routes


def _inside(b: Bound, x: float, slack: float = 1e-12) -> bool:
    lo, hi = b.floats()
    if math.isinf(x):
        return lo == hi == x
    return lo - slack * max(1, abs(x)) <= x <= hi + slack * max(1, abs(x))


def test_gaussian_reference_matches_pld_quadrature_at_30_digits() -> None:
    # independent route: delta = E[(1 - e^{eps - Z})_+], Z ~ N(mu^2/2, mu^2) (quadrature)
    sc = CLOSED[1].scenario  # mu^2 = 5/2.25 + 20/9
    ref = reference_for(sc)
    b = ref.delta(2.0)
    assert b.method.startswith("Gaussian closed form")
    with mp.workdps(40):
        mu = mp.sqrt(mp.mpf(5) / mp.mpf("2.25") + mp.mpf(20) / 9)

        def f(z: Any) -> Any:
            return mp.npdf(z, mu**2 / 2, mu) * (1 - mp.e ** (2 - z))

        val = mp.quad(f, [2, mu**2 / 2 + 2, 2 + 30 * mu, mp.inf])
        lo = mp.mpf(b.lo.numerator) / b.lo.denominator
        hi = mp.mpf(b.hi.numerator) / b.hi.denominator
        assert abs(lo - val) < mp.mpf(10) ** -30 and abs(hi - val) < mp.mpf(10) ** -30


def test_closed_forms_match_the_exact_test_accountant() -> None:
    acc = ExactAccountant()
    for c in CLOSED:
        ref = reference_for(c.scenario)
        for d in c.deltas:
            assert _inside(ref.epsilon(d), acc.epsilon(c.scenario, d), 1e-13), (c.id, d)
        for e in c.epsilons:
            assert _inside(ref.delta(e), acc.delta(c.scenario, e), 1e-13), (c.id, e)


def test_replace_one_doubles_the_gaussian_sensitivity() -> None:
    a = reference_for(S([{"mechanism": "gaussian", "sigma": 4.0, "count": 10}], "replace_one"))
    b = reference_for(S([{"mechanism": "gaussian", "sigma": 2.0, "count": 10}]))
    assert a.epsilon(1e-5).floats() == b.epsilon(1e-5).floats()


def test_pld_engine_contains_the_closed_forms() -> None:
    for c in (CLOSED[0], CLOSED[4], CLOSED[6]):
        exact_ref = Reference(c.scenario)
        pld = Reference(c.scenario, rel_width=1e-2, max_seconds=5, force_pld=True)
        assert pld.route == "pld"
        for d in c.deltas[:1]:
            e = exact_ref.epsilon(d)
            p = pld.epsilon(d)
            assert p.lo <= e.lo and e.hi <= p.hi, (c.id, p, e)
        for x in c.epsilons:
            e = exact_ref.delta(x)
            p = pld.delta(x)
            assert p.lo <= e.lo and e.hi <= p.hi, (c.id, p, e)


def test_mixture_reference_contains_the_conditioned_gaussian_profile() -> None:
    ref = reference_for(MIXED.scenario, rel_width=5e-3, max_seconds=10)
    assert ref.route == "pld"
    acc = ExactAccountant()
    assert _inside(ref.delta(1.0), acc.delta(MIXED.scenario, 1.0))
    assert _inside(ref.epsilon(1e-5), acc.epsilon(MIXED.scenario, 1e-5))
    assert ref.epsilon(1e-5).rel_width() < 1e-2


def _sgm_one_step(q: Any, sigma: Any, eps: Any) -> Any:
    """max over both orders of H_{e^eps}((1-q)N(0)+qN(1) || N(0)), by quadrature."""
    def hs(p: Any, qq: Any) -> Any:
        f = lambda y: max(mp.mpf(0), p(y) - mp.e**eps * qq(y))  # noqa: E731
        return mp.quad(f, [-mp.inf, -10, -2, 0, 0.5, 1, 2, 4, 10, mp.inf])

    n0 = lambda y: mp.npdf(y, 0, sigma)  # noqa: E731
    mix = lambda y: (1 - q) * mp.npdf(y, 0, sigma) + q * mp.npdf(y, 1, sigma)  # noqa: E731
    return max(hs(mix, n0), hs(n0, mix))


def test_subsampled_gaussian_one_step_matches_quadrature() -> None:
    sc = S([{"mechanism": "gaussian", "sigma": 0.8, "count": 1,
             "sampling": {"scheme": "poisson", "q": 0.3}}])
    b = Reference(sc, rel_width=1e-3, max_seconds=10).delta(0.5)
    with mp.workdps(20):
        v = _sgm_one_step(mp.mpf("0.3"), mp.mpf("0.8"), mp.mpf("0.5"))
    assert _inside(b, float(v), 1e-9)


def test_subsampled_rr_matches_enumeration() -> None:
    # 3 steps of RR(1) on a Poisson q=0.2 sample, add/remove: enumerate 8 outcomes exactly
    sc = S([{"mechanism": "randomized_response", "eps0": 1.0, "count": 3,
             "sampling": {"scheme": "poisson", "q": 0.2}}])
    b = Reference(sc, rel_width=1e-3, max_seconds=10).delta(0.3)
    with mp.workdps(30):
        x, q = mp.e, mp.mpf("0.2")
        p0, q0 = [x / (1 + x), 1 / (1 + x)], [1 / (1 + x), x / (1 + x)]
        mix = [(1 - q) * q0[i] + q * p0[i] for i in range(2)]

        def hockey(p: list[Any], qq: list[Any]) -> Any:
            tot = mp.mpf(0)
            for i in range(2):
                for j in range(2):
                    for k in range(2):
                        a, c = p[i] * p[j] * p[k], qq[i] * qq[j] * qq[k]
                        tot += max(mp.mpf(0), a - mp.e ** mp.mpf("0.3") * c)
            return tot

        v = max(hockey(mix, q0), hockey(q0, mix))
    assert _inside(b, float(v), 1e-9)


def test_two_fold_laplace_matches_conditioned_quadrature() -> None:
    # delta_2(eps) = E_{y~Lap(0,b)}[delta_1(eps - L(y))], L(y) = (|y-1| - |y|)/b
    sc = S([{"mechanism": "laplace", "b": 2.0, "count": 2}])
    b = Reference(sc, rel_width=1e-3, max_seconds=10).delta(0.4)
    with mp.workdps(20):
        bb = mp.mpf(2)
        e0 = 1 / bb

        def d1(c: Any) -> Any:
            if c >= e0:
                return mp.mpf(0)
            if c < -e0:
                return 1 - mp.e**c
            return 1 - mp.e ** ((c - e0) / 2)

        eps = mp.mpf("0.4")
        atoms = mp.mpf(1) / 2 * d1(eps - e0) + mp.e ** (-1 / bb) / 2 * d1(eps + e0)
        cont = mp.quad(lambda y: mp.e ** (-y / bb) / (2 * bb) * d1(eps - (1 - 2 * y) / bb),
                       [0, mp.mpf("0.05"), 1])
        v = atoms + cont
    assert _inside(b, float(v), 1e-9)


def test_approx_dp_infinite_epsilon_and_unsupported_sampling() -> None:
    sc = S([{"mechanism": "approx_dp", "eps0": 0.5, "delta0": 1e-3, "count": 4}])
    b = reference_for(sc).epsilon(1e-4)  # delta < 1 - (1 - 1e-3)^4: no finite eps
    assert b.lo == b.hi == math.inf
    bad = S([{"mechanism": "approx_dp", "eps0": 0.5, "delta0": 1e-3, "count": 4,
              "sampling": {"scheme": "poisson", "q": 0.1}}])
    with pytest.raises(InvalidParameter, match="no certified reference"):
        Reference(bad)


# ==========================================================================================
# verdicts


def test_judge() -> None:
    ref = Bound(Fraction(2), Fraction(21, 10), "test")
    v, detail, extra = judge("epsilon", 1.5, ref, 1.5, 1e-6)
    assert v == "UNSOUND" and extra["margin"]["absolute"] == 0.5
    assert extra["margin"]["relative"] == 0.25 and "below the certified lower bound" in detail
    assert judge("epsilon", 2.0 - 1e-9, ref, 1.5, 1e-6)[0] == "SOUND"  # float rounding
    assert judge("epsilon", 2.0 - 1e-3, ref, 1.5, 1e-6)[0] == "UNSOUND"
    assert judge("epsilon", 2.05, ref, 1.5, 1e-6)[2]["certified"] is False
    assert judge("epsilon", 2.2, ref, 1.5, 1e-6)[2]["certified"] is True
    assert judge("epsilon", 3.2, ref, 1.5, 1e-6)[0] == "LOOSE"
    assert judge("epsilon", 3.1, ref, 1.5, 1e-6)[0] == "SOUND"
    assert judge("epsilon", 3.2, ref, 2.0, 1e-6)[0] == "SOUND"
    for bad in (math.nan, -0.1, math.inf):
        assert judge("epsilon", bad, ref, 1.5, 1e-6)[0] == "ERROR"
    assert judge("delta", 1.2, Bound(Fraction(0), Fraction(1, 2), "t"), 1.5, 1e-6)[0] == "ERROR"
    inf = Bound(math.inf, math.inf, "t")
    assert judge("epsilon", math.inf, inf, 1.5, 1e-6)[0] == "SOUND"
    assert judge("epsilon", 100.0, inf, 1.5, 1e-6)[0] == "UNSOUND"
    zero = Bound(Fraction(0), Fraction(0), "t")
    assert judge("delta", 0.0, zero, 1.5, 1e-6)[0] == "SOUND"
    assert judge("delta", 1e-3, zero, 1.5, 1e-6)[0] == "LOOSE"


class _Calls:
    name = "calls"

    def epsilon(self, scenario: Any, delta: float) -> Any:
        mode = scenario["events"][0]["count"]
        if mode == 1:
            print("noise on stdout")
            return 1.25
        if mode == 2:
            raise ValueError("boom")
        if mode == 3:
            time.sleep(30)
        if mode == 4:
            os._exit(7)
        if mode == 5:
            return "1.0"
        if mode == 6:
            raise NotImplementedError("not this one")
        return float("nan")

    def delta(self, scenario: Any, epsilon: float) -> float:
        return 0.5


def _sc(count: int) -> Scenario:
    return S([{"mechanism": "gaussian", "sigma": 1.0, "count": count}])


def test_calls_run_in_killed_workers(capfd: Any) -> None:
    acc = _Calls()
    assert call(acc, "epsilon", _sc(1), 1e-5, 10)[:2] == ("ok", 1.25)
    assert "noise on stdout" not in capfd.readouterr().out
    st, msg, _ = call(acc, "epsilon", _sc(2), 1e-5, 10)
    assert st == "error" and msg == "ValueError: boom"
    t0 = time.monotonic()
    st, msg, _ = call(acc, "epsilon", _sc(3), 1e-5, 0.5)
    assert st == "timeout" and "killed" in msg and time.monotonic() - t0 < 5
    st, msg, _ = call(acc, "epsilon", _sc(4), 1e-5, 10)
    assert st == "error" and "exit code 7" in msg
    st, msg, _ = call(acc, "epsilon", _sc(5), 1e-5, 10)
    assert st == "bad" and "str" in msg
    assert call(acc, "epsilon", _sc(6), 1e-5, 10)[:2] == ("unsupported", "not this one")
    st, v, _ = call(acc, "epsilon", _sc(7), 1e-5, 10)
    assert st == "ok" and math.isnan(v)


# ==========================================================================================
# audits with the independent accountants: zero false UNSOUND


def test_exact_and_conservative_accountants_are_never_unsound() -> None:
    cases = [*CLOSED, MIXED]
    recs = audit([ExactAccountant(), ConservativeAccountant()], cases, FAST)
    assert recs and all(r["verdict"] in ("SOUND", "LOOSE") for r in recs), \
        [r for r in recs if r["verdict"] not in ("SOUND", "LOOSE")]
    exact = [r for r in recs if r["accountant"] == "exact (tests)"]
    assert all(r["verdict"] == "SOUND" for r in exact)
    # every record has the documented fields
    for r in recs:
        assert {"accountant", "scenario", "query", "verdict", "claimed", "reference",
                "seconds"} <= r.keys()
        assert len(r["reference"]) == 2
    assert exit_code(recs) == 0


def test_rdp_accountant_is_sound_against_the_pld_engine() -> None:
    recs = audit([RdpSgmAccountant()], [SGM, CLOSED[0]], FAST)
    assert len(recs) == 5 and all(r["verdict"] in ("SOUND", "LOOSE") for r in recs), recs
    eps = next(r for r in recs if r["scenario"] == "sgm" and r["query"].startswith("eps"))
    assert eps["claimed"] >= eps["reference"][1]  # an upper bound, certified above


def test_unsupported_and_prepare_errors() -> None:
    class NoLib:
        name = "nolib"

        def prepare(self) -> None:
            raise NotImplementedError("somelib is not installed; pip install it")

        def epsilon(self, scenario: Any, delta: float) -> float:
            raise AssertionError("never called")

        delta = epsilon

    recs = audit([NoLib()], [CLOSED[0]], FAST)
    assert {r["verdict"] for r in recs} == {"UNSUPPORTED"}
    assert "not installed" in recs[0]["detail"]
    assert exit_code(recs) == 0


# ==========================================================================================
# baseline, CLI, reports


def test_compare_flags_weakened_verdicts_and_moved_values() -> None:
    old = [{"accountant": "a", "scenario": "s", "query": "q1", "verdict": "SOUND", "claimed": 1.0},
           {"accountant": "a", "scenario": "s", "query": "q2", "verdict": "SOUND", "claimed": 2.0},
           {"accountant": "a", "scenario": "s", "query": "q3", "verdict": "LOOSE", "claimed": 9.0},
           {"accountant": "a", "scenario": "s", "query": "q4", "verdict": "SOUND", "claimed": 1.0}]
    new = [dict(old[0], verdict="UNSOUND", claimed=0.5), dict(old[1], claimed=2.0 + 1e-9),
           dict(old[2], verdict="SOUND", claimed=5.0)]
    cmp = compare(old, new, tolerance=1e-6)
    kinds = [(g["query"], g["kind"]) for g in cmp["regressions"]]
    assert kinds == [("q1", "verdict"), ("q3", "value")]
    assert cmp["only_in_baseline"] == ["a/s/q4"] and cmp["compared"] == 3
    assert compare(old, old)["regressions"] == []
    assert load_records({"records": old}) == old
    with pytest.raises(InvalidParameter):
        load_records([{"accountant": "a"}])


FAKE_FILE = [
    {"id": "g10", "scenario": {"neighboring": "add_remove", "events": [
        {"mechanism": "gaussian", "sigma": 2.0, "count": 10, "sampling": None}]},
     "deltas": [1e-5], "epsilons": [1.0]},
    {"id": "rr10", "scenario": {"neighboring": "replace_one", "events": [
        {"mechanism": "randomized_response", "eps0": 1.0, "count": 10, "sampling": None}]},
     "deltas": [1e-6], "epsilons": []},
]

EXACT = ExactAccountant()


class IgnoresCount(ExactAccountant):
    """A buggy accountant: it forgets the count of every event (used by the CLI tests)."""

    name = "ignores-count"

    def _build(self, sc: Any) -> Any:
        d = sc.to_dict()
        for ev in d["events"]:
            ev["count"] = 1
        return super()._build(Scenario.from_dict(d))


def test_cli_audit_json_md_html_and_baseline(tmp_path: Any, capsys: Any) -> None:
    from dpverify.reports.cli import main

    f = tmp_path / "sc.json"
    f.write_text(json.dumps(FAKE_FILE))
    args = ["audit", "--scenarios", str(f), "--timeout", "20"]
    assert main([*args, "--accountant", "tests.test_audit:EXACT", "--format", "json"]) == 0
    out = capsys.readouterr()
    recs = json.loads(out.out)
    assert [r["query"] for r in recs] == ["epsilon@delta=1e-5", "delta@epsilon=1",
                                          "epsilon@delta=1e-6"]
    assert {r["verdict"] for r in recs} == {"SOUND"} and "audit:" in out.err
    base = tmp_path / "base.json"
    base.write_text(json.dumps(recs))
    # the same accountant against its own baseline: no regression
    assert main([*args, "--accountant", "tests.test_audit:EXACT", "--baseline", str(base),
                 "--format", "md"]) == 0
    assert "0 regression(s)" in capsys.readouterr().out
    # a buggy accountant under the same name: verdicts weaken -> exit 1
    bad = IgnoresCount()
    bad.name = "exact (tests)"
    globals()["_BAD"] = bad
    code = main([*args, "--accountant", "tests.test_audit:_BAD", "--baseline", str(base),
                 "--format", "html", "-o", str(tmp_path / "a.html")])
    err = capsys.readouterr().err
    assert code == 1 and "verdict weakened: SOUND -> UNSOUND" in err
    page = (tmp_path / "a.html").read_text()
    assert "<svg" in page and "UNSOUND" in page and "Baseline comparison" in page
    # without a baseline an UNSOUND record fails the audit, with its reproduce command
    assert main([*args, "--accountant", "tests.test_audit:_BAD", "--format", "md"]) == 1
    md = capsys.readouterr().out
    assert "**UNSOUND**" in md
    assert f"dpverify audit --accountant tests.test_audit:_BAD --scenarios {f} --id g10" in md


@pytest.mark.parametrize("argv, message", [
    (["audit", "--accountant", "nope"], "unknown built-in accountant 'nope'"),
    (["audit", "--accountant", "no_such_module_xyz:obj"], "cannot import module"),
    (["audit", "--accountant", "tests.test_audit:NOPE"], "has no attribute"),
    (["audit", "--accountant", "tests.test_audit:FAKE_FILE"], "is not an accountant"),
    (["audit", "--scenarios", "/nonexistent.json"], "cannot read scenario file"),
    (["audit", "--id", "nope"], "--id nope is not a scenario of quick"),
    (["audit", "--timeout", "0"], "--timeout must be > 0"),
])
def test_cli_audit_usage_errors(argv: list[str], message: str, capsys: Any) -> None:
    from dpverify.reports.cli import main

    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_reports_render() -> None:
    from dpverify.reports import audit_report

    recs = audit([EXACT, IgnoresCount()], [CLOSED[0], CLOSED[4]], FAST)
    meta = {"scenarios": "test", "timeout": 30, "loose_factor": 1.5, "rtol": 1e-6,
            "cases": [{"id": c.id, "description": c.scenario.describe(), "note": ""}
                      for c in (CLOSED[0], CLOSED[4])]}
    md = audit_report.render_markdown(recs, meta)
    assert "## Findings" in md and "ignores-count" in md and "| g10 |" in md
    page = audit_report.render_html(recs, meta)
    assert page.count("<svg") == 2 and "claimed epsilon" in page
    assert "<script" not in page
