"""``audit`` and ``check-bound`` on a Dask LocalCluster of 2 worker processes: the same records,
verdicts and counterexamples as on the local executor (the certified references computed on
the workers), and the executor flags' bad combinations refused. Kept short: one cluster."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import distributed
import pytest

import dpverify
from dpverify.reports.cli import main
from dpverify.verifiers.accountants.audit import Audit, AuditOptions, Named
from dpverify.verifiers.accountants.cache import ReferenceStore
from dpverify.verifiers.accountants.remote import prefetch
from dpverify.verifiers.accountants.scenario import parse_cases
from tests.test_audit import IgnoresCount


def _closed(cid: str, event: dict[str, Any], deltas: list[float], epsilons: list[float]
            ) -> dict[str, Any]:
    return {"id": cid, "scenario": {"neighboring": "add_remove", "events": [
        {**event, "sampling": None}]}, "deltas": deltas, "epsilons": epsilons}


# closed forms, none of them among the shipped references (all are computed)
CLOSED = [_closed("g7", {"mechanism": "gaussian", "sigma": 2.25, "count": 7}, [1e-5], [1.25]),
          _closed("rr6", {"mechanism": "randomized_response", "eps0": 0.75, "count": 6},
                  [1e-6], []),
          _closed("lap3", {"mechanism": "laplace", "b": 1.25, "count": 3}, [1e-3], [0.5])]
OPTIONS = AuditOptions(timeout=30, rel_width=1e-2, ref_seconds=10)


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setenv("DPVERIFY_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as c:
        yield c


def _comparable(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k != "seconds"} for r in records]


def _audit(store: ReferenceStore) -> list[dict[str, Any]]:
    accountants = [Named("ignores-count", IgnoresCount())]  # UNSOUND where counts matter
    return Audit(accountants, parse_cases(CLOSED), OPTIONS, reference=store.bound).run()


def test_references_computed_on_dask_give_the_local_records(client: Any, tmp_path: Path
                                                              ) -> None:
    local = _audit(ReferenceStore(OPTIONS.rel_width, OPTIONS.ref_seconds, use_cache=False))
    store = ReferenceStore(OPTIONS.rel_width, OPTIONS.ref_seconds,
                           directory=tmp_path / "remote")
    sent = prefetch(store, parse_cases(CLOSED), client.get_executor(pure=False))
    assert sent == 5 and all(not isinstance(b, str) for b in store.remote.values())
    on_dask = _audit(store)
    assert _comparable(on_dask) == _comparable(local)
    assert {r["verdict"] for r in local} >= {"UNSOUND"}  # the comparison covers a failure
    assert store.counts["computed"] == 5  # none recomputed here; all written to the cache
    assert len(list((tmp_path / "remote").rglob("*.json"))) == 5
    again = ReferenceStore(OPTIONS.rel_width, OPTIONS.ref_seconds, directory=tmp_path / "remote")
    assert prefetch(again, parse_cases(CLOSED), client.get_executor(pure=False)) == 0


def test_the_python_api_takes_a_client(client: Any) -> None:
    acc = IgnoresCount()
    local = dpverify.audit(acc, CLOSED, timeout=30)
    assert _comparable(dpverify.audit(acc, CLOSED, timeout=30, executor=client)) == \
        _comparable(local)


@pytest.mark.parametrize("flags", [["--executor", "local", "--scheduler", "tcp://x:1"],
                                   ["--executor", "serial", "--workers", "2"],
                                   ["--executor", "dask", "--scheduler", "tcp://x:1",
                                    "--workers", "2"],
                                   ["--executor", "local", "--workers", "0"]])
@pytest.mark.parametrize("command", ["audit", "check-bound"])
def test_bad_executor_flags_exit_2(command: str, flags: list[str], tmp_path: Path,
                                   capsys: Any) -> None:
    if command == "audit":
        f = tmp_path / "sc.json"
        f.write_text(json.dumps(CLOSED))
        argv = ["audit", "--scenarios", str(f), "--accountant", "tests.test_audit:EXACT"]
    else:
        argv = ["check-bound", "k*eps0", "--against", "optimal-composition",
                "--region", "eps0=0.1..1", "k=1..4", "--fixed", "delta=0.001"]
    assert main([*argv, *flags]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Traceback" not in err[0]


def _bound(executor: Any) -> dict[str, Any]:
    # a flawed bound: sound at k = 1, below the optimum at larger k (sound and violated points)
    return dpverify.check_bound("eps0*k^0.75", against="optimal-composition",
                                region={"eps0": (0.1, 1), "k": (1, 4)}, fixed={"delta": 1e-3},
                                budget=60, seed=3, executor=executor).document


def test_check_bound_on_dask_gives_the_local_verdict_and_counterexample(
        client: Any, monkeypatch: Any) -> None:
    from dpverify.verifiers.bounds import remote, search

    local = _bound("local")
    assert local["verdict"] == "failed" and local["counterexample"]
    assert local["points"]["sound"] and local["points"]["violated"]
    sent: list[int] = []

    def counting(*args: Any) -> int:
        sent.append(remote.prefetch(*args))
        return sent[-1]

    monkeypatch.setattr(search, "prefetch", counting)
    on_dask = _bound(client)
    assert sum(sent) > 0  # reference evaluations were computed on the workers
    for key in ("verdict", "message", "counterexample", "points", "tightness"):
        assert on_dask[key] == local[key], key
