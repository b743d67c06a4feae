"""Tester's power on the fdp family: planted wrong trade-off formulas must come out ``failed``
(certified counterexample) on the same regions the registered claims use, while the correct
formulas are certified or pass there.

Planted:
- f_{eps,delta} without its second branch e^{-eps}(1 - delta - a) (not symmetric, below T(RR));
- G_mu with mu/2 (the TPR + G_mu = 1 identity breaks);
- the Laplace middle piece e^{-mu}/(2a) instead of e^{-mu}/(4a);
- the subsampled RR vertex with q and 1 - q swapped (its profile vs the BBG-T9 witness);
- the k-fold RR vertices with Q-masses C(k,j) e^{(k-j) eps0} (the P-masses).
"""

from __future__ import annotations

from typing import Any

import pytest

from dpverify.theorems.claims import Box, Check, Compare, Points, Tol, grid
from dpverify.theorems.fdp.smt_forms import mix_profile
from dpverify.theorems.formulas.tradeoff import (
    check_fpr,
    f_approx,
    f_gauss,
    interpolate,
    laplace_tradeoff_cdf,
    laplace_tradeoff_mu,
    ninv,
    subsample_rr_delta,
    tpr_gauss,
)
from dpverify.theorems.formulas.tradeoff_composition import f_rr_hom, f_rr_list
from dpverify.verifiers.verdict import Status
from tests.common.planted import planted_verdict


def _run(check: Check) -> Status:
    return planted_verdict(check, "fdp").status


def wrong_f_approx(ctx: Any, eps: Any, delta: Any, fpr: Any) -> Any:
    check_fpr(ctx, fpr)
    return ctx.max(ctx.zero, 1 - delta - ctx.exp(eps) * fpr)


def wrong_g(ctx: Any, mu: Any, fpr: Any) -> Any:
    return ctx.ncdf(-ninv(ctx, fpr) - mu / 2)


def wrong_laplace(ctx: Any, mu: Any, fpr: Any) -> Any:
    em = ctx.exp(-mu)
    return ctx.piecewise_lt(fpr, em / 2, lambda: 1 - fpr / em, lambda: ctx.piecewise_lt(
        fpr, ctx.num("1/2"), lambda: em / (2 * fpr), lambda: em * (1 - fpr)))


def wrong_subsample_delta(ctx: Any, eps0: Any, q: Any, eps: Any) -> Any:
    x1 = 1 / (1 + ctx.exp(eps0))
    y1 = (1 - q) * x1 + q * (1 - x1)  # q and 1 - q swapped
    x = ctx.exp(eps)
    return ctx.max(*(1 - b - x * a for a, b in ((ctx.zero, ctx.one), (x1, y1), (y1, x1),
                                                 (ctx.one, ctx.zero))))


def wrong_rr_hom(ctx: Any, eps0: Any, k: int, fpr: Any) -> Any:
    s = 1 + ctx.exp(eps0)
    pj = [ctx.binomial(k, j) * ctx.exp((k - j) * eps0) / s**k for j in range(k + 1)]
    a = [ctx.fsum(pj[t:]) for t in range(k + 2)]
    b = [ctx.fsum(pj[:t]) for t in range(k + 2)]
    return interpolate(ctx, [(a[t], b[t]) for t in range(k + 1, -1, -1)], fpr)


GAUSS_BOX = Box(reals={"mu": ("0.05", "6"), "fpr": ("1e-8", "0.99999")},
                log_scale=frozenset({"fpr"}))
LAP_BOX = Box(reals={"mu": ("0.01", "10"), "fpr": ("1e-12", "0.999999999999")})
SUB_BOX = Box(reals={"eps0": ("0.01", "5"), "q": ("0.01", "1"), "eps": ("0", "5")})
RR_POINTS = grid(fpr=["0.05", "0.2", "0.2689414213699951", "0.5", "0.9"])


def _np_rr1(ctx: Any, fpr: Any, **_: Any) -> Any:
    return f_rr_list(ctx, [ctx.one], fpr)


def _fa(route: Any) -> Any:
    return lambda ctx, fpr, **_: route(ctx, ctx.one, ctx.zero, fpr)


def _tpr_plus(g: Any) -> Any:
    return lambda ctx, mu, fpr, **_: tpr_gauss(ctx, mu, fpr) + g(ctx, mu, fpr)


def _lap(route: Any) -> Any:
    return lambda ctx, mu, fpr, **_: route(ctx, mu, fpr)


def _hom(route: Any) -> Any:
    return lambda ctx, eps0, k, fpr, **_: route(ctx, eps0, k, fpr)


HOM_BOX = Box(reals={"eps0": ("0.01", "3"), "fpr": ("0", "1")}, ints={"k": (1, 8)})


def _cases(right: bool) -> list[Check]:
    fa = f_approx if right else wrong_f_approx
    g = f_gauss if right else wrong_g
    lap = laplace_tradeoff_mu if right else wrong_laplace
    sub = subsample_rr_delta if right else wrong_subsample_delta
    hom = f_rr_hom if right else wrong_rr_hom
    return [
        Compare(_np_rr1, "eq", _fa(fa), RR_POINTS, "oracle", Tol.abs("1e-45")),
        Compare(_tpr_plus(g), "eq", lambda ctx, **_: ctx.one, GAUSS_BOX, "property",
                Tol.rel("1e-30")),
        Compare(_lap(lap), "eq", _lap(laplace_tradeoff_cdf), LAP_BOX, "property",
                Tol.abs("1e-30")),
        Compare(lambda ctx, eps0, q, eps, **_: sub(ctx, eps0, q, eps), "eq", mix_profile,
                SUB_BOX, "property", Tol.abs("1e-30")),
        Compare(_hom(hom), "eq", lambda ctx, eps0, k, fpr, **_: f_rr_list(ctx, [eps0] * k, fpr),
                HOM_BOX, "property", Tol.abs("1e-30")),
    ]


