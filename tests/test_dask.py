"""The Dask executor on a LocalCluster of 2 worker processes: the same verdicts as the local
pool (failed claims' counterexamples included), budgets that hold on a worker, and the run
document's record. Kept short: one cluster for the module, a small set of tasks."""

import json
import subprocess
import sys
import time
from pathlib import Path

import distributed
import pytest

import dpverify
from dpverify.reports.schema import validate
from dpverify.verifiers.dispatch import PROFILES
from dpverify.verifiers.executors import stream
from dpverify.verifiers.runner import execute, plan

TIMING = ("seconds", "boxes_per_second", "timeout_ms",  # the SMT budget left
          "solver_cpu_seconds")


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as c:
        yield c


def _comparable(verdicts):
    out = {}
    for v in verdicts:
        d = v.to_dict()
        d.pop("seconds")
        d.pop("cpu_seconds", None)
        d["evidence"] = {k: x for k, x in d["evidence"].items() if k not in TIMING}
        out[(v.theorem, v.claim, v.check)] = d
    return out


def _as_json(comparable):
    """The comparable verdicts as plain JSON values, sorted by task."""
    return json.loads(json.dumps(sorted([list(k), d] for k, d in comparable.items()),
                                 default=str))


def _tasks():
    # BASIC's oracle and numeric claims, and DR-CLASSIC-GAUSS claim 7: an erratum, refuted by a
    # seeded search (property route) and at a point, each with a certified counterexample
    return ([t for t in plan(["BASIC"]) if t.claim in (1, 2, 5)]
            + plan(["DR-CLASSIC-GAUSS"], claim=7))


def _local_run_in_a_fresh_interpreter():
    """The local pool's verdicts from a fresh ``python`` process: the pool forks its workers
    from the caller, and this test process has imported (and set global state in) every test
    module before it; the Dask workers are fresh interpreters too."""
    code = ("import json, sys; sys.path.insert(0, sys.argv[1]); "
            "from tests.test_dask import _as_json, _comparable, _tasks, PROFILES, execute; "
            "print(json.dumps(_as_json(_comparable(execute(_tasks(), PROFILES['quick'], "
            "jobs=2)))))")
    root = str(Path(__file__).resolve().parents[1])
    out = subprocess.run([sys.executable, "-c", code, root], capture_output=True, text=True,
                         timeout=600, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_dask_and_local_give_the_same_verdicts_counterexamples_included(client):
    tasks = _tasks()
    profile = PROFILES["quick"]
    local = _local_run_in_a_fresh_interpreter()
    seen = []
    on_dask = execute(tasks, profile, on_result=seen.append,
                      executor=client.get_executor(pure=False))
    assert len(seen) == len(tasks)  # streamed back one by one
    assert _as_json(_comparable(on_dask)) == local
    failed = [v for v in on_dask if v.theorem == "DR-CLASSIC-GAUSS"]
    assert failed and all(v.status == "failed" and v.evidence.get("counterexample")
                          for v in failed)


def test_a_call_past_its_budget_on_a_worker_is_killed_and_the_worker_stays_usable(client):
    worker = sorted(client.scheduler_info()["workers"])[0]
    pinned = client.get_executor(pure=False, workers=[worker], allow_other_workers=False)
    started = time.monotonic()
    [(_, late)] = list(stream(pinned, time.sleep, [(60,)], 0.5))
    assert late.kind == "timeout" and time.monotonic() - started < 30
    [(_, ok)] = list(stream(pinned, sum, [([1, 2, 3],)], 30))
    assert ok.kind == "ok" and ok.value == 6


def test_the_python_api_takes_a_client_and_records_it(client):
    run = dpverify.run(["KOV-EPS"], executor=client)
    executor = run.document["executor"]
    assert executor["name"] == "dask" and executor["workers"] == 2 and executor["threads"] == 2
    assert validate(run.document) == []
    assert executor["scheduler"] == client.scheduler.address
    assert run.exit_code == 0
