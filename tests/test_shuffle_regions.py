"""Region proofs of the shuffle entries: BBGN19-BLANKET claims 9-10 (monotonicity of the clipped
blanket bound), checked against independent routes (finite differences of the formula bodies in
plain mpmath) and at the certified counterexample of the catalogue's claim 4."""

from __future__ import annotations

from fractions import Fraction

import pytest

from dpverify.theorems.claims import Smt
from dpverify.theorems.ctx import ArbCtx, MpCtx
from dpverify.theorems.formulas import shuffle_bounds as sb
from dpverify.theorems.shuffle_discrete.blanket_monotone import (
    derivative_forms,
    eps_derivative_problem,
    pointwise_condition,
)
from dpverify.theorems.shuffle_discrete.bounds_checks import CONSTANTS, monotone
from dpverify.theorems.symbolic import eval_in_ctx
from dpverify.verifiers.smt.route import verify
from dpverify.verifiers.verdict import Budget, Status


def test_catalogue_claim_4_fails_for_the_generic_constants():
    """min(1, delta) rises from eps = 1.98 to 1.99 at eps0 = 2, n = 365 (claim 9)."""
    for ctx in (ArbCtx(128), MpCtx(128)):
        args = {"eps0": ctx.num(2), "n": 365, "s": ctx.num("0.99"), "t": ctx.num("0.5"),
                "k": 2, "variant": 0}
        assert monotone(ctx, **args) is False
        args["variant"] = 2  # the Laplace constants are monotone there
        assert monotone(ctx, **args) is True


@pytest.mark.parametrize("name", list(CONSTANTS))
@pytest.mark.parametrize("eps0,eps,k", [("1.5", "1.3", 3), ("2", "1.9", 7), ("0.4", "0.1", 2)])
def test_derivative_forms_match_finite_differences(name, eps0, eps, k):
    ctx = MpCtx(200)
    mp = ctx.m  # finite differences in the context's own precision

    def parts(e):
        gamma, b = CONSTANTS[name](ctx, ctx.num(eps0), e, k)
        return sb.blanket_log_parts(ctx, gamma, b, e)

    d_p_fd = mp.diff(lambda e: parts(e)[0], mp.mpf(eps))
    d_q_fd = mp.diff(lambda e: parts(e)[1], mp.mpf(eps))
    d_p, gamma, d_t, t = derivative_forms(name)
    values = {"z": ctx.exp(ctx.num(eps0) / 2), "y": ctx.exp(ctx.num(eps)), "k": ctx.num(k)}
    big_e = ctx.exp(eval_in_ctx(t, ctx, values))
    g = eval_in_ctx(gamma, ctx, values)
    d_q = values["y"] * g * big_e * eval_in_ctx(d_t, ctx, values) / (1 + g * (big_e - 1))
    assert abs(eval_in_ctx(d_p, ctx, values) - d_p_fd) < mp.mpf("1e-30") * (1 + abs(d_p_fd))
    assert abs(d_q - d_q_fd) < mp.mpf("1e-30") * (1 + abs(d_q_fd))


@pytest.mark.parametrize("name", list(CONSTANTS))
def test_eps_derivative_problem_is_proved(name):
    status, _, evidence = verify(Smt(eps_derivative_problem(name), "P' <= 0, Q' < 0"),
                                 Budget(seconds=30))
    assert status == Status.PROVED, evidence


def test_eps_derivative_problem_needs_y_at_most_3():
    """Above e^eps = 3, P' > 0: the SMT part cannot be stretched past log 3."""
    ctx = MpCtx(100)
    d_p = derivative_forms("delta")[0]
    assert eval_in_ctx(d_p, ctx, {"z": ctx.num(2), "y": ctx.num("3.1"), "k": ctx.num(2)}) > 0


def test_pointwise_condition_decides_points():
    ctx = ArbCtx(128)
    fail = {"eps0": ctx.num(Fraction("1.98590625")), "s": ctx.num(Fraction("0.9921875"))}
    assert pointwise_condition("delta")(ctx, **fail) is False
    assert pointwise_condition("delta_laplace")(ctx, **fail) is True
    assert pointwise_condition("delta_rr")(ctx, k=5, **fail) is True


# ------------------------------------------------------------------------------------------
# SHUFFLE-RR-EXACT claim 6


