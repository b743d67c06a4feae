"""Run a call in a child process with a hard time limit, so that the process asking for it — a
thread of the local pool, a thread of a Dask worker — stays usable when the call overruns.

Each thread that asks owns one *sandbox*: a long-lived child Python process, started with
``subprocess`` (never ``fork``, and allowed inside a daemonic Dask worker, where
``multiprocessing`` may not start children), that has imported the called module once. A call
is pickled by reference to the child, run there, and its pickled result read back. A call still
running at its limit is killed with the child's whole process group; the next call starts a
fresh child. The child dies with its parent (``PR_SET_PDEATHSIG`` on Linux; elsewhere it exits
at end of input), so a lost worker leaves no orphan behind.

Main results
------------
- :func:`guarded`: ``fn(*args)`` in this thread's sandbox, at most ``limit`` seconds, as a
  :class:`Limited` outcome (``ok``, ``raised``, ``timeout``, ``crashed``); it never raises.
- :func:`inline`: the same outcome for a call made in-process, without a limit (debugging).
- :func:`close_idle`: stop the sandboxes of threads that have ended.
"""

from __future__ import annotations

import json
import os
import pickle
import select
import signal
import struct
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

_HEADER = struct.Struct("!Q")
_PATH_ENV = "DPVERIFY_SANDBOX_PATH"
_PARENT_ENV = "DPVERIFY_SANDBOX_PARENT"
_READY = b"R"
STARTUP_SECONDS = 300.0  # importing the registry on a loaded machine; not charged to a call
CLOSE_SECONDS = 5.0


@dataclass(frozen=True)
class Limited:
    """The outcome of a limited call: ``ok`` (``value`` is the result), ``raised`` (the call
    raised; ``reason`` and ``traceback``), ``timeout`` (killed at the limit), ``crashed`` (the
    process running it died; ``reason``), ``lost`` (the executor lost it; set by callers)."""

    kind: str
    value: Any = None
    reason: str = ""
    traceback: str = ""
    seconds: float = 0.0


def inline(fn: Callable[..., Any], args: Sequence[Any]) -> Limited:
    """``fn(*args)`` in this process, without a time limit."""
    started = time.monotonic()
    try:
        value = fn(*args)
    except Exception as exc:
        return Limited("raised", reason=f"{type(exc).__name__}: {exc}",
                       traceback=traceback.format_exc(limit=8),
                       seconds=time.monotonic() - started)
    return Limited("ok", value, seconds=time.monotonic() - started)


def guarded(fn: Callable[..., Any], args: Sequence[Any], limit: float) -> Limited:
    """``fn(*args)`` in this thread's sandbox process, killed after ``limit`` seconds.

    ``fn`` and ``args`` must pickle (``fn`` by reference: a module-level function). The time to
    start a sandbox is not charged to the call."""
    box = getattr(_local, "sandbox", None)
    if box is None or not box.alive():
        try:
            box = _Sandbox(_module_of(fn))
        except (OSError, TimeoutError, EOFError) as exc:
            return Limited("crashed", reason=f"the sandbox process did not start: {exc}")
        _local.sandbox = box
    return box.call(fn, args, limit)


def close_idle() -> None:
    """Stop the sandboxes whose owning thread has ended (e.g. after a pool shut down)."""
    with _lock:
        ended = [b for b in _boxes if not b.owner.is_alive()]
        for b in ended:
            _boxes.remove(b)
    for b in ended:
        b.close()


_local = threading.local()
_lock = threading.Lock()
_boxes: list[_Sandbox] = []


def _module_of(fn: Callable[..., Any]) -> str:
    return getattr(fn, "__module__", None) or "builtins"


def _exit_text(code: int | None) -> str:
    if code is None:
        return "still running"
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


