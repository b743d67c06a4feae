"""Forked children of ``bench/mutation.py``: a mutant lives only in a child, which streams its
results back through a pipe under a wall-clock limit (and, for the equivalence comparisons, a
CPU-time limit, so their verdicts do not depend on the machine's load)."""

from __future__ import annotations

import math
import os
import pickle
import resource
import select
import signal
import time
from collections.abc import Callable, Iterable
from typing import Any


def _send(out: Any, message: Any) -> None:
    data = pickle.dumps(message)
    out.write(len(data).to_bytes(8, "big") + data)
    out.flush()


def _stream_child(work: Callable[[], Iterable[Any]], seconds: float) -> tuple[list[Any], str]:
    """The items ``work()`` yields in a forked child, and how the child ended: ``done``,
    ``crash: ...`` (an exception escaped), ``died`` (exited without a word) or ``timed_out``
    (killed by this process at ``seconds``: the items received until then are kept)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.close(read)
        out = os.fdopen(write, "wb")
        try:
            for item in work():
                _send(out, ("item", item))
            _send(out, ("done", None))
        except BaseException as exc:  # the mutant crashed the harness itself
            _send(out, ("crash", repr(exc)))
        out.close()
        os._exit(0)
    os.close(write)
    deadline = time.monotonic() + seconds
    items: list[Any] = []
    end, buffer = "timed_out", b""
    while end == "timed_out":
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([read], [], [], left)[0]:
            os.kill(pid, signal.SIGKILL)
            break
        chunk = os.read(read, 1 << 16)
        if not chunk:
            end = "died"
            break
        buffer += chunk
        while len(buffer) >= 8 and len(buffer) >= 8 + int.from_bytes(buffer[:8], "big"):
            size = int.from_bytes(buffer[:8], "big")
            tag, value = pickle.loads(buffer[8:8 + size])
            buffer = buffer[8 + size:]
            if tag == "item":
                items.append(value)
            else:
                end = "done" if tag == "done" else f"crash: {value}"
    os.close(read)
    os.waitpid(pid, 0)
    return items, end


def _in_child(work: Any, seconds: float) -> Any:
    """``work()`` in a forked child with a hard time limit: ``("ok", result)``, ``("crash",
    why)``, or ``None`` when it timed out."""
    items, end = _stream_child(lambda: [work()], seconds)
    if end == "done":
        return "ok", items[0]
    return None if end == "timed_out" else ("crash", end.removeprefix("crash: "))


def cpu_limit(seconds: float) -> None:
    """Limit this (child) process to ``seconds`` of CPU time (the kernel's SIGXCPU ends it past
    that; the child then dies without a word, which :func:`_in_child` reports as ``("crash",
    "died")``): a comparison's verdict then does not depend on the load, the wall clock given
    to :func:`_in_child` only backs it up."""
    soft = math.ceil(seconds)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 1))
