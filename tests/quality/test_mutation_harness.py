"""The mutation harness (bench/mutation.py) measures the tester's power honestly: a mutant of a
formula that a two-sided claim pins down is killed, the mutation really changes the code that
importers call, and the original is untouched in the parent."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from dpverify.theorems.formulas import gaussian
from dpverify.verifiers.runner import plan

BENCH = Path(__file__).resolve().parents[2] / "bench" / "mutation.py"


@pytest.fixture(scope="module")
def mutation():
    spec = importlib.util.spec_from_file_location("dpverify_bench_mutation", BENCH)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_sites_cover_every_kind_of_mutation(mutation):
    kinds = {s.kind for s in mutation.sites_of("dpverify.theorems.formulas.gaussian",
                                               "gauss_delta")}
    assert {"operator", "constant", "call", "drop_term", "drop_minus"} <= kinds


def test_a_mutant_of_the_gaussian_profile_is_killed(mutation):
    sites = mutation.sites_of("dpverify.theorems.formulas.gaussian", "gauss_delta")
    site = next(s for s in sites if s.kind == "operator")
    tasks = plan(["BW-ANALYTIC-GAUSS"])
    row = mutation.judge(site, tasks, list(range(len(tasks))), seconds=300)
    assert row["result"] == "killed", row


def test_apply_changes_the_code_importers_see_only_in_the_child(mutation):
    import mpmath

    from dpverify.theorems.ctx import MpCtx
    from dpverify.theorems.formulas.gaussian import gauss_delta as imported

    ctx = MpCtx(80)
    before = imported(ctx, mpmath.mpf(1), mpmath.mpf(1))
    site = next(s for s in mutation.sites_of("dpverify.theorems.formulas.gaussian",
                                             "gauss_delta") if s.kind == "operator")

    def mutated_value():
        mutation.apply(site)
        return str(imported(ctx, mpmath.mpf(1), mpmath.mpf(1)))

    tag, value = mutation._in_child(mutated_value, 60)
    assert tag == "ok" and mpmath.mpf(value) != before
    assert gaussian.gauss_delta(ctx, mpmath.mpf(1), mpmath.mpf(1)) == before


PLANTED = '''
def scaled(x, y):
    return x * y + 0


def step(state, x):
    state["total"] = state["total"] + x


def cutoff(x):
    return 10 + 2


def head_sum(x):
    return sum(x ** j for j in range(min(cutoff(x), 3)))


def head_scaled(x):
    return scaled(x, 2.0) + 1


def first_index(n):
    return max(0, n - 3)


def tail_sum(n):
    return sum(range(first_index(n), n)) + sum(range(0, first_index(n)))


def offset(n):
    return 10 * first_index(n) + n


def start_after(n):
    return first_index(n) + 1


def tail_sum_after(n):
    return sum(range(start_after(n) - 1, n)) + sum(range(0, start_after(n) - 1))


def tail_sum_filtered(n):
    return sum(i for i in range(first_index(n), n + 1) if i >= n - 2)


def first_scaled(n):
    return first_index(n) * 1.5
'''


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    folder = tmp_path_factory.mktemp("planted")
    (folder / "dpverify_planted_formula.py").write_text(PLANTED, encoding="utf-8")
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module("dpverify_planted_formula")
    finally:
        sys.path.remove(str(folder))


def _recorded(mutation, fn, calls):
    """The calls of ``fn`` as the baseline records them (a profiler hook and a reservoir)."""
    inputs = sys.modules["mutation_inputs"]
    recorder = inputs.Recorder("test")
    code = getattr(fn, "__wrapped__", fn).__code__

    def profiler(frame, event, _arg):
        if event == "call" and frame.f_code is code:
            recorder.offer("fn", frame)

    sys.setprofile(profiler)
    try:
        for args in calls:
            fn(*args)
    finally:
        sys.setprofile(None)
    return recorder.calls["fn"]


def _site(mutation, module, name, line):
    return next(s for s in mutation.sites_of(module, name) if s.line == line
                and s.kind == "operator")


def test_a_planted_equivalent_mutant_is_classified_equivalent(mutation, planted):
    calls = _recorded(mutation, planted.scaled, [(1.5, 2.0), (3, 4), (-0.25, 8.0)])
    site = _site(mutation, planted.__name__, "scaled", "x * y + 0")  # -> x * y - 0
    row = mutation.classify(site, calls, seconds=60)
    assert row["result"] == "equivalent", row
    assert row["compared"] >= 3 and "recorded inputs" in row["note"]


def test_a_planted_distinguishable_mutant_survives_with_its_input(mutation, planted):
    calls = _recorded(mutation, planted.scaled, [(1.5, 2.0), (3, 4)])
    site = _site(mutation, planted.__name__, "scaled", "x * y")  # -> x / y
    row = mutation.classify(site, calls, seconds=60)
    assert row["result"] == "survived", row
    assert row["differs_at"].startswith("(") and row["original"] != row["mutant"]


def test_a_mutant_of_an_in_place_update_is_told_apart(mutation, planted):
    calls = _recorded(mutation, planted.step, [({"total": 1.0}, 2.0), ({"total": 0}, 5)])
    site = _site(mutation, planted.__name__, "step", "state['total'] + x")  # -> a minus
    assert mutation.classify(site, calls, seconds=60)["result"] == "survived"


def test_no_recorded_call_is_never_called_equivalent(mutation, planted):
    site = _site(mutation, planted.__name__, "scaled", "x * y + 0")
    assert mutation.classify(site, [], seconds=60)["result"] == "survived"


def test_recorded_calls_of_a_private_precision_formula_travel_and_differ(mutation):
    import mpmath

    from dpverify.theorems.ctx import MpCtx

    ctx = MpCtx(80)
    calls = _recorded(mutation, gaussian.gauss_delta,
                      [(ctx, ctx.m.mpf(1), ctx.m.mpf(s)) for s in (0.5, 1, 2)])
    inputs = sys.modules["mutation_inputs"]
    (args, _kwargs) = inputs.loads(calls[0].blob, inputs.BOOST)
    assert args[0].prec == 80 + inputs.BOOST and calls[0].prec == 80
    assert mpmath.mpf(args[1]) == 1
    site = next(s for s in mutation.sites_of("dpverify.theorems.formulas.gaussian",
                                             "gauss_delta") if s.kind == "operator")
    assert mutation.classify(site, calls, seconds=120)["result"] == "survived"


def test_the_owner_of_a_formula_is_the_family_whose_theorems_import_it(mutation):
    site = next(iter(mutation.sites_of("dpverify.theorems.formulas.br_bounds", "mgf_eps")))
    owners = mutation.owner_theorems(site, "composition")
    assert "DDR-T5" in owners
    assert all(mutation._theorem(i).family != "composition" for i in owners)


def test_the_kill_rate_is_over_non_equivalent_mutants(mutation):
    counts = {"killed": 6, "killed_by_owner": 1, "weakened": 2, "survived": 1, "equivalent": 4,
              "timed_out": 2}
    row = mutation.table({"fam": counts}).splitlines()[-1]
    assert row == "| fam | 16 | 6 | 1 | 2 | 1 | 4 | 2 | 58 % | 75 % |"


def test_a_child_killed_at_the_harness_limit_keeps_what_it_reported(mutation):
    import time

    def work():
        yield "first"
        time.sleep(30)
        yield "never"

    started = time.monotonic()
    items, end = mutation._stream_child(work, 2)
    assert (items, end) == (["first"], "timed_out")
    assert time.monotonic() - started < 15


def test_a_child_that_dies_silently_is_not_a_timeout(mutation):
    import os

    def work():
        yield 1
        os._exit(7)

    assert mutation._stream_child(work, 30) == ([1], "died")


def test_a_mutant_under_which_a_check_turns_inconclusive_is_detected_by_weakening(mutation):
    # the arb route of the Laplace Renyi integral with its tails bounded by e^{+T} instead of
    # e^{-T}: the enclosure is far too wide for the check to decide, never wrong (the mpmath
    # route's kink planted at the wrong place, the earlier example, is now decided in arb and
    # killed)
    site = next(s for s in mutation.sites_of("dpverify.theorems.formulas.laplace",
                                             "laplace_renyi_quad")
                if s.kind == "drop_minus" and s.line == "-t")
    tasks = [t for t in plan(["MIR-RDP-LAP"]) if (t.claim, t.check) == (1, 0)]
    row = mutation.judge(site, tasks, [0], seconds=300)
    assert row["result"] == "weakened" and row["by"] == ["MIR-RDP-LAP/1/0"], row


def test_judging_stops_at_the_first_killing_check_cheapest_first(mutation):
    site = next(s for s in mutation.sites_of("dpverify.theorems.formulas.gaussian",
                                             "gauss_delta") if s.kind == "operator")
    tasks = plan(["BW-ANALYTIC-GAUSS"])
    row = mutation.judge(site, tasks, list(range(len(tasks))), seconds=300,
                         cost=[float(len(tasks) - i) for i in range(len(tasks))])  # last first
    assert row["result"] == "killed", row
    judged, total = (int(x) for x in row["judged"].split(" checks")[0].split(" of "))
    assert judged <= total and row["by"][0] == tasks[len(tasks) - judged].id


def test_the_table_has_a_row_per_seed_and_a_pooled_row_when_seeds_are_mixed(mutation):
    zero = dict.fromkeys(mutation.COLUMNS, 0)
    totals = {"a": {**zero, "killed": 3, "survived": 1}, "a (seed 1)": {**zero, "killed": 1},
              "a (seed 2)": {**zero, "killed": 2, "survived": 1},
              "b": {**zero, "killed": 2}, "b (seed 1)": {**zero, "killed": 2}}
    rows = mutation.per_seed(totals, ["a", "b"])
    assert list(rows) == ["a (seed 1)", "a (seed 2)", "a (pooled)", "b"]
    assert "| a (pooled) | 4 | 3 | 0 | 0 | 1 | 0 | 0 | 75 % | 75 % |" in mutation.table(rows)


def test_a_replayed_site_is_found_again_by_its_line_after_the_code_above_it_moved(mutation):
    sites = mutation.sites_of("dpverify.theorems.formulas.gaussian", "gauss_delta")
    site = next(s for s in sites if s.kind == "operator")
    shifted = mutation.Site(site.module, site.name, site.kind, site.index + 3, site.line)
    assert mutation.resolve(shifted) == site
    assert mutation.resolve(mutation.Site(site.module, site.name, site.kind, 0, "no such")) \
        is None


def test_a_helper_whose_callers_never_show_its_change_is_equivalent_at_the_callers(
        mutation, planted):
    # cutoff() returns 13 instead of 12, but its caller only uses the first 3 terms
    own = _recorded(mutation, planted.cutoff, [(0.5,), (2.0,)])
    callers = {(planted.__name__, "head_sum"): _recorded(mutation, planted.head_sum,
                                                          [(0.5,), (2.0,), (-1.5,)])}
    site = next(s for s in mutation.sites_of(planted.__name__, "cutoff") if s.kind == "constant"
                and s.line == "2")
    row = mutation.classify(site, own, seconds=60, callers=callers)
    assert row["result"] == "equivalent" and "callers' agree" in row["note"], row
    assert row["own_differs_at"] and row["callers"] == ["dpverify_planted_formula.head_sum"]


def test_a_helper_whose_callers_show_its_change_survives(mutation, planted):
    own = _recorded(mutation, planted.scaled, [(1.5, 2.0), (3, 4)])
    callers = {(planted.__name__, "head_scaled"): _recorded(mutation, planted.head_scaled,
                                                             [(1.5,), (3.0,)])}
    site = _site(mutation, planted.__name__, "scaled", "x * y")  # -> x / y
    row = mutation.classify(site, own, seconds=60, callers=callers)
    assert row["result"] == "survived" and row["at_callers"]["differs_at"].startswith("("), row


def test_a_check_weaker_than_in_the_baseline_is_detected_by_weakening(mutation):
    # rr_pld_var with tanh(eps0 * 2): the variance's SMT check is no longer polynomial
    # (not_applicable); the mean's checks are untouched
    site = next(s for s in mutation.sites_of(
        "dpverify.theorems.formulas.advanced_composition", "rr_pld_var")
        if s.kind == "operator" and s.line == "eps0 / 2")
    tasks = [t for t in plan(["STK-ASYMP-OPT"]) if (t.claim, t.check) == (5, 2)]
    row = mutation.judge(site, tasks, [0], seconds=120, base=["proved"])
    assert row["result"] == "weakened" and row["by"] == ["STK-ASYMP-OPT/5/2"], row
    assert mutation.judge(site, tasks, [0], seconds=120)["result"] == "survived"


# -- callers up to MAX_DEPTH levels (from mutC) and hints (from mutB), on mutA's caller API


def _first_index_site(mutation, planted, line):
    return next(s for s in mutation.sites_of(planted.__name__, "first_index")
                if s.kind == "constant" and s.line == line)


def _graph(mutation, planted, edges, ns):
    """``up`` for :func:`classify`: each caller with the calls it was recorded with."""
    def up(key):
        return {(planted.__name__, c): _recorded(mutation, getattr(planted, c), ns)
                for c in edges.get(key[1], [])}
    return up


def test_a_helper_whose_change_its_callers_never_see_is_equivalent_in_use(mutation, planted):
    # max(0, n - 3) -> max(1, n - 3) changes first_index at n <= 3; tail_sum adds it back
    ns = [(2,), (5,), (9,)]
    up = _graph(mutation, planted, {"first_index": ["tail_sum"]}, ns)
    own = _recorded(mutation, planted.first_index, [(2,), (5,)])
    row = mutation.classify(_first_index_site(mutation, planted, "0"), own, 60,
                            up((planted.__name__, "first_index")), up)
    assert row["result"] == "equivalent", row
    assert row["callers"] == [f"{planted.__name__}.tail_sum"] and row["own_differs_at"]


def test_a_change_seen_by_a_caller_but_not_by_its_caller_is_equivalent_in_use(mutation,
                                                                               planted):
    ns = [(2,), (5,), (9,)]
    up = _graph(mutation, planted, {"first_index": ["start_after"],
                                    "start_after": ["tail_sum_after"]}, ns)
    own = _recorded(mutation, planted.first_index, [(2,), (5,)])
    row = mutation.classify(_first_index_site(mutation, planted, "0"), own, 60,
                            up((planted.__name__, "first_index")), up)
    assert row["result"] == "equivalent", row
    assert row["callers"] == [f"{planted.__name__}.tail_sum_after"]


def test_a_change_seen_above_the_last_level_tried_survives(mutation, planted):
    ns = [(2,), (5,)]
    up = _graph(mutation, planted, {"first_index": ["start_after"],
                                    "start_after": ["tail_sum_after"]}, ns)
    own = _recorded(mutation, planted.first_index, ns)
    site = _first_index_site(mutation, planted, "0")
    saved = mutation.MAX_DEPTH
    try:
        mutation.MAX_DEPTH = 1  # start_after differs; its caller is not tried
        row = mutation.classify(site, own, 60, up((planted.__name__, "first_index")), up)
    finally:
        mutation.MAX_DEPTH = saved
    assert row["result"] == "survived", row
    assert row["at_callers"]["callers"] == [f"{planted.__name__}.start_after"]


def test_a_helper_whose_change_a_caller_sees_survives(mutation, planted):
    ns = [(2,), (5,)]
    up = _graph(mutation, planted, {"first_index": ["offset"]}, ns)
    own = _recorded(mutation, planted.first_index, ns)
    row = mutation.classify(_first_index_site(mutation, planted, "0"), own, 60,
                            up((planted.__name__, "first_index")), up)
    assert row["result"] == "survived", row
    assert row["at_callers"]["callers"] == [f"{planted.__name__}.offset"]


def test_a_hint_one_of_whose_callers_differs_survives(mutation, planted):
    ns = [(5,), (9,), (12,)]  # n - 3 -> n - 4: tail_sum_filtered skips it, first_scaled not
    up = _graph(mutation, planted, {"first_index": ["tail_sum_filtered", "first_scaled"]}, ns)
    own = _recorded(mutation, planted.first_index, ns)
    row = mutation.classify(_first_index_site(mutation, planted, "3"), own, 60,
                            up((planted.__name__, "first_index")), up)
    assert row["result"] == "survived" and row["differs_at"] == "(5)", row
    assert row["at_callers"]["callers"] == [f"{planted.__name__}.tail_sum_filtered",
                                            f"{planted.__name__}.first_scaled"]


def test_more_callers_than_the_limit_are_not_called_equivalent(mutation, planted):
    site = _first_index_site(mutation, planted, "0")
    many = {(planted.__name__, f"f{i}"): [] for i in range(mutation.MAX_CALLERS + 1)}
    seen = mutation.caller_equivalence(site, many, 60)
    assert not seen["equivalent"] and "not compared" in seen["differs_at"]


# -- CPU-limited comparisons and exact outcomes (from mutB)


def test_a_comparison_past_its_cpu_limit_is_timed_out_whatever_the_wall_clock(mutation):
    children = sys.modules["mutation_children"]

    def spin():
        children.cpu_limit(1)
        while True:
            pass

    result = children._in_child(spin, 60)
    assert result == ("crash", "died")
    assert mutation._child_failed(result)["differs_at"] == "comparison timed out"


def test_outcomes_sent_back_by_a_child_keep_their_balls_exact(mutation):
    import flint

    inputs = sys.modules["mutation_inputs"]
    saved = flint.ctx.prec
    try:
        flint.ctx.prec = 200
        value = inputs._normal(flint.arb(1) / 3)
        blob = inputs.dumps([("ok", value, 0.0)])[0]
        flint.ctx.prec = 53  # the parent's precision: a plain rebuild would round the midpoint
        back = inputs.loads(blob)[0][1]
    finally:
        flint.ctx.prec = saved
    assert inputs._close(value, back, 200) and back[1] == value[1]  # the midpoint, exactly


def test_a_replayed_site_is_found_by_its_text_after_an_edit_shifted_its_index(mutation):
    sites = mutation.sites_of("dpverify.theorems.formulas.gaussian", "gauss_delta")
    site = next(s for s in sites if s.kind == "operator")
    same_kind = [s for s in sites if s.kind == site.kind]
    shifted = mutation.Site(site.module, site.name, site.kind, site.index + len(same_kind),
                            site.line)
    assert mutation.resolve(shifted) == site
    assert mutation.resolve(mutation.Site(site.module, site.name, site.kind, site.index,
                                          "no such code")) is None
