"""The solver process of the smt route: z3 runs in a forked child that is killed at a deadline.

z3 5.4.1's nlsat may ignore both its ``timeout`` and ``Context.interrupt()`` (WBK19-SUBRDP claim
5 check 7 under the mutant ``wbk_tau`` ``C(α,2) q^2 → C(α,2)/q^2`` ran past 200 s with a 20 s
budget), and a C call that ignores interrupts cannot be stopped inside the process. So each
process that uses the route forks one solver process (:func:`call`), at its first problem, and
sends it every problem (pickled) through a pipe; at a problem's deadline the solver process is
killed (SIGKILL, :class:`~verifiers.limited.TimeLimit`) and the next problem forks a new one.

One process for many problems, not a fork per problem: after a fork, every page either process
writes is copied once, and a fork per problem paid that on every problem (331 smt checks of the
catalogue: +12 CPU s on 61, bench/bench_smt_hard_limit.py); a long-lived solver process pays it
once. Every problem gets a fresh z3 ``Context``, so an answer does not depend on what the solver
process solved before. The solver process leads its own process group and dies with its parent
(:func:`~verifiers.limited.die_with_parent`), like the child of ``dpverify eval``.

Main results
------------
- :func:`call`: ``handler(data)`` in the solver process (``data``: a pickled payload), within
  ``seconds``.
- :func:`stop`: end this process's solver process (the next :func:`call` forks a new one: code
  patched in the parent, e.g. by a test, is seen only by a solver process forked after it).
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import struct
import time
from collections.abc import Callable
from typing import Any

from dpverify.verifiers.limited import ChildDied, TimeLimit, die_with_parent

_HEADER = struct.Struct("!Q")  # the length of a pickled frame


class _Solver:
    """A forked solver process serving ``handler`` and the pipes to it."""

    def __init__(self, handler: Callable[[bytes], Any]) -> None:
        req_r, req_w = os.pipe()
        ans_r, ans_w = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the solver process
            os.close(req_w)
            os.close(ans_r)
            _serve(handler, req_r, ans_w)
        os.close(req_r)
        os.close(ans_w)
        try:
            os.setpgid(pid, pid)  # also from here: no race with the child's own call
        except OSError:
            pass
        self.pid, self.requests, self.answers = pid, req_w, ans_r
        self.owner, self.handler = os.getpid(), handler

    def call(self, payload: bytes, seconds: float) -> Any:
        deadline = time.monotonic() + seconds
        _write_frame(self.requests, payload)
        data = _read_frame(self.answers, deadline)
        kind, value = pickle.loads(data)
        if kind == "raise":
            raise value
        return value

    def ended(self) -> bool:
        """Whether the solver process ended between problems (e.g. ``PR_SET_PDEATHSIG``: the
        thread that forked it ended); it is then reaped."""
        try:
            return os.waitpid(self.pid, os.WNOHANG)[0] != 0
        except ChildProcessError:
            return True

    def kill(self) -> None:
        for fd in (self.requests, self.answers):
            try:
                os.close(fd)
            except OSError:
                pass
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass


_current: _Solver | None = None


def call(handler: Callable[[bytes], Any], data: bytes, seconds: float) -> Any:
    """``handler(data)`` (``data`` pickled; the handler unpickles it) in this process's solver
    process (forked at the first call, or after a kill): its answer or its exception;
    :class:`TimeLimit` after ``seconds`` (the solver process is then killed), :class:`ChildDied`
    if it died without an answer. ``handler`` must be a module-level function (the solver
    process has its own copy of the code, as it was when it was forked)."""
    global _current
    if _current is not None and _current.owner != os.getpid():
        _current = None  # inherited through a fork (a runner worker): its parent's, not ours
    if _current is not None and (_current.handler is not handler or _current.ended()):
        stop()
    if _current is None:
        _current = _Solver(handler)
    try:
        return _current.call(data, seconds)
    except TimeLimit:
        stop()
        raise
    except (ChildDied, OSError) as exc:
        stop()
        raise ChildDied(f"the solver process died without an answer ({exc})") from None


def stop() -> None:
    """Kill this process's solver process, if it has one."""
    global _current
    if _current is not None and _current.owner == os.getpid():
        _current.kill()
    _current = None


def _serve(handler: Callable[[bytes], Any], requests: int, answers: int) -> None:
    die_with_parent()
    code = 0
    try:
        while True:
            try:
                data = _read_frame(requests, None)
            except ChildDied:  # the parent closed the pipe: done
                break
            try:
                out = pickle.dumps(("ok", handler(data)))
            except BaseException as e:  # reported to the caller, whatever it was
                try:
                    out = pickle.dumps(("raise", e))
                except Exception:
                    out = pickle.dumps(("raise", RuntimeError(f"{type(e).__name__}: {e}")))
            _write_frame(answers, out)
    except BaseException:
        code = 1
    finally:
        os._exit(code)


def _write_frame(fd: int, data: bytes) -> None:
    view = memoryview(_HEADER.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view):]


def _read_exactly(fd: int, n: int, deadline: float | None) -> bytes:
    chunks: list[bytes] = []
    while n:
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeLimit("the solver did not answer in time")
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
        chunk = os.read(fd, min(n, 1 << 20))
        if not chunk:
            raise ChildDied("end of file")
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def _read_frame(fd: int, deadline: float | None) -> bytes:
    (n,) = _HEADER.unpack(_read_exactly(fd, _HEADER.size, deadline))
    return _read_exactly(fd, n, deadline)
