"""Accountant calls in killable workers: every hook (``prepare``, ``epsilon``, ``delta``) of an
accountant runs in a forked worker under the per-call timeout, and nothing it does — raise,
return garbage, hang, ``sys.exit``, ``os._exit``, start child processes — reaches the audit.

Each call forks a *supervisor* that makes itself a process-group leader and forks the
*runner* (the accountant's code) into that group. The runner sends its answer through a pipe
to the audit. The supervisor runs no accountant code: it waits for the runner, then kills
the whole group (so a child process the accountant started does not outlive its call), and
it kills the group as soon as the audit process dies (so a killed audit leaves no worker). At
the timeout the audit kills the whole group itself (``killpg``).

An answer is packed in the runner (:func:`pack`) into an exact value the pipe can carry:
``int``, ``Fraction`` or ``float`` (inf and NaN included), never a float conversion that can
overflow; a bool, a string, ``None`` or any non-number is a ``bad`` answer with its repr.
"""

from __future__ import annotations

import contextlib
import numbers
import os
import pickle
import select
import signal
import sys
import threading
import time
from collections.abc import Iterator
from decimal import Decimal
from fractions import Fraction
from typing import Any

from dpverify.verifiers.accountants.scenario import fmt_number

MAX_ANSWER_BYTES = 1 << 20  # an answer is a number: a bigger message is garbage
_POLL = 0.1


def pack(out: Any) -> tuple[str, Any]:
    """``("ok", exact number)`` or ``("bad", why)`` for an accountant's return value."""
    if isinstance(out, bool):
        return "bad", f"returned a bool ({out!r}), not a number"
    if isinstance(out, int | Fraction | float):
        return "ok", out if type(out) in (int, float, Fraction) else _exact(out)
    if isinstance(out, Decimal):
        return "ok", _exact(out)
    if isinstance(out, numbers.Integral):  # numpy integers
        return "ok", int(out)
    if isinstance(out, numbers.Real):  # numpy floats, mpmath-like reals
        return "ok", _exact(out)
    if type(out).__module__ == "numpy" and getattr(out, "shape", None) == ():
        return pack(out.item())  # a 0-d numpy array
    text = repr(out)
    if len(text) > 120:
        text = text[:117] + "..."
    return "bad", f"returned {type(out).__name__} {text}, not a number"


def _exact(x: Any) -> int | float | Fraction:
    """An exact value of a real (inf and NaN stay floats)."""
    try:
        return Fraction(x)
    except (ValueError, OverflowError):  # inf / nan
        return float(x)
    except TypeError:
        return float(x)


def _runner(write_fd: int, acc: Any, method: str, args: tuple[Any, ...]) -> None:
    """The accountant's side of a call (in the runner process)."""
    try:  # the accountant's output must not reach the audit's stdout (JSON) or stderr
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        sys.stdout = sys.stderr = open(os.devnull, "w")
    except OSError:
        pass
    try:
        out = getattr(acc, method)(*args)
        msg: tuple[str, Any] = ("done", None) if method == "prepare" else pack(out)
    except NotImplementedError as e:
        msg = ("unsupported", str(e) or "NotImplementedError")
    except SystemExit as e:
        msg = ("error", f"called sys.exit({e.code!r})")
    except BaseException as e:  # everything else is the accountant's error
        msg = ("error", f"{type(e).__name__}: {e}")
    try:
        data = pickle.dumps(msg)
    except Exception as e:
        data = pickle.dumps(("bad", f"an answer that cannot be sent: {type(e).__name__}"))
    try:
        with os.fdopen(write_fd, "wb") as f:
            f.write(data)
    finally:
        os._exit(0)


def _supervise(write_fd: int, parent: int, acc: Any, method: str,
               args: tuple[Any, ...]) -> None:
    """The supervisor (a process-group leader): fork the runner and wait for it; exit with
    its exit code, or kill the whole group when the audit process dies first."""
    os.setpgid(0, 0)
    runner = os.fork()
    if runner == 0:
        _runner(write_fd, acc, method, args)
    os.close(write_fd)

    def check_parent(signum: int, frame: Any) -> None:
        if os.getppid() != parent:  # the audit died: take everything with us
            os.killpg(0, signal.SIGKILL)

    signal.signal(signal.SIGALRM, check_parent)
    signal.setitimer(signal.ITIMER_REAL, _POLL, _POLL)  # waitpid resumes after each tick
    _, status = os.waitpid(runner, 0)
    code = os.waitstatus_to_exitcode(status)
    os._exit(code if 0 <= code < 256 else 128 + min(-code, 127))


