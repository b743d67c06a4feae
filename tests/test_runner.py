"""Runner: plans, seeds, hard time budgets, crash handling, exit codes."""

import json
import time

from dpverify.verifiers.dispatch import PROFILES, task_seed
from dpverify.verifiers.runner import (
    Task,
    _execute_pool,
    exit_code,
    expected_seconds,
    longest_first,
    plan,
    theorems_longest_first,
)
from dpverify.verifiers.verdict import Outcome, Status, headline, outcome
from dpverify.verifiers.warmup import warm_up


def test_seeds_are_stable_and_distinct():
    assert task_seed("BW-ANALYTIC-GAUSS/1/0") == task_seed("BW-ANALYTIC-GAUSS/1/0")
    assert task_seed("BW-ANALYTIC-GAUSS/1/0") != task_seed("BW-ANALYTIC-GAUSS/1/1")


def test_plan_filters_claims_and_routes():
    tasks = plan(["BW-ANALYTIC-GAUSS"], claim=1)
    assert tasks and all(t.claim == 1 for t in tasks)
    assert all(t.route == "interval" for t in plan(["BW-ANALYTIC-GAUSS"], routes=["interval"]))


def test_headline_and_outcome_rules():
    assert headline([Status.PROVED, Status.FAILED]) is Status.FAILED
    assert headline([Status.PASSED, Status.PROVED]) is Status.PROVED
    assert headline([Status.PASSED, Status.ERROR]) is Status.ERROR
    assert headline([Status.INCONCLUSIVE, Status.PASSED]) is Status.PASSED
    # a conjunction is as strong as its weakest conjunct; routes of one conjunct combine upward
    assert headline([Status.PROVED, Status.CERTIFIED, Status.PASSED],
                    ["eps <= eps0", "eps <= closed form", "eps <= closed form"]
                    ) is Status.CERTIFIED
    assert headline([Status.PROVED, Status.INCONCLUSIVE], ["a", "b"]) is Status.INCONCLUSIVE
    assert headline([Status.PROVED, Status.PASSED], ["a", "a"]) is Status.PROVED
    assert outcome("refuted", Status.FAILED) is Outcome.AS_EXPECTED
    assert outcome("refuted", Status.PASSED) is Outcome.UNEXPECTED
    assert outcome("holds", Status.INCONCLUSIVE) is Outcome.INCONCLUSIVE
    doc = {"summary": {"outcomes": {"as_expected": 3, "unexpected": 1, "inconclusive": 0,
                                    "error": 0}}}
    assert exit_code(doc) == 1


def test_a_task_over_its_time_budget_is_killed_and_inconclusive(monkeypatch):
    import dpverify.verifiers.runner as runner

    def slow_check(*args, **kwargs):
        time.sleep(60)

    monkeypatch.setattr(runner, "run_check", slow_check)
    monkeypatch.setattr(runner, "KILL_GRACE_SECONDS", 0.0)
    started = time.monotonic()
    verdicts = list(_execute_pool([Task("BW-ANALYTIC-GAUSS", 2, 0, "numeric")],
                                  PROFILES["quick"], 2, None, 0.5))
    assert time.monotonic() - started < 20
    assert [v.status for v in verdicts] == [Status.INCONCLUSIVE]
    assert "killed" in verdicts[0].summary


def test_a_task_budget_counts_cpu_seconds_with_a_wall_clock_backstop(monkeypatch):
    import dpverify.verifiers.runner as runner

    real = runner.run_check

    def waits_then_checks(*args, **kwargs):  # 1.5 s of wall clock, no CPU: a loaded machine
        time.sleep(1.5)
        return real(*args, **kwargs)

    def busy(*args, **kwargs):
        while True:
            pass

    monkeypatch.setattr(runner, "KILL_GRACE_SECONDS", 0.0)
    task = Task("BW-ANALYTIC-GAUSS", 2, 0, "numeric")
    monkeypatch.setattr(runner, "run_check", waits_then_checks)
    waited = list(_execute_pool([task], PROFILES["quick"], 2, None, 1.0))
    assert waited[0].status is real(task.theorem, 2, 0, PROFILES["quick"]).status
    assert "killed" not in waited[0].summary
    monkeypatch.setattr(runner, "run_check", busy)
    monkeypatch.setattr(runner, "WALL_BACKSTOP_FACTOR", 20.0)  # CPU first even at load 10
    burnt = list(_execute_pool([task], PROFILES["quick"], 2, None, 1.0))
    assert burnt[0].status is Status.INCONCLUSIVE and "CPU seconds" in burnt[0].summary
    assert burnt[0].evidence["clock"] == "cpu"
    monkeypatch.setattr(runner, "WALL_BACKSTOP_FACTOR", 4.0)
    monkeypatch.setattr(runner, "run_check", lambda *a, **k: time.sleep(60))
    hung = list(_execute_pool([task], PROFILES["quick"], 2, None, 1.0))
    assert hung[0].status is Status.INCONCLUSIVE and "backstop of 4 s" in hung[0].summary


