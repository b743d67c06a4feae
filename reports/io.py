"""Atomic writes: a report is written to a temporary file and renamed over the old one, so a
killed run leaves the previous report intact."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any


def write_atomic(path: str | os.PathLike[str], text: str) -> Path:
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp creates 0600; reports are ordinary files
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    return target


def dump_json(doc: Any) -> str:
    return json.dumps(doc, indent=1, sort_keys=False, ensure_ascii=False) + "\n"


def load_run(path: str | os.PathLike[str]) -> dict[str, Any]:
    from dpverify.theorems.core import InvalidParameter

    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except FileNotFoundError:
        raise InvalidParameter(f"run file not found: {path}") from None
    except json.JSONDecodeError as e:
        raise InvalidParameter(f"run file {path} is not valid JSON: {e.msg}") from None
    if not isinstance(doc, dict) or not str(doc.get("schema", "")).startswith("dpverify-run/"):
        raise InvalidParameter(f"{path} is not a dpverify run document (no 'schema' field)")
    from dpverify.reports.schema import upgrade

    return upgrade(doc)
