"""Executors: sandboxed calls with hard limits, retries of lost calls, the CLI flags, the run
document's record of the executor, and no Dask import unless asked. The Dask cluster tests are
in test_dask.py."""

import concurrent.futures as cf
import math
import os
import subprocess
import sys
import time

import pytest

import dpverify
from dpverify.reports.cli import main
from dpverify.reports.schema import validate
from dpverify.theorems.errors import InvalidParameter
from dpverify.verifiers.dispatch import PROFILES, run_check
from dpverify.verifiers.executors import SerialExecutor, open_executor, stream
from dpverify.verifiers.runner import Task, assemble, execute, plan
from dpverify.verifiers.sandbox import Limited, guarded
from dpverify.verifiers.task import execute_on, parse_task_id, run_task, verdict_of
from dpverify.verifiers.verdict import Status


def test_importing_the_runner_and_the_cli_does_not_import_dask():
    code = ("import sys, dpverify.verifiers.runner, dpverify.verifiers.task, "
            "dpverify.reports.cli; dpverify.reports.cli.build_parser(); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True)
    assert out.stdout.strip() == "[]"


def test_a_call_past_its_limit_is_killed_and_the_thread_stays_usable():
    started = time.monotonic()
    out = guarded(time.sleep, (60,), 0.5)
    assert out.kind == "timeout" and time.monotonic() - started < 30
    again = guarded(math.factorial, (5,), 30)
    assert again == Limited("ok", 120, seconds=again.seconds)


def test_a_dying_call_is_crashed_and_a_raising_call_is_raised():
    dead = guarded(os._exit, (7,), 30)
    assert dead.kind == "crashed" and "exit code 7" in dead.reason
    raised = guarded(int, ("seven",), 30)
    assert raised.kind == "raised" and raised.reason.startswith("ValueError")


class _LosesWorkers(cf.Executor):
    """Fails the first ``losses`` submissions of every call as a lost worker would."""

    def __init__(self, losses: int) -> None:
        self.losses = losses
        self.seen: dict[tuple, int] = {}

    def submit(self, fn, /, *args, **kwargs):
        future: cf.Future = cf.Future()
        key = repr(args)
        self.seen[key] = self.seen.get(key, 0) + 1
        if self.seen[key] <= self.losses:
            future.set_exception(ConnectionError("worker tcp://10.0.0.1:4242 lost"))
        else:
            future.set_result(fn(*args, **kwargs))
        return future


def test_a_call_whose_worker_is_lost_is_retried_once_then_an_error():
    notes: list[str] = []
    once = dict(stream(_LosesWorkers(1), math.factorial, [(4,), (5,)], 30, warn=notes.append))
    assert once == {0: Limited("ok", 24, seconds=once[0].seconds),
                    1: Limited("ok", 120, seconds=once[1].seconds)}
    assert len(notes) == 2 and "lost its worker" in notes[0]
    twice = dict(stream(_LosesWorkers(2), math.factorial, [(4,)], 30, warn=notes.append))
    assert twice[0].kind == "lost" and "tcp://10.0.0.1:4242" in twice[0].reason
    v = verdict_of(Task("BASIC", 1, 0, "oracle"), twice[0], 60.0)
    assert v.status is Status.ERROR and "worker lost" in v.summary


def test_outcomes_other_than_ok_are_never_a_pass():
    task = Task("BASIC", 1, 0, "oracle")
    assert verdict_of(task, Limited("timeout", seconds=3.0), 2.0).status is Status.INCONCLUSIVE
    for kind in ("raised", "crashed", "lost"):
        assert verdict_of(task, Limited(kind, reason="x"), 2.0).status is Status.ERROR


def test_a_task_is_rebuilt_from_its_id():
    assert parse_task_id("DR-CLASSIC-GAUSS/7/1") == ("DR-CLASSIC-GAUSS", 7, 1)
    v = run_task("BASIC/5/0", PROFILES["quick"], None, 60.0)
    direct = run_check("BASIC", 5, 0, PROFILES["quick"], None, 60.0).to_dict()
    assert v["theorem"] == "BASIC" and v["claim"] == 5 and v["check"] == 0
    assert {**v, "seconds": 0, "cpu_seconds": 0} == {**direct, "seconds": 0, "cpu_seconds": 0}


def test_a_task_past_its_budget_on_a_pooled_executor_is_inconclusive():
    tasks = [t for t in plan(["DR-CLASSIC-GAUSS"], claim=2) if t.route == "interval"]
    with cf.ThreadPoolExecutor(1) as pool:
        [v] = execute_on(pool, tasks, PROFILES["quick"], None, 0.05, grace=0.0)
    assert v.status is Status.INCONCLUSIVE and "killed" in v.summary


def test_serial_executor_runs_in_process_and_is_recorded():
    tasks = plan(["BASIC"], claim=5)
    with open_executor("serial") as backend:
        assert isinstance(backend.executor, SerialExecutor)
        verdicts = execute(tasks, PROFILES["quick"], executor=backend.executor)
    doc = assemble(tasks, verdicts, PROFILES["quick"], "test", 1.0, ["BASIC"],
                   executor=backend.describe())
    assert doc["executor"] == {"name": "serial", "workers": 1, "scheduler": None}
    assert validate(doc) == []
    doc["executor"] = {"name": "dask", "workers": "2"}
    assert any("executor.workers" in p for p in validate(doc))


@pytest.mark.parametrize("argv", [
    ["--executor", "local", "--scheduler", "tcp://127.0.0.1:8786"],
    ["--executor", "serial", "--workers", "3"],
    ["--executor", "local", "--workers", "0"],
    ["--jobs", "2", "--workers", "3"],
    ["--executor", "dask", "--workers", "2", "--scheduler", "tcp://127.0.0.1:8786"],
])
def test_inconsistent_executor_flags_are_usage_errors(argv, capsys, tmp_path):
    assert main(["run", "BASIC", "--out", str(tmp_path), *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("dpverify: error:") and "Traceback" not in err


def test_dask_without_distributed_says_which_extra_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    with pytest.raises(InvalidParameter, match=r"dpverify\[dask\]"), open_executor("dask"):
        pass


def test_the_api_rejects_what_is_not_an_executor():
    with pytest.raises(InvalidParameter, match=r"concurrent\.futures\.Executor"):
        dpverify.run(["BASIC"], executor=42)