def test_a_cpu_budget_expires_on_cpu_or_at_the_backstop_and_travels_as_wall_clock():
    import pickle

    from dpverify.verifiers.verdict import WALL_BACKSTOP_FACTOR, Budget

    b = Budget(seconds=0.2, clock="cpu")
    time.sleep(0.3)
    assert not b.expired() and b.remaining() > 0
    end = time.process_time() + 0.25
    while time.process_time() < end:
        pass
    assert b.expired() and b.remaining() == 0
    short = Budget(seconds=0.05, clock="cpu")
    time.sleep(0.05 * WALL_BACKSTOP_FACTOR + 0.05)
    assert short.expired()
    fresh = Budget(seconds=10, clock="cpu")
    sent = pickle.loads(pickle.dumps(fresh))
    assert sent.clock == "wall" and 9 < sent.seconds <= 10
    wall = Budget(seconds=10)
    assert pickle.loads(pickle.dumps(wall)).started == wall.started


def test_a_worker_crash_is_an_error(monkeypatch):
    import os

    import dpverify.verifiers.runner as runner

    monkeypatch.setattr(runner, "run_check", lambda *a, **k: os._exit(7))
    verdicts = list(_execute_pool([Task("BW-ANALYTIC-GAUSS", 2, 0, "numeric")],
                                  PROFILES["quick"], 2, None, 5.0))
    assert verdicts[0].status is Status.ERROR and "7" in verdicts[0].summary


def test_a_pool_run_starts_the_longest_tasks_first():
    tasks = [Task("A", 1, 0, "numeric"), Task("B", 1, 0, "smt"), Task("C", 1, 0, "oracle"),
             Task("D", 1, 0, "oracle")]
    seconds = {tasks[0].id: 0.2, tasks[1].id: 9.0, tasks[3].id: 0.2}
    # C is unknown to the earlier run: it counts UNKNOWN_TASK_SECONDS; A and D keep plan order
    assert longest_first(tasks, seconds) == [tasks[1], tasks[2], tasks[0], tasks[3]]


def test_a_pool_run_orders_theorems_by_their_sum_and_keeps_a_theorem_together():
    tasks = [Task("A", 1, 0, "numeric"), Task("B", 1, 0, "smt"), Task("A", 2, 1, "smt"),
             Task("C", 2, 0, "oracle"), Task("B", 3, 0, "oracle")]
    seconds = {tasks[0].id: 3.0, tasks[1].id: 4.0, tasks[2].id: 1.0, tasks[3].id: 4.5,
               tasks[4].id: 0.5}
    # B sums 4.5 s and C 4.5 s (plan order among equals), A 4 s: each theorem's tasks
    # together, in plan order
    assert theorems_longest_first(tasks, seconds) == [tasks[1], tasks[4], tasks[3], tasks[0],
                                                      tasks[2]]


def test_the_tasks_of_a_theorem_after_a_killed_or_crashed_one_still_run(monkeypatch):
    import os

    import dpverify.verifiers.runner as runner

    real = runner.run_check

    def first_hangs_second_dies(theorem, claim, check, *args):
        if check == 0:
            time.sleep(60)
        if check == 1:
            os._exit(7)
        return real(theorem, claim, check, *args)

    monkeypatch.setattr(runner, "run_check", first_hangs_second_dies)
    monkeypatch.setattr(runner, "KILL_GRACE_SECONDS", 0.0)
    monkeypatch.setattr(runner, "WALL_BACKSTOP_FACTOR", 1.0)  # the sleeper: killed at 3 s
    tasks = [t for t in plan(["DEF-DP"]) if t.claim == 1][:3]
    assert [t.check for t in tasks] == [0, 1, 2]
    verdicts = list(_execute_pool(tasks, PROFILES["quick"], 2, None, 3.0))
    assert [(v.check, v.status) for v in verdicts] == [
        (0, Status.INCONCLUSIVE), (1, Status.ERROR), (2, real("DEF-DP", 1, 2,
                                                               PROFILES["quick"]).status)]


