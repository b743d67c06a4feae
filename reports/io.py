"""Reading run files and writing reports, safely.

- :func:`write_atomic`: one file written to a temporary sibling and renamed over the old one,
  so a killed run leaves the previous file intact. Only a regular file (or nothing) is ever
  replaced: a symlink, a directory, a device or a fifo is refused with exit 2.
- :func:`publish_set`: a report set (``latest.json``, ``latest.md``, ``latest.html``) written to
  a temporary sibling folder and swapped in with the report folder in one atomic rename
  (``renameat2(RENAME_EXCHANGE)`` on Linux; elsewhere two renames, never a mixed set), so a
  kill leaves either the old set or the new one. The report folder holds only a report set.
- :func:`load_run`: a run document from a file, refused with exit 2 naming the file and the
  reason when it is missing, a directory or device, larger than :data:`MAX_RUN_BYTES`, not
  UTF-8, not JSON (nested too deep, numbers past Python's limits, NaN), or not
  ``dpverify-run/1``.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import json
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from dpverify.theorems.errors import InvalidParameter

MAX_RUN_BYTES = 256 * 1024 * 1024  # a whole-catalogue run is ~0.5 MB
REPORT_SET = ("latest.json", "latest.md", "latest.html")
_TMP_PREFIX = ".dpverify-tmp-"


# ------------------------------------------------------------------------------------------
# checks done before any work


def check_output_file(path: str | os.PathLike[str], what: str = "--output") -> Path:
    """Refuse up front an output that is not a regular file, or whose folder cannot hold it."""
    target = Path(path)
    if str(path) == "":
        raise InvalidParameter(f"{what} must be a file name; got ''")
    try:
        st = target.lstat()
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise InvalidParameter(f"{what} {path}: {e.strerror}") from None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise InvalidParameter(f"{what} {path} is {_kind(st.st_mode)}: dpverify only replaces "
                               "regular files")
    _check_folder(target.parent, what, path)
    return target


def check_report_folder(path: str | os.PathLike[str], what: str = "--out") -> Path:
    """Refuse up front a report folder that is not a folder dpverify may replace whole."""
    folder = Path(path)
    if str(path) == "":
        raise InvalidParameter(f"{what} must be a folder name; got ''")
    try:
        st = folder.lstat()
    except FileNotFoundError:
        _check_folder(folder.parent, what, path)
        return folder
    except OSError as e:
        raise InvalidParameter(f"{what} {path}: {e.strerror}") from None
    if not stat.S_ISDIR(st.st_mode):
        raise InvalidParameter(f"{what} {path} is {_kind(st.st_mode)}, not a folder")
    others = sorted(n for n in os.listdir(folder) if n not in REPORT_SET
                    and not _is_leftover(n))
    if others:
        shown = ", ".join(others[:3]) + (", ..." if len(others) > 3 else "")
        raise InvalidParameter(
            f"{what} {path} holds other files than a report set ({shown}): the report folder "
            "is replaced whole; choose an empty folder or one with only latest.json/.md/.html")
    _check_folder(folder.parent, what, path)
    return folder


def _is_leftover(name: str) -> bool:
    """A temporary file of an earlier, killed write (it goes with the old set)."""
    return name.startswith((_TMP_PREFIX, ".latest.")) and name.endswith(".tmp")


def _check_folder(folder: Path, what: str, path: Any) -> None:
    existing = folder if str(folder) else Path(".")
    while not existing.exists():
        if existing.is_symlink():
            raise InvalidParameter(f"{what} {path}: {existing} is a broken symlink")
        existing = existing.parent
    if not existing.is_dir():
        raise InvalidParameter(f"{what} {path}: {existing} is not a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise InvalidParameter(f"{what} {path}: the folder {existing} is not writable")


def _kind(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "a symlink"
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a fifo"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


# ------------------------------------------------------------------------------------------
# writing


def _umask_mode(base: int) -> int:
    umask = os.umask(0)
    os.umask(umask)
    return base & ~umask


def _write_file(path: Path, text: str) -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())


def write_atomic(path: str | os.PathLike[str], text: str) -> Path:
    target = check_output_file(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f"{_TMP_PREFIX}{target.name}.", suffix=".tmp",
                                   dir=target.parent)
    except OSError as e:
        raise InvalidParameter(f"cannot write {path}: {e.strerror}") from None
    try:
        os.close(fd)
        _write_file(Path(tmp), text)
        os.chmod(tmp, _umask_mode(0o666))  # mkstemp creates 0600; reports are ordinary files
        check_output_file(target)  # still a regular file (or nothing) just before the rename
        os.replace(tmp, target)
    except BaseException as e:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        if isinstance(e, OSError) and not isinstance(e, InvalidParameter):
            raise InvalidParameter(f"cannot write {path}: {e.strerror or e}") from None
        raise
    return target


_RENAME_EXCHANGE = 2


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths atomically (Linux renameat2); False where unsupported."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd = -100
    rc = renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), _RENAME_EXCHANGE)
    if rc == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.EXDEV):
        return False
    raise OSError(err, os.strerror(err), str(b))


def _remove_stale(parent: Path) -> None:
    """Temporary folders left by a killed process (its pid is in the name)."""
    for p in parent.glob(f"{_TMP_PREFIX}*"):
        try:
            pid = int(p.name[len(_TMP_PREFIX):].split("-")[0])
            os.kill(pid, 0)
        except ProcessLookupError:
            shutil.rmtree(p, ignore_errors=True)
        except (ValueError, PermissionError, OSError):
            continue


@contextlib.contextmanager
def _temporary_folder(parent: Path) -> Iterator[Path]:
    tmp = Path(tempfile.mkdtemp(prefix=f"{_TMP_PREFIX}{os.getpid()}-", dir=parent))
    try:
        yield tmp
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def publish_set(folder: str | os.PathLike[str], texts: Mapping[str, str]) -> Path:
    """Write ``texts`` (file name -> text) as the whole content of ``folder``, atomically."""
    out = check_report_folder(folder)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        _remove_stale(out.parent)
        with _temporary_folder(out.parent) as tmp:
            for name, text in texts.items():
                _write_file(tmp / name, text)
                os.chmod(tmp / name, _umask_mode(0o666))
            os.chmod(tmp, _umask_mode(0o777))
            check_report_folder(out)  # nothing replaced it meanwhile
            if not out.exists():
                os.rename(tmp, out)
                tmp.mkdir()  # the context manager removes an (empty) folder again
            elif not _exchange(tmp, out):
                old = Path(tempfile.mkdtemp(prefix=f"{_TMP_PREFIX}{os.getpid()}-old-",
                                            dir=out.parent))
                os.rename(out, old / "set")
                os.rename(tmp, out)
                tmp.mkdir()
                shutil.rmtree(old, ignore_errors=True)
    except OSError as e:
        raise InvalidParameter(f"cannot write the reports to {folder}: {e.strerror or e}"
                               ) from None
    return out


def dump_json(doc: Any) -> str:
    return json.dumps(doc, indent=1, sort_keys=False, ensure_ascii=False) + "\n"


# ------------------------------------------------------------------------------------------
# reading


def read_text_capped(path: str | os.PathLike[str], what: str,
                     max_bytes: int = MAX_RUN_BYTES) -> str:
    """The UTF-8 text of a regular file of at most ``max_bytes``, else exit 2 naming it."""
    p = Path(path)
    try:
        st = p.stat()
    except FileNotFoundError:
        raise InvalidParameter(f"{what} not found: {path}") from None
    except OSError as e:
        raise InvalidParameter(f"{what} {path}: {e.strerror}") from None
    if not stat.S_ISREG(st.st_mode):
        raise InvalidParameter(f"{what} {path} is {_kind(st.st_mode)}, not a file")
    try:
        with open(p, "rb") as f:
            data = f.read(max_bytes + 1)
    except OSError as e:
        raise InvalidParameter(f"{what} {path}: {e.strerror}") from None
    if len(data) > max_bytes:
        raise InvalidParameter(f"{what} {path} is larger than the limit of "
                               f"{max_bytes // (1024 * 1024)} MiB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InvalidParameter(f"{what} {path} is not UTF-8 text (byte {e.start})") from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def parse_json(text: str, path: Any, what: str) -> Any:
    """JSON text, refused with one line naming the file: syntax, depth, huge numbers, NaN."""
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as e:
        raise InvalidParameter(f"{what} {path} is not valid JSON: {e.msg} (line {e.lineno})"
                               ) from None
    except RecursionError:
        raise InvalidParameter(f"{what} {path} is not a run document: JSON nested too deep"
                               ) from None
    except ValueError as e:  # a number past Python's int-string limit, NaN, Infinity
        reason = str(e).split(";")[0]
        raise InvalidParameter(f"{what} {path} is not valid JSON: {reason}") from None


def load_run(path: str | os.PathLike[str], what: str = "run file") -> dict[str, Any]:
    """A run document (schema-checked), else exit 2 naming the file; a ``dpverify-run/1``
    document is read as version 2 (:func:`dpverify.reports.schema.upgrade`)."""
    from dpverify.reports.schema import SCHEMA_ID, SCHEMA_V1, upgrade, validate

    doc = parse_json(read_text_capped(path, what), path, what)
    if not isinstance(doc, dict) or "schema" not in doc:
        raise InvalidParameter(f"{what} {path} is not a dpverify run document (no 'schema' "
                               "field)")
    if doc["schema"] not in (SCHEMA_ID, SCHEMA_V1):
        raise InvalidParameter(f"{what} {path} has schema {str(doc['schema'])[:40]!r}; this "
                               f"dpverify reads {SCHEMA_ID} and {SCHEMA_V1}")
    try:
        doc = upgrade(doc)
    except (TypeError, KeyError, AttributeError, ValueError):
        problems = validate(doc) or ["its structure is not that of a run document"]
        raise InvalidParameter(f"{what} {path} is not a valid {SCHEMA_V1} run document: "
                               f"{problems[0]}") from None
    problems = validate(doc)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise InvalidParameter(f"{what} {path} is not a valid {SCHEMA_ID} run document: "
                               f"{problems[0]}{more}")
    return doc