class _Sandbox:
    def __init__(self, preload: str) -> None:
        env = dict(os.environ)
        env[_PATH_ENV] = json.dumps([p for p in sys.path if isinstance(p, str)])
        env[_PARENT_ENV] = str(os.getpid())
        self.owner = threading.current_thread()
        # a new session: a terminal's Ctrl-C goes to the parent, which decides; a kill at the
        # limit takes the whole group (anything the call started)
        self.proc = subprocess.Popen([sys.executable, "-m", __name__, preload],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env,
                                     start_new_session=True)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.out = self.proc.stdout.fileno()
        try:
            ready = _read_exact(self.out, 1, time.monotonic() + STARTUP_SECONDS)
        except TimeoutError:
            self.kill()
            raise
        if ready != _READY:
            code = self.kill()
            raise EOFError(f"it exited during startup ({_exit_text(code)})")
        with _lock:
            _boxes.append(self)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def call(self, fn: Callable[..., Any], args: Sequence[Any], limit: float) -> Limited:
        try:
            request = pickle.dumps((fn, tuple(args)), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as exc:
            return Limited("raised", reason=f"cannot send the call to a sandbox: "
                                            f"{type(exc).__name__}: {exc}")
        started = time.monotonic()
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(_HEADER.pack(len(request)) + request)
            self.proc.stdin.flush()
            header = _read_exact(self.out, _HEADER.size, started + limit)
            body = _read_exact(self.out, _HEADER.unpack(header)[0], started + limit) \
                if len(header) == _HEADER.size else b""
        except TimeoutError:
            self.kill()
            return Limited("timeout", seconds=time.monotonic() - started)
        except OSError:  # a broken pipe: the child is gone
            body = b""
        if not body:
            code = self.kill()
            return Limited("crashed", reason=f"the sandbox process died ({_exit_text(code)})",
                           seconds=time.monotonic() - started)
        kind, value, reason, trace = pickle.loads(body)
        return Limited(kind, value, reason, trace, time.monotonic() - started)

    def kill(self) -> int | None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                self.proc.kill()
        self._reap()
        return self.proc.returncode

    def close(self) -> None:
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.close()  # end of input: the child exits
            self.proc.wait(CLOSE_SECONDS)
        except (OSError, subprocess.TimeoutExpired):
            self.kill()
        self._reap()

    def _reap(self) -> None:
        try:
            self.proc.wait(CLOSE_SECONDS)
        except subprocess.TimeoutExpired:
            pass
        for f in (self.proc.stdin, self.proc.stdout):
            if f is not None:
                try:
                    f.close()
                except OSError:
                    pass
        with _lock:
            if self in _boxes:
                _boxes.remove(self)


def _read_exact(fd: int, n: int, deadline: float) -> bytes:
    """``n`` bytes from ``fd``, fewer at end of file; ``TimeoutError`` at the deadline."""
    chunks: list[bytes] = []
    got = 0
    while got < n:
        left = None if deadline == float("inf") else deadline - time.monotonic()
        if left is not None and left <= 0:
            raise TimeoutError
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            raise TimeoutError
        chunk = os.read(fd, min(n - got, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


# ------------------------------------------------------------------------------------------
# the child


def _die_with_parent() -> None:
    if sys.platform.startswith("linux"):
        import ctypes

        pr_set_pdeathsig = 1
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL)
    parent = os.environ.get(_PARENT_ENV)
    if parent and os.getppid() != int(parent):  # the parent died before prctl took effect
        os._exit(1)


def _serve(preload: str) -> None:
    _die_with_parent()
    proto = os.dup(1)
    os.dup2(2, 1)  # stray prints of a call go to stderr, never into the protocol
    paths = json.loads(os.environ.get(_PATH_ENV, "null"))
    if paths:
        sys.path[:] = paths
    import importlib

    module = importlib.import_module(preload)
    warm = getattr(module, "sandbox_warm", None)
    if callable(warm):
        warm()
    os.write(proto, _READY)
    while True:
        header = _read_exact(0, _HEADER.size, float("inf"))
        if len(header) < _HEADER.size:
            return  # end of input: the parent closed us or died
        fn, args = pickle.loads(_read_exact(0, _HEADER.unpack(header)[0], float("inf")))
        out = inline(fn, args)
        try:
            body = pickle.dumps((out.kind, out.value, out.reason, out.traceback))
        except Exception as exc:
            body = pickle.dumps(("raised", None, f"the result does not pickle: "
                                                 f"{type(exc).__name__}: {exc}", ""))
        data = _HEADER.pack(len(body)) + body
        while data:
            data = data[os.write(proto, data):]


if __name__ == "__main__":
    _serve(sys.argv[1])
