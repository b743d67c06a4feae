"""Where tasks run: one abstraction, :class:`concurrent.futures.Executor`, with three kinds.

- ``serial``: in this process, one call after another, no time limit (for debugging);
- ``local``: a pool of worker processes on this machine (the default);
- ``dask``: the workers of a Dask distributed cluster — an existing one (``--scheduler
  tcp://HOST:PORT``) or a ``distributed.LocalCluster`` of ``--workers N`` processes started
  and shut down here. A ``distributed.Client`` or any other ``Executor`` is accepted too.

Calls must be pure functions of picklable arguments (no reliance on ``fork`` or on state set up
in this process). On every executor but ``serial`` a call runs in a sandbox process with a hard
limit (:mod:`~dpverify.verifiers.sandbox`), so a worker survives a call past its budget. A call
whose *worker* is lost (the future raises instead of returning an outcome) is submitted once
more, then reported ``lost`` with the reason — never dropped, never counted as a success.
Nothing here imports ``distributed`` unless a Dask executor is asked for.

Main results
------------
- :func:`add_executor_arguments`: ``--executor``, ``--scheduler``, ``--workers`` on a parser.
- :func:`open_executor`: a :class:`Backend` (executor, kind, worker count) for those flags,
  closed on exit; :func:`backend_for` does the same for the Python API's ``executor=``.
- :func:`stream`: ``(index, Limited)`` for each call, in completion order.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from dpverify.theorems.errors import InvalidParameter
from dpverify.verifiers.sandbox import Limited, close_idle, guarded, inline

EXECUTORS = ("local", "serial", "dask")
RETRIES = 1  # a call whose worker is lost is submitted once more
CONNECT_SECONDS = 30


class SerialExecutor(cf.Executor):
    """Runs each call when it is submitted, in this process."""

    workers = 1

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> cf.Future:
        future: cf.Future = cf.Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as exc:
            future.set_exception(exc)
        return future


class LocalExecutor(cf.ThreadPoolExecutor):
    """A pool of ``workers`` processes on this machine: :func:`stream` runs each call in the
    sandbox process of one of ``workers`` threads (for ``run``'s tasks, the runner's own pool
    of forked workers is used instead: ``verifiers.task.pool_size``)."""

    def __init__(self, workers: int) -> None:
        super().__init__(max_workers=workers, thread_name_prefix="dpverify-local")
        self.workers = workers

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        super().shutdown(wait, cancel_futures=cancel_futures)
        if wait:
            close_idle()


@dataclass
class Backend:
    """An open executor with what the run document records of it."""

    name: str
    workers: int
    executor: cf.Executor
    scheduler: str | None = None
    threads: int | None = None  # Dask: task slots over all workers (each slot has a sandbox)

    def describe(self) -> dict[str, Any]:
        out = {"name": self.name, "workers": self.workers, "scheduler": self.scheduler}
        if self.threads is not None:
            out["threads"] = self.threads
        return out


def add_executor_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--executor", choices=EXECUTORS, default="local",
                        help="where tasks run: local worker processes (default), serial "
                        "(in-process, for debugging) or a Dask cluster")
    parser.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                        help="with --executor dask: the scheduler of an existing cluster")
    parser.add_argument("--workers", type=int, metavar="N",
                        help="local: worker processes (default one per core); dask without "
                        "--scheduler: processes of the LocalCluster started for the run")


@contextmanager
def open_executor(name: str = "local", workers: int | None = None,
                  scheduler: str | None = None, jobs: int = 0) -> Iterator[Backend]:
    """The executor for ``--executor/--workers/--scheduler`` (``jobs``: the older ``--jobs``,
    an alias of ``--workers`` for ``local``; ``1`` means serial)."""
    if name not in EXECUTORS:
        raise InvalidParameter(f"executor must be one of {', '.join(EXECUTORS)}; got {name!r}")
    if workers is not None and workers < 1:
        raise InvalidParameter(f"--workers must be >= 1; got {workers}")
    if scheduler is not None and name != "dask":
        raise InvalidParameter("--scheduler needs --executor dask")
    if jobs and workers and jobs != workers:
        raise InvalidParameter(f"--jobs {jobs} and --workers {workers} disagree: give one")
    if name == "dask":
        if scheduler is not None and workers is not None:
            raise InvalidParameter("--workers starts a local Dask cluster: it cannot be "
                                   "combined with --scheduler (the cluster has its workers)")
        with _open_dask(scheduler, workers or jobs or None) as backend:
            yield backend
        return
    n = workers or jobs or (1 if name == "serial" else os.cpu_count() or 1)
    if name == "serial" and n != 1:
        raise InvalidParameter(f"--executor serial runs one task at a time; got --workers {n}")
    executor: cf.Executor = SerialExecutor() if n == 1 else LocalExecutor(n)
    try:
        yield Backend("serial" if n == 1 else "local", n, executor)
    finally:
        executor.shutdown(wait=True)


@contextmanager
def backend_for(executor: Any, jobs: int = 0) -> Iterator[Backend]:
    """A :class:`Backend` for the Python API's ``executor=``: ``None`` or a name (``"local"``,
    ``"serial"``, ``"dask"``: see :func:`open_executor`), a ``distributed.Client`` (used, not
    closed) or any ``concurrent.futures.Executor`` (used, not shut down)."""
    if executor is None or isinstance(executor, str):
        with open_executor(executor or "local", jobs=jobs) as backend:
            yield backend
    elif _is_dask_client(executor):
        yield _client_backend(executor, None)
    elif isinstance(executor, cf.Executor):
        workers = getattr(executor, "workers", None) or getattr(executor, "_max_workers", 0)
        if type(executor).__name__ == "ClientExecutor":
            yield _client_backend(executor._client, executor)
            return
        name = {SerialExecutor: "serial", LocalExecutor: "local"}.get(
            type(executor), type(executor).__name__)
        yield Backend(name, int(workers or 1), executor)
    else:
        raise InvalidParameter("executor must be 'local', 'serial', 'dask', a "
                               "concurrent.futures.Executor or a distributed.Client; "
                               f"got {type(executor).__name__}")


def _is_dask_client(obj: Any) -> bool:
    return type(obj).__module__.startswith("distributed") and hasattr(obj, "get_executor")


def _client_backend(client: Any, executor: cf.Executor | None) -> Backend:
    # pure=False: a resubmitted call gets a new key instead of the failed future back
    ex = executor or client.get_executor(pure=False)
    nthreads = client.nthreads()  # every worker connected now: {address: threads}
    return Backend("dask", len(nthreads), ex, getattr(client.scheduler, "address", None),
                   sum(nthreads.values()))


@contextmanager
def _open_dask(scheduler: str | None, workers: int | None) -> Iterator[Backend]:
    try:
        import dask
        import distributed
    except ImportError:
        raise InvalidParameter("--executor dask needs the distributed package: "
                               "pip install 'dpverify[dask]'") from None
    if scheduler is not None:
        try:
            client = distributed.Client(scheduler, timeout=CONNECT_SECONDS)
        except (OSError, ValueError, TypeError) as exc:
            raise InvalidParameter(f"--scheduler {scheduler}: cannot connect to a Dask "
                                   f"scheduler there ({exc})") from None
        try:
            yield _client_backend(client, None)
        finally:
            client.close()
        return
    n = workers or os.cpu_count() or 1
    # the scheduler runs in this process: a task whose worker dies is failed at once
    # (KilledWorker), and stream() submits it exactly once more
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
        cluster = distributed.LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                           dashboard_address=None)
        client = distributed.Client(cluster)
        try:
            backend = _client_backend(client, None)
            backend.scheduler = None  # a cluster of this run only
            yield backend
        finally:
            client.close()
            cluster.close()


def stream(executor: cf.Executor, fn: Callable[..., Any], calls: Sequence[Sequence[Any]],
           limit: float, retries: int = RETRIES, warn: Callable[[str], None] | None = None,
           names: Sequence[str] | None = None) -> Iterator[tuple[int, Limited]]:
    """Run ``fn(*calls[i])`` for every ``i`` and yield ``(i, outcome)`` as each completes.

    A :class:`SerialExecutor` runs the calls in-process without a limit; any other executor
    runs each in a sandbox process killed after ``limit`` seconds. A call whose future raises
    (its worker was lost: the sandbox never raises) is resubmitted up to ``retries`` times, then
    yielded as ``Limited("lost", reason=...)``; ``warn`` (default: stderr) hears of each
    resubmission, naming the call by ``names[i]``."""
    if isinstance(executor, SerialExecutor):
        for i, args in enumerate(calls):
            yield i, inline(fn, args)
        return
    say = warn or (lambda text: print(f"dpverify: {text}", file=sys.stderr, flush=True))
    pending: dict[cf.Future, int] = {}
    failures: dict[int, int] = {}

    def submit(i: int) -> None:
        pending[executor.submit(guarded, fn, tuple(calls[i]), limit)] = i

    try:
        for i in range(len(calls)):
            submit(i)
        while pending:
            done, _ = cf.wait(list(pending), return_when=cf.FIRST_COMPLETED)
            for future in done:
                i = pending.pop(future)
                reason = _lost_reason(future)
                if reason is None:
                    yield i, future.result()
                    continue
                failures[i] = failures.get(i, 0) + 1
                if failures[i] <= retries:
                    name = names[i] if names else f"call {i}"
                    say(f"{name} lost its worker ({reason}); submitting it again")
                    submit(i)
                else:
                    yield i, Limited("lost", reason=f"lost {failures[i]} times, the last: "
                                                    f"{reason}")
    finally:
        for future in pending:
            future.cancel()


def _lost_reason(future: cf.Future) -> str | None:
    if future.cancelled():
        return "the executor cancelled it"
    exc = future.exception()
    if exc is None:
        return None
    return f"{type(exc).__name__}: {exc}"