def test_rr_terms_identity_holds_and_catches_a_planted_error(monkeypatch):
    from dpverify.theorems.shuffle_discrete import rr_region

    assert all(rr_region.terms_identity(None, n) for n in range(1, 6))
    real = rr_region.rr_binary_coefficients

    def swapped(x0, x, one):  # alpha and gamma exchanged: a wrong m-formula
        w, v, alpha, gamma = real(x0, x, one)
        return w, v, gamma, alpha

    monkeypatch.setattr(rr_region, "rr_binary_coefficients", swapped)
    assert not rr_region.terms_identity(None, 3)


def test_rr_step_and_laws_are_proved():
    from dpverify.theorems.shuffle_discrete.rr_region import laws_problem, step_problem

    for build in (step_problem, laws_problem):
        status, _, evidence = verify(Smt(build, "rr"), Budget(seconds=60))
        assert status == Status.PROVED, evidence


def test_rr_step_fails_when_gamma_may_be_positive():
    """The step needs gamma <= 0, i.e. x >= 1: with x < 1 allowed z3 finds a model."""
    import sympy as sp

    from dpverify.theorems.claims import SmtProblem
    from dpverify.theorems.shuffle_discrete.rr_region import step_problem

    good = step_problem()
    x = sp.Symbol("x", real=True)
    hyps = (*(h for h in good.hypotheses if h != sp.Ge(x, 1)), sp.Gt(x, 0))
    bad = SmtProblem(good.variables, hyps, good.goal, good.substitutions)
    status, _, _ = verify(Smt(lambda: bad, "rr"), Budget(seconds=30))
    assert status == Status.FAILED


# ------------------------------------------------------------------------------------------
# SHUFFLE-RR-EXACT claim 7


def test_kary_certificate_holds_and_catches_a_planted_error(monkeypatch):
    from dpverify.theorems.shuffle_discrete import rr_region

    assert rr_region.kary_below_local_everywhere(None, k=3, n=3)
    assert rr_region.kary_below_local_everywhere(None, k=4, n=2)
    real = rr_region.rr_kary_pair

    def leaky(x0, k, c, one):  # RR that reports the true value a little more often in p
        p, q = real(x0, k, c, one)
        h = next(iter(p))
        return {**p, h: p[h] * (1 + x0) / x0}, q

    monkeypatch.setattr(rr_region, "rr_kary_pair", leaky)
    assert not rr_region.kary_below_local_everywhere(None, k=3, n=2)


def test_bivariate_ratfunc_matches_sympy_field():
    """``Q(e, d)`` on fmpq_mpoly (:mod:`.ratfunc`) against sympy's field, at rational points."""
    import flint
    import sympy as sp
    from sympy import QQ
    from sympy.polys.fields import field

    from dpverify.theorems.shuffle_discrete.ratfunc import RatFunc, field_generators

    def build(e, d, one):
        x0, x = 1 + e, 1 + d
        s = x0 + 2
        return [(x0 / s - x * one / s) ** 3, (x0 - x) / (x0 + 2) * (x0 / s) - x0 / (x + 1),
                sum([x0 / s, one / s, one / s]) - one, Fraction(3, 7) * e / (e * d + 1) - 2]

    k_field, se, sd = field("e,d", QQ)
    e, d = field_generators("e", "d")
    assert isinstance(e, RatFunc)
    ours, ref = build(e, d, e**0), build(se, sd, k_field.one)
    assert ours[2] == 0 and ref[2] == 0
    for point in ((Fraction(1, 3), Fraction(5, 2)), (Fraction(7, 2), Fraction(0))):
        at = [flint.fmpq(t.numerator, t.denominator) for t in point]
        for f, g in zip(ours, ref, strict=True):
            value = Fraction(str(f.num(*at))) / Fraction(str(f.den(*at)))
            exact = g.as_expr().subs({str(v): sp.Rational(t.numerator, t.denominator)
                                      for v, t in zip((se, sd), point, strict=True)})
            assert value == Fraction(str(exact))