def test_the_committed_snapshot_gives_the_expected_seconds_of_planned_tasks(tmp_path):
    seconds = expected_seconds()
    planned = plan(["SMITH-GROUP", "DEF-DP"])
    assert all(t.id in seconds for t in planned)
    assert longest_first(planned, seconds)[0].theorem == "SMITH-GROUP"
    assert expected_seconds(tmp_path / "absent.json") == {}
    (tmp_path / "bad.json").write_text("{not json")
    assert expected_seconds(tmp_path / "bad.json") == {}


def test_the_warm_up_before_forking_runs_every_route_to_its_true_verdict():
    assert warm_up() == [Status.CERTIFIED, Status.PASSED, Status.PROVED, Status.PROVED]


_DRAWS = """
import json, sys
from dpverify.theorems.claims import Box, Compare
from dpverify.verifiers.property import verify_box
from dpverify.verifiers.verdict import Budget
if sys.argv[1] == "planted":
    sys.path.insert(0, sys.argv[2])
    import planted_constants  # a local module full of constants in the box
seen = []
def lhs(ctx, x):
    seen.append(str(x))
    return x
box = Box(reals={"x": ("0", "1")})
verify_box(Compare(lhs, "le", lambda ctx, x: x + 1, box, "property"), box,
           Budget(seconds=30.0, examples=300), 7)
print(json.dumps(seen))
"""


def test_the_property_route_draws_the_same_points_whatever_local_modules_are_loaded(tmp_path):
    """hypothesis also draws constants from the source of loaded local modules (a checkout or
    editable install of dpverify, the caller's scripts): a seed must draw the same points in a
    process that loaded a module full of constants (verifiers/draws.py)."""
    import subprocess
    import sys

    consts = ", ".join(f"{k / 97:.17g}" for k in range(1, 97))
    (tmp_path / "planted_constants.py").write_text(f"VALUES = [{consts}]\n")

    def draws(mode: str) -> list[str]:
        out = subprocess.run([sys.executable, "-c", _DRAWS, mode, str(tmp_path)],
                             capture_output=True, text=True, timeout=300, check=True,
                             cwd=tmp_path)
        return json.loads(out.stdout.splitlines()[-1])

    plain, planted = draws("plain"), draws("planted")
    assert len(plain) >= 100
    assert planted == plain


def test_a_pool_worker_runs_the_theorems_one_after_another(monkeypatch):
    import os

    import dpverify.verifiers.runner as runner
    from dpverify.verifiers.verdict import Verdict

    def where(theorem, claim, check, *args):  # the worker's pid as the summary
        return Verdict(theorem, claim, check, "numeric", Status.PASSED, str(os.getpid()))

    monkeypatch.setattr(runner, "run_check", where)
    tasks = [Task(th, 1, i, "numeric") for th in ("A", "B", "C", "D", "E") for i in range(2)]
    verdicts = list(_execute_pool(tasks, PROFILES["quick"], 2, None, 5.0))
    assert sorted((v.theorem, v.check) for v in verdicts) == sorted(
        (t.theorem, t.check) for t in tasks)
    workers = {v.summary for v in verdicts}
    assert len(workers) <= 2 and str(os.getpid()) not in workers
    for th in "ABCDE":  # a theorem's tasks in one worker, in plan order
        assert len({v.summary for v in verdicts if v.theorem == th}) == 1
        assert [v.check for v in verdicts if v.theorem == th] == [0, 1]


def test_a_verdict_records_its_cpu_seconds_and_keeps_them_through_json():
    from dpverify.verifiers.dispatch import run_check
    from dpverify.verifiers.verdict import Verdict

    v = run_check("DEF-DP", 1, 0, PROFILES["quick"])
    assert v.cpu_seconds is not None and 0 <= v.cpu_seconds
    d = v.to_dict()
    assert d["cpu_seconds"] == round(v.cpu_seconds, 4)
    assert Verdict.from_dict(d).cpu_seconds == d["cpu_seconds"]
    assert "cpu_seconds" not in Verdict("X", 1, 0, "numeric", v.status, "").to_dict()


def test_a_forked_child_leaves_the_parents_objects_out_of_its_collections():
    import gc

    from dpverify.verifiers.limited import call_limited

    assert call_limited(gc.get_freeze_count, 30) > 0
    assert gc.get_freeze_count() == 0  # the parent's own collections are unchanged
