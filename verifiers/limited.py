"""Run one call in a forked child with a hard time limit (``dpverify eval --timeout``).

The child is the leader of its own process group; at the limit, on any exception of the parent
(Ctrl-C included) and on a normal return, the whole group is killed, so nothing the call
started outlives it. The result (or the exception the call raised) comes back pickled through a
pipe; a child that dies without answering is reported as such.

Main results
------------
- :func:`call_limited`: ``fn()`` with at most ``seconds`` of wall time.
- :class:`TimeLimit`: raised when the limit is reached (the caller says "time limit", exit 3).
"""

from __future__ import annotations

import gc
import os
import pickle
import signal
import time
from collections.abc import Callable
from typing import Any, TypeVar

from dpverify.theorems.errors import DpVerifyError

T = TypeVar("T")


class TimeLimit(DpVerifyError):
    """The call did not finish within its time limit (never a pass: an inconclusive result)."""


class ChildDied(DpVerifyError):
    """The child process died without an answer (killed, out of memory)."""


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def die_with_parent() -> None:
    """For a forked child: lead its own process group (the parent kills the group: the child
    and whatever it started), leave Ctrl-C to the parent, and get SIGKILL when the parent dies
    (Linux ``PR_SET_PDEATHSIG``; elsewhere the parent's cleanup is the only guard).

    Also ``gc.freeze()``: the objects inherited from the parent are left out of the child's
    garbage collections, which otherwise walk them all (and copy every page they touch) at
    each full collection: in a pool worker running ~50 theorems, 0.2-0.26 s of CPU for 2-3
    full collections, 0.04-0.06 s frozen. Their garbage is not collected in the child: it
    was the parent's, and the child's life is the run."""
    gc.freeze()
    parent = os.getppid()
    try:
        os.setpgid(0, 0)
    except OSError:
        pass
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)


def _child(fn: Callable[[], Any], wfd: int) -> None:
    die_with_parent()
    try:
        payload = pickle.dumps(("ok", fn()))
    except BaseException as e:
        try:
            payload = pickle.dumps(("raise", e))
        except Exception:  # an exception that does not pickle: send its text
            payload = pickle.dumps(("raise", RuntimeError(f"{type(e).__name__}: {e}")))
    try:
        with os.fdopen(wfd, "wb") as w:
            w.write(payload)
    finally:
        os._exit(0)


def call_limited(fn: Callable[[], T], seconds: float) -> T:
    """``fn()`` run in a forked child; :class:`TimeLimit` after ``seconds``."""
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.close(rfd)
        _child(fn, wfd)
    os.close(wfd)
    try:
        os.setpgid(pid, pid)  # also from the parent: no race with the child's own call
    except OSError:
        pass
    deadline = time.monotonic() + seconds
    chunks: list[bytes] = []
    reaped = False
    try:
        os.set_blocking(rfd, False)
        while True:
            try:
                data = os.read(rfd, 1 << 16)
            except BlockingIOError:
                data = None
            if data:
                chunks.append(data)
                continue
            if data == b"":  # the child closed the pipe: it answered or died
                break
            if time.monotonic() > deadline:
                raise TimeLimit(f"time limit of {seconds:g} s reached")
            _wait_readable(rfd, min(0.2, max(0.0, deadline - time.monotonic())))
        _, status = os.waitpid(pid, 0)
        reaped = True
    finally:
        os.close(rfd)
        _kill_group(pid)
        if not reaped:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
    if not chunks:
        code = os.waitstatus_to_exitcode(status)
        raise ChildDied(f"the evaluation died without an answer (exit status {code}; "
                        "out of memory?)")
    kind, value = pickle.loads(b"".join(chunks))
    if kind == "raise":
        raise value
    return value


def _wait_readable(fd: int, seconds: float) -> None:
    import select

    select.select([fd], [], [], seconds)