def test_factored_sympy_is_sympys_factored_form():
    """The SMT goal of claim 6/3 is built from flint's factorization: the same expression as
    ``sympy.factor(sympy.cancel(.))`` of the product's laws evaluated on a sympy symbol."""
    import sympy as sp

    from dpverify.theorems.numerics.shuffle import rr_binary_laws
    from dpverify.theorems.shuffle_discrete.ratfunc import factored_sympy
    from dpverify.theorems.shuffle_discrete.rr_region import _exact_laws

    x0 = sp.Symbol("x0", real=True)
    for n in (1, 4, 7):
        ours = [factored_sympy(c, x0) for xm in _exact_laws(n) for c in xm]
        ref = [sp.factor(sp.cancel(c)) for xm in rr_binary_laws(x0, n, sp.Integer(1))
               for c in xm]
        assert ours == ref
    t = sp.Symbol("t")  # a negative content: sympy distributes it, the value is the same
    negative = factored_sympy(_exact_laws(3)[0][0] - 1, t)
    assert sp.cancel(negative - (rr_binary_laws(t, 3, sp.Integer(1))[0][0] - 1)) == 0


def test_nonnegative_sign_certificate():
    from dpverify.theorems.shuffle_discrete.ratfunc import field_generators
    from dpverify.theorems.shuffle_discrete.rr_region import _nonnegative

    e, d = field_generators("e", "d")
    assert _nonnegative((e + d + e * d) / (e + 3) ** 2)
    assert _nonnegative(-(e + 1) / (-(d + 2)))
    assert not _nonnegative((e - d) / (e + 3))  # >= 0 only when d <= e


# ------------------------------------------------------------------------------------------
# FMT21-NUM claim 6


def test_ratfunc_matches_sympy():
    import flint
    import sympy as sp

    from dpverify.theorems.shuffle_discrete.clone_region import RatFunc

    t = sp.Symbol("t")
    x0 = RatFunc(flint.fmpq_poly([0, 1]))
    ours = (1 - 1 / x0) ** 3 * Fraction(3, 7) + x0 / (x0 + 1) - 2 * (x0 - Fraction(1, 3))
    ref = (1 - 1 / t) ** 3 * sp.Rational(3, 7) + t / (t + 1) - 2 * (t - sp.Rational(1, 3))
    for v in (Fraction(5, 3), Fraction(7, 2), Fraction(11, 10)):
        num = Fraction(str(ours.num(flint.fmpq(v.numerator, v.denominator))))
        den = Fraction(str(ours.den(flint.fmpq(v.numerator, v.denominator))))
        assert num / den == Fraction(str(sp.nsimplify(ref.subs(t, sp.Rational(v.numerator,
                                                                            v.denominator)))))
    assert ours.sign_at(Fraction(11, 10)) == (1 if num / den > 0 else -1)


def test_ratfunc_arithmetic_is_canonical_and_exact():
    """Henrici's reduced sums and products (:class:`RatFunc`) against a full gcd reduction of
    the unreduced result, and against Fraction arithmetic at rational points."""
    import random

    import flint

    from dpverify.theorems.shuffle_discrete.clone_region import RatFunc

    rng = random.Random(7)
    factors = [[1, 1], [2, -1], [0, 1], [flint.fmpq(1, 3), 1]]

    def poly() -> flint.fmpq_poly:
        p = flint.fmpq_poly([flint.fmpq(rng.randint(-3, 3), rng.randint(1, 3))
                             for _ in range(rng.randint(1, 3))])
        return p * flint.fmpq_poly(rng.choice(factors)) if rng.random() < 0.5 else p

    def value(f: RatFunc, t: Fraction) -> Fraction:
        at = flint.fmpq(t.numerator, t.denominator)
        return Fraction(str(f.num(at))) / Fraction(str(f.den(at)))

    for _ in range(300):
        dens = [poly(), poly()]
        if any(d == 0 for d in dens):
            continue
        if rng.random() < 0.5:  # a shared factor: the general branch of the sum
            shared = flint.fmpq_poly(rng.choice(factors))
            dens = [d * shared for d in dens]
        a, b = RatFunc(poly(), dens[0]), RatFunc(poly(), dens[1])
        results = [a + b, a - b, a * b, a**3, -a, 1 - a]
        if b.num != 0:
            results.append(a / b)
        for r in results:
            full = RatFunc(r.num, r.den)  # the general constructor: gcd and monic
            assert (r.num, r.den) == (full.num, full.den)
            assert r.num.gcd(r.den) == 1 and r.den[r.den.degree()] == 1
        for t in (Fraction(5, 3), Fraction(-7, 2)):
            va, vb = value(a, t), value(b, t)
            if any(d(flint.fmpq(t.numerator, t.denominator)) == 0 for d in dens):
                continue
            assert value(a + b, t) == va + vb and value(a * b, t) == va * vb
            assert value(a - b, t) == va - vb and value(a**3, t) == va**3
            if vb:
                assert value(a / b, t) == va / vb


