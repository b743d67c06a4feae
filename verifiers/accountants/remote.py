"""The audit's certified references computed on an executor's workers (``--executor dask``).

The expensive part of an audit is the certified reference of each (scenario, query); the
accountant calls are cheap and stay in the audit process. :func:`prefetch` sends every
reference that is neither shipped nor in the on-disk cache to the executor through
:func:`~dpverify.verifiers.executors.stream`, as :func:`remote_reference` — a pure function of
the scenario's canonical JSON, the query and the width — and hands the results to the
:class:`~dpverify.verifiers.accountants.cache.ReferenceStore` (which writes them to its cache as
if computed here). A reference that failed, timed out or lost its worker twice is recorded as
that failure: its queries are INCONCLUSIVE with the reason, never judged against nothing.
"""

from __future__ import annotations

import concurrent.futures as cf
from collections.abc import Callable, Sequence
from typing import Any

from dpverify.theorems.errors import DpVerifyError
from dpverify.verifiers.accountants.cache import (
    ReferenceStore,
    decode,
    encode,
    key_of,
    material,
)
from dpverify.verifiers.accountants.calls import deadline
from dpverify.verifiers.accountants.reference import reference_for
from dpverify.verifiers.accountants.scenario import Scenario, ScenarioCase
from dpverify.verifiers.accountants.tradeoff_reference import query_bound
from dpverify.verifiers.executors import LocalExecutor, SerialExecutor, stream

GRACE = 10.0  # the sandbox's limit beyond the reference's own hard limit


def remote_reference(scenario_json: str, kind: str, value: float, rel_width: float,
                     ref_seconds: float, hard_limit: float) -> dict[str, Any]:
    """The certified reference of one query, encoded as a cache entry (``{"error": text}``
    when it cannot be computed): what :meth:`ReferenceStore.get` computes, anywhere."""
    scenario = Scenario.from_json(scenario_json)
    text = material(scenario, kind, value, rel_width)
    try:
        with deadline(hard_limit, "the certified reference"):
            ref = reference_for(scenario, rel_width=rel_width, max_seconds=ref_seconds)
            bound = query_bound(ref, kind, value)
    except (DpVerifyError, ArithmeticError, ValueError, MemoryError, RecursionError) as e:
        return {"error": f"{type(e).__name__}: {e}"}
    return encode(bound, text)


def missing(store: ReferenceStore, cases: Sequence[ScenarioCase]
            ) -> list[tuple[Scenario, str, float]]:
    """The distinct (scenario, kind, value) queries whose reference is not stored yet."""
    out: dict[str, tuple[Scenario, str, float]] = {}
    for case in cases:
        for kind, v in case.queries():
            text = material(case.scenario, kind, v, store.rel_width)
            key = key_of(text)
            if key not in out and key not in store.remote and \
                    store.stored(text, key, count=False) is None:
                out[key] = (case.scenario, kind, v)
    return list(out.values())


def prefetch(store: ReferenceStore, cases: Sequence[ScenarioCase], executor: cf.Executor,
             note: Callable[[str], None] | None = None) -> int:
    """Compute the missing references of ``cases`` on ``executor``; returns how many."""
    todo = missing(store, cases)
    if not todo:
        return 0
    if note:
        note(f"computing {len(todo)} certified references on the executor")
    limit = store.hard_limit()
    calls = [(s.to_json(), kind, v, store.rel_width, store.ref_seconds, limit)
             for s, kind, v in todo]
    names = [f"reference {s.describe()} {kind}({v})" for s, kind, v in todo]
    for i, out in stream(executor, remote_reference, calls, limit + GRACE, names=names):
        scenario, kind, value = todo[i]
        text = material(scenario, kind, value, store.rel_width)
        store.remote[key_of(text)] = _result(out, text)
    return len(todo)


def prefetch_references(store: ReferenceStore, cases: Sequence[ScenarioCase],
                        executor: cf.Executor, note: Callable[[str], None] | None = None
                        ) -> int:
    """:func:`prefetch` on a distributing executor (Dask's, or any foreign one); nothing on
    ``serial`` and ``local``, whose audits compute references in-process as they always have."""
    if isinstance(executor, (SerialExecutor, LocalExecutor)):
        return 0
    return prefetch(store, cases, executor, note)


def _result(out: Any, text: str) -> Any:
    if out.kind != "ok":
        return f"computing it on a worker: {out.kind}: {out.reason or 'killed at the limit'}"
    entry = out.value
    if "error" in entry:
        return str(entry["error"])
    bound = decode(entry, text)
    return bound if bound is not None else "a worker returned an invalid reference"


__all__ = ["missing", "prefetch", "prefetch_references", "remote_reference"]