NAMES = ["f_approx_one_branch", "gauss_half_mu", "laplace_middle_2a", "subsample_weights_swapped",
         "rr_hom_q_masses"]


@pytest.mark.parametrize("i", range(len(NAMES)), ids=NAMES)
def test_planted_wrong_formula_is_caught(i: int) -> None:
    assert _run(_cases(False)[i]) is Status.FAILED


@pytest.mark.parametrize("i", range(len(NAMES)), ids=NAMES)
def test_correct_formula_is_not_refuted(i: int) -> None:
    assert _run(_cases(True)[i]) in (Status.CERTIFIED, Status.PASSED, Status.PROVED)


def test_planted_wrong_value_on_the_safe_side_is_caught() -> None:
    """A G_mu too large (mu/2: more private than true) is still refuted two-sidedly."""
    check = Compare(lambda ctx, mu, fpr, **_: wrong_g(ctx, mu, fpr), "eq",
                    lambda ctx, mu, fpr, **_: f_gauss(ctx, mu, fpr),
                    Points(({"mu": "1", "fpr": "0.1"},)), "numeric", Tol.abs("1e-30"))
    assert _run(check) is Status.FAILED


# The smt problems are built from the formula bodies: a planted formula changes the problem,
# and z3 must refute it (a model, re-checked) where the correct formula is proved.
def _smt_status(build: Any) -> Status:
    from dpverify.theorems.claims import Smt

    return _run(Smt(build, "planted smt"))


def _wrong_vertices(ctx: Any, eps0: Any, q: Any) -> Any:
    x1 = 1 / (1 + ctx.exp(eps0))
    y1 = (1 - q) * x1 + q * (1 - x1)  # q and 1 - q swapped
    return ((ctx.zero, ctx.one), (x1, y1), (y1, x1), (ctx.one, ctx.zero))


@pytest.mark.parametrize("name", ["laplace_cdf", "laplace_symmetry", "bbg_ge", "profile"])
def test_smt_problem_of_a_planted_formula_is_refuted(name: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from dpverify.theorems.fdp import smt_forms
    from dpverify.theorems.formulas import tradeoff

    build = {"laplace_cdf": smt_forms.laplace_cdf_problem,
             "laplace_symmetry": smt_forms.laplace_symmetry_problem,
             "bbg_ge": lambda: smt_forms.subsample_bbg_problem("ge"),
             "profile": smt_forms.subsample_profile_problem}[name]
    assert _smt_status(build) is Status.PROVED
    if name.startswith("laplace"):
        monkeypatch.setattr(smt_forms, "laplace_tradeoff_mu", wrong_laplace)
    else:
        monkeypatch.setattr(tradeoff, "subsample_rr_vertices", _wrong_vertices)
        monkeypatch.setattr(smt_forms, "subsample_rr_vertices", _wrong_vertices)
    assert _smt_status(build) is Status.FAILED


@pytest.mark.parametrize("planted", [False, True])
def test_drs_clt_event_gap_guard_sees_a_dropped_mixture_term(
        planted: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    from dpverify.theorems import get
    from dpverify.theorems.fdp import clt

    def dropped(ctx: Any, q: Any, k: int, m: Any, eps: Any) -> Any:
        pk = 1 - ((1 - q) * ctx.ncdf(m)) ** k  # the q N(1, 1) part of the step law dropped
        return pk - ctx.exp(eps) * (1 - ctx.ncdf(m) ** k)

    if planted:
        monkeypatch.setattr(clt, "sgm_max_event_gap", dropped)
    check = next(c for c in get("DRS-CLT").claims if c.number == 7).checks[0]
    status = planted_verdict(check, "fdp").status
    assert status is (Status.FAILED if planted else Status.PASSED)


@pytest.mark.parametrize("planted", [False, True])
def test_drs_tensor_vertex_shape_sees_an_extra_vertex(planted: bool,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from dpverify.theorems import get
    from dpverify.theorems.fdp import mutation_guards

    right = mutation_guards.rr_hom_vertices

    def extra(ctx: Any, eps0: Any, k: int) -> Any:
        return [*right(ctx, eps0, k), (ctx.zero, ctx.one)]  # a wrapped index's vertex

    if planted:
        monkeypatch.setattr(mutation_guards, "rr_hom_vertices", extra)
    check = next(c for c in next(c for c in get("DRS-TENSOR").claims if c.number == 8).checks
                 if c.route == "property")
    assert planted_verdict(check, "fdp").status is (Status.FAILED if planted else Status.PASSED)


@pytest.mark.parametrize("planted", [False, True])
def test_drs_clt_moment_reference_sees_a_wrong_atom_weight(
        planted: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    from dpverify.theorems import get
    from dpverify.theorems.fdp import mutation_guards

    def wrong(ctx: Any, eps0: Any) -> Any:
        x = 1 / (2 + ctx.exp(eps0))  # the weight of -eps0 off
        mean = (1 - 2 * x) * eps0
        return mean, eps0**2 - mean**2

    if planted:
        monkeypatch.setattr(mutation_guards, "rr_kl_moments", wrong)
    check = next(c for c in next(c for c in get("DRS-CLT").claims if c.number == 8).checks
                 if c.route == "property")
    assert planted_verdict(check, "fdp").status is (Status.FAILED if planted else Status.PASSED)