def test_clone_identity_holds_and_catches_a_wrong_threshold(monkeypatch):
    from dpverify.theorems.shuffle_discrete import clone_region

    assert all(clone_region.recurrence_is_double_sum_everywhere(None, n) for n in range(1, 8))
    real = clone_region.clone_walk

    def threshold_zero(alpha, gamma, beta, n, ratio, state, c1, pos):  # a wrong threshold
        return real(alpha, gamma, Fraction(0), n, ratio, state, c1, pos)

    monkeypatch.setattr(clone_region, "clone_walk", threshold_zero)
    assert not clone_region.recurrence_is_double_sum_everywhere(None, 6)


# ------------------------------------------------------------------------------------------
# FMT21-NUM claim 9


@pytest.fixture
def fresh_clone_laws():
    """A planted ``clone_pmfs`` must not leak into other tests through the laws' cache."""
    from dpverify.theorems.shuffle_discrete import clone_region

    yield
    clone_region._exact_pmfs.cache_clear()


def test_clone_monotone_certificate_holds_and_catches_a_planted_error(monkeypatch,
                                                                      fresh_clone_laws):
    from dpverify.theorems.shuffle_discrete import clone_region

    assert all(clone_region.clone_monotone_everywhere(None, n) for n in range(1, 9))
    real = clone_region.clone_pmfs

    def biased(x0, n, num):  # a pair whose clones are not fair coins at n = 5
        out = real(x0, n, num)
        if n == 5:
            (c, a), (p, q) = next(iter(out.items()))
            out[(c, a)] = (p * Fraction(11, 10), q)
        return out

    monkeypatch.setattr(clone_region, "clone_pmfs", biased)
    clone_region._exact_pmfs.cache_clear()  # the checks read the laws through this cache
    assert not clone_region.clone_monotone_everywhere(None, 4)


def test_positive_beyond_one():
    import flint

    from dpverify.theorems.shuffle_discrete.clone_region import RatFunc, positive_beyond_one

    x0 = RatFunc(flint.fmpq_poly([0, 1]))
    assert positive_beyond_one((x0 - 1) / (x0 + 1))
    assert positive_beyond_one((x0 * x0 - x0) / x0)
    assert not positive_beyond_one(x0 - 2)  # negative on (1, 2)


def test_kernel_problem_is_proved():
    from dpverify.theorems.shuffle_discrete.clone_region import kernel_problem

    status, _, evidence = verify(Smt(kernel_problem, "kernel"), Budget(seconds=30))
    assert status == Status.PROVED, evidence


# ------------------------------------------------------------------------------------------
# SHUFFLE-RR-EXACT claim 5


def test_rr_monotone_certificate_holds_and_catches_a_planted_error(monkeypatch):
    from dpverify.theorems.shuffle_discrete import rr_region

    assert all(rr_region.rr_monotone_everywhere(None, n) for n in range(2, 8))
    real = rr_region.rr_binary_coefficients

    def tilted(x0, x, one):  # gamma no longer v - x w: the kernel identity breaks
        w, v, alpha, gamma = real(x0, x, one)
        return w, v, alpha, gamma + (x - 1) / (x0 + 7)

    monkeypatch.setattr(rr_region, "rr_binary_coefficients", tilted)
    assert not rr_region.rr_monotone_everywhere(None, 4)


# ------------------------------------------------------------------------------------------
# FMT21-NUM claim 8


def test_clone_dominates_rr_and_catches_a_planted_error(monkeypatch, fresh_clone_laws):
    from dpverify.theorems.shuffle_discrete import clone_region

    assert clone_region.clone_dominates_rr(None, k=2, n=6)
    assert clone_region.clone_dominates_rr(None, k=3, n=3)
    real = clone_region.clone_pmfs

    def unfair(x0, n, num):  # clones that are not fair coins: no longer a kernel image
        out = real(x0, n, num)
        return {o: (p * (1 + (o[1] - o[0]) / (3 * x0)), q) for o, (p, q) in out.items()}

    monkeypatch.setattr(clone_region, "clone_pmfs", unfair)
    clone_region._exact_pmfs.cache_clear()  # the checks read the laws through this cache
    assert not clone_region.clone_dominates_rr(None, k=2, n=4)


