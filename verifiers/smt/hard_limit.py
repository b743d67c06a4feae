"""A hard wall-clock limit for a solver call: the call runs in a forked child that is killed at
its deadline.

z3 (5.4.1) does not always heed its ``timeout`` or ``Context.interrupt()``: inside nlsat some
queries run on, e.g. WBK19-SUBRDP claim 5 check 7 under the mutant ``wbk_tau`` ``C(α,2) q^2 →
C(α,2)/q^2`` ran past 200 s with a 20 s budget. A C call that ignores interrupts cannot be
stopped inside the process, so the call runs in a child made by ``os.fork`` (the caller may be
a daemonic multiprocessing worker, which may not start ``multiprocessing`` children; a plain
fork is allowed) and sends its pickled result through a pipe; at the deadline the child is
killed (SIGKILL) and the caller learns that nothing was decided.

A fork of a worker that has loaded sympy and z3 (~160 MB) costs ~1 ms of the caller's CPU and
~2 ms of the child's (bench/bench_smt_hard_limit.py measures it on the catalogue's smt tasks).
Where ``os.fork`` is missing (Windows) or fails, the call runs in the process, without the
hard limit.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Limited(Generic[T]):
    """The outcome of :func:`call_with_hard_limit`: the call's value, or ``killed`` (then
    ``value`` is None) after ``seconds`` of wall clock."""

    value: T | None
    killed: bool
    seconds: float
    forked: bool


def call_with_hard_limit(fn: Callable[[], T], seconds: float) -> Limited[T]:
    """``fn()`` in a forked child, killed after ``seconds`` of wall clock. An exception in the
    child is raised again here as a ``RuntimeError`` carrying the child's traceback."""
    started = time.monotonic()
    fork = getattr(os, "fork", None)
    if fork is None:
        return Limited(fn(), False, time.monotonic() - started, False)
    read_end, write_end = os.pipe()
    try:
        pid = fork()
    except OSError:  # no process left to fork (a resource limit): no hard limit, but an answer
        os.close(read_end)
        os.close(write_end)
        return Limited(fn(), False, time.monotonic() - started, False)
    if pid == 0:  # the child: never returns into the caller's code
        os.close(read_end)
        _child(fn, write_end)
    os.close(write_end)
    try:
        data, complete = _read_until(read_end, started + max(0.0, seconds))
    finally:
        os.close(read_end)
    if not complete:
        _kill(pid)
        return Limited(None, True, time.monotonic() - started, True)
    os.waitpid(pid, 0)
    kind, payload = pickle.loads(data) if data else ("error", "the solver process died "
                                                               "without an answer")
    if kind == "error":
        raise RuntimeError(f"in the solver process: {payload}")
    return Limited(payload, False, time.monotonic() - started, True)


def _child(fn: Callable[[], T], write_end: int) -> None:
    code = 0
    try:
        try:
            data = pickle.dumps(("value", fn()))
        except BaseException:  # reported to the caller, whatever it was
            data = pickle.dumps(("error", traceback.format_exc(limit=8)))
            code = 1
        view = memoryview(data)
        while view:
            view = view[os.write(write_end, view):]
    finally:
        os._exit(code)  # no atexit handlers, no flush of buffers inherited from the caller


def _read_until(fd: int, deadline: float) -> tuple[bytes, bool]:
    """Everything written to ``fd`` until its end of file, and whether the end came before
    ``deadline`` (``time.monotonic``)."""
    chunks: list[bytes] = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return b"", False
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            continue
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return b"".join(chunks), True
        chunks.append(chunk)


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:  # it ended on its own meanwhile
        pass
    os.waitpid(pid, 0)