class Deadline(ArithmeticError):
    """Raised inside a :func:`deadline` block that outlives its seconds."""


@contextlib.contextmanager
def deadline(seconds: float, what: str) -> Iterator[None]:
    """Raise :class:`Deadline` in this block after ``seconds`` (SIGALRM; in the main thread
    only — elsewhere the block runs unbounded). Python code is interrupted between
    bytecodes; one long call into C finishes first."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise Deadline(f"{what} exceeded its limit of {seconds:g} s")

    old = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def kill_group(pid: int) -> None:
    """Kill a worker's whole process group (and the worker, if it had not set it yet)."""
    with contextlib.suppress(OSError):
        os.killpg(pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)


def call(acc: Any, method: str, scenario: Any = None, value: float | None = None,
         timeout: float = 60.0, in_process: bool = False) -> tuple[str, Any, float]:
    """Run ``acc.method(scenario, value)`` (``acc.gdp_mu(scenario)``, ``acc.prepare()``) in a
    worker:
    ``(status, payload, seconds)``, status ``ok`` (payload: an exact number), ``done``
    (prepare returned), ``unsupported``, ``error``, ``bad`` or ``timeout``."""
    args: tuple[Any, ...] = () if method == "prepare" else (
        (scenario,) if method == "gdp_mu" else (scenario, value))
    t0 = time.monotonic()
    if in_process:
        try:
            out = getattr(acc, method)(*args)
            status, payload = ("done", None) if method == "prepare" else pack(out)
        except NotImplementedError as e:
            status, payload = "unsupported", str(e) or "NotImplementedError"
        except Exception as e:
            status, payload = "error", f"{type(e).__name__}: {e}"
        return status, payload, time.monotonic() - t0
    read_fd, write_fd = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the worker
        try:
            os.close(read_fd)
            _supervise(write_fd, parent, acc, method, args)
        finally:
            os._exit(70)
    os.close(write_fd)
    with contextlib.suppress(OSError):
        os.setpgid(pid, pid)  # also here: no race with a kill before the child set it
    exit_code: int | None = None
    try:
        data, exit_code = _read_answer(read_fd, pid, t0 + timeout)
    finally:  # an interrupt (Ctrl-C) as well: the worker never outlives the call
        os.close(read_fd)
        if exit_code is None:
            kill_group(pid)
            exit_code = _reap(pid)
        kill_group(pid)  # leftovers of the accountant in the worker's group
    seconds = time.monotonic() - t0
    if data is None:
        return "timeout", f"no answer within the {fmt_number(timeout)} s timeout (worker " \
                          "killed)", seconds
    if not data:
        return "error", f"the worker died without an answer (exit code {exit_code})", seconds
    try:
        status, payload = pickle.loads(data)
    except Exception:
        return "bad", "an unreadable answer", seconds
    return status, payload, seconds


def _read_answer(fd: int, pid: int, deadline: float) -> tuple[bytes | None, int | None]:
    """``(answer bytes, supervisor exit code)``: what the runner wrote once the supervisor
    exited (a leftover child holding the pipe open does not keep us waiting), or
    ``(None, None)`` at the deadline."""
    chunks: list[bytes] = []
    size = 0
    code: int | None = None
    while True:
        ready, _, _ = select.select([fd], [], [], _POLL / 4)
        if ready:
            chunk = os.read(fd, 65536)
            if chunk:
                size += len(chunk)
                if size > MAX_ANSWER_BYTES:
                    return pickle.dumps(("bad", "an answer of more than 1 MiB")), code
                chunks.append(chunk)
                continue
            if code is None:
                code = _reap(pid)
            return b"".join(chunks), code
        if code is not None:  # the supervisor is gone and the pipe is drained
            return b"".join(chunks), code
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            code = os.waitstatus_to_exitcode(status)
            continue  # one more look at the pipe
        if time.monotonic() >= deadline:
            return None, None


def _reap(pid: int, grace: float = 2.0) -> int:
    """Wait for the supervisor (killing its group after ``grace`` seconds): its exit code."""
    end = time.monotonic() + grace
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        if time.monotonic() >= end:
            kill_group(pid)
            _, status = os.waitpid(pid, 0)
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.005)


__all__ = ["Deadline", "call", "deadline", "kill_group", "pack"]