def test_kernel_lemma_needs_nonnegative_weights():
    import sympy as sp

    from dpverify.theorems.claims import SmtProblem
    from dpverify.theorems.shuffle_discrete.clone_region import kernel_problem

    good = kernel_problem()
    bad = SmtProblem(good.variables, (sp.Ge(sp.Symbol("k", real=True), -1),), good.goal)
    assert verify(Smt(lambda: bad, "k"), Budget(seconds=30))[0] == Status.FAILED


def test_wbk19_moment_goals_are_sympys_factorization(monkeypatch):
    """WBK19-SUBRDP's goals ``N D >= 0`` computed in flint's ``Q(q, x)`` are the very
    expressions sympy's ``together``/``factor``/``expand`` route gives (alpha = 2 and 3, both
    bases), and a choice that is not rational in q and x takes sympy's route."""
    import sympy as sp

    from dpverify.theorems.shuffle_discrete import subsampled_rdp as m

    def sympy_route(choice, q, x, u):
        num, den = sp.fraction(sp.factor(sp.together(choice)))
        return sp.factor(sp.expand((num * den).subs(x, 1 + u)))

    cases = [(m._gauss_smt_goals, (2,)), (m._gauss_smt_goals, (3,)),
             (m._rr_smt_goals, (2, "mix_first")), (m._rr_smt_goals, (3, "mix_first"))]
    fast = [f.__wrapped__(*args) for f, args in cases]
    monkeypatch.setattr(m, "_numerator_times_denominator", sympy_route)
    assert [f.__wrapped__(*args) for f, args in cases] == fast
    q, x, u = sp.symbols("q x u", positive=True)
    monkeypatch.undo()
    root = sp.sqrt(x) * q / (x + 1) - q
    assert m._numerator_times_denominator(root, q, x, u) == sympy_route(root, q, x, u)
    assert m._numerator_times_denominator(q - q, q, x, u) == 0


def test_wbk19_smt_refutes_a_planted_weaker_bound(monkeypatch):
    """Quality: with the RR bound's moment term scaled by 1/4 (a wrong Thm 9), a Min choice of
    WBK19-SUBRDP claim 6 at alpha = 2 is refuted by a checked model (the claim is the
    conjunction of its choices)."""
    from dpverify.theorems.shuffle_discrete import subsampled_rdp as m

    true_bound = m.wbk_tau_rr

    def planted(ctx, q, eps0, alpha):
        return ctx.log(1 + (ctx.exp((alpha - 1) * true_bound(ctx, q, eps0, alpha)) - 1) / 4) / (
            alpha - 1)

    monkeypatch.setattr(m, "wbk_tau_rr", planted)
    goals = m._rr_smt_goals.__wrapped__(2, "mix_first")
    monkeypatch.setattr(m, "_rr_smt_goals", lambda alpha, order: goals)
    statuses = {verify(Smt(lambda i=i: m._rr_smt_problem(2, "mix_first", i), "planted"),
                       Budget(seconds=20.0))[0] for i in range(len(goals))}
    assert Status.FAILED in statuses


def test_exact_rr_laws_closed_form_is_the_product_form():
    """The closed form of ``rr_region._exact_laws`` against the products of
    ``rr_binary_laws`` over Q(x0): the same canonical fractions, entry by entry."""
    import flint

    from dpverify.theorems.numerics.shuffle import rr_binary_laws
    from dpverify.theorems.shuffle_discrete.rr_region import RatFunc, _exact_laws

    for n in range(1, 13):
        products = rr_binary_laws(RatFunc(flint.fmpq_poly([0, 1])), n, RatFunc.lift(1))
        closed = _exact_laws(n)
        assert len(closed) == len(products) == n
        for row_c, row_p in zip(closed, products, strict=True):
            assert [(c.num, c.den) for c in row_c] == [(p.num, p.den) for p in row_p]


def test_wbk19_more_min_choice_goals_than_checks_is_an_error_not_a_silent_pass():
    """Each alpha gets a fixed number of smt checks, goal ``i`` per check (the last goal again
    past the end): more distinct goals than checks must fail loudly, since the goals past the
    last check would never be handed to z3."""
    import sympy as sp

    from dpverify.theorems.shuffle_discrete import subsampled_rdp as m

    u = sp.Symbol("u", real=True)
    goals = tuple(sp.Ge(u + i, 0, evaluate=False) for i in range(3))
    assert m._goal_problem(goals, 5, 3, ()).goal == goals[2]
    with pytest.raises(RuntimeError, match="3 distinct Min-choice goals but only 2 checks"):
        m._goal_problem(goals, 0, 2, ())
