"""Writing files that users name: complete or absent, never over something that is not ours.

A file is written to ``NAME.tmpPID`` in the target's folder (created with ``O_EXCL`` and
``O_NOFOLLOW``, so never through a link or into a FIFO), flushed to disk, then renamed over
the target; a failure or Ctrl-C removes the temporary file, and temporary files of killed
processes are removed before the next write. A target that exists must be a regular file of
the kind being written (a table, a picture): devices, FIFOs, folders and other files are
refused with a message that says what the target is. Table files (:mod:`fastttt.tables.dense_store`)
and pictures (``render``, plots) use these functions.

Framed files (dense tables, opening books) share one layout, written by :func:`write_framed`::

    magic bytes (the kind of file), a uint32 header length H (little-endian),
    H bytes of JSON header (sorted keys), the parts (arrays, bytes),
    the CRC-32 of everything before it (uint32, little-endian)

Dense tables and df-pn snapshots read them back with :func:`open_regular`,
:func:`read_frame_header`, :func:`check_frame_size` and :func:`read_frame_parts` (opening
books still read theirs whole).
"""

from __future__ import annotations

import json
import os
import stat
import struct
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from fastttt.errors import FastTTTError

MAX_HEADER_BYTES = 1 << 20  # a framed file's JSON header; real ones are a few hundred bytes
CRC_CHUNK = 64 * 2**20  # bytes a CRC-32 update takes at once (the GIL is released meanwhile)
# magic bytes of the pictures fastttt writes, by suffix
PICTURE_MAGIC = {".svg": (b"<?xml", b"<svg"), ".png": (b"\x89PNG",), ".pdf": (b"%PDF",)}


def describe_kind(mode: int) -> str:
    """What a non-regular file is, for messages: "a directory", "a FIFO", ..."""
    for test, name in (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "not a regular file"


def temp_name(path: Path) -> Path:
    return path.with_name(f"{path.name}.tmp{os.getpid()}")


def create_exclusive(tmp: Path) -> int:
    """A new file ``tmp`` opened for writing (a leftover of this PID is replaced; never follows
    a link or opens a FIFO)."""
    try:
        if not stat.S_ISDIR(os.lstat(tmp).st_mode):
            os.unlink(tmp)
    except FileNotFoundError:
        pass
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    return os.open(tmp, flags | getattr(os, "O_CLOEXEC", 0), 0o644)


def _pid_alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: alive, another user's
        return True
    return True


def clean_stale_temps(path: str | os.PathLike) -> list[Path]:
    """Remove the ``NAME.tmpPID`` regular files next to ``path`` whose process is gone;
    returns them."""
    path = Path(path)
    prefix = f"{path.name}.tmp"
    removed: list[Path] = []
    try:
        entries = list(os.scandir(path.parent))
    except OSError:
        return removed
    for entry in entries:
        pid = entry.name[len(prefix) :]
        if not (entry.name.startswith(prefix) and pid.isdigit() and pid.isascii()):
            continue
        try:
            if entry.is_file(follow_symlinks=False) and not _pid_alive(int(pid)):
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            pass
    return removed


def sync_file(path: Path) -> None:
    """Flush the file ``path``'s bytes to disk (OSError, FileNotFoundError among them, raised)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def sync_folder(folder: Path, *, strict: bool = False) -> None:
    """Flush ``folder``'s entries (a file renamed into it) to disk: best effort, errors ignored,
    after a file's rename; ``strict`` raises the OSError instead (a layer store marks a layer
    complete only once its chunk files' names are on disk)."""
    try:
        fd = os.open(folder if str(folder) else ".", os.O_RDONLY)
    except OSError:
        if strict:
            raise
        return
    try:
        os.fsync(fd)
    except OSError:
        if strict:
            raise
    finally:
        os.close(fd)


def check_target(
    path: str | os.PathLike,
    is_ours: Callable[[Path], bool],
    what: str,
    error: type[FastTTTError],
    *,
    force: bool = False,
    force_hint: str = "",
) -> Path:
    """Refuse a write to ``path`` before any work (``error``, a FastTTTError class): a target
    that exists and is not a regular file, a regular file for which ``is_ours`` is False
    (unless ``force``: ``what`` names the kind, "a fastttt table"; ``force_hint`` says how
    to force it), a missing or read-only folder. A symbolic link is followed: the file it names
    is checked and is the path returned, so a save replaces that file and keeps the link; a
    link to nothing is refused. Removes stale temporary files; returns the path."""
    path = Path(path)
    if path.is_symlink():
        named = Path(os.path.realpath(path))
        if not named.exists():
            raise error(f"{path}: a symbolic link to {named}, which does not exist")
        path = named
    folder = path.parent.absolute()
    if path.name in ("", ".", ".."):
        raise error(f"{path}: not a file name")
    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    except NotADirectoryError:
        raise error(f"{folder}: not a folder, cannot write {path.name} in it") from None
    except OSError as err:
        raise error(f"{path}: cannot check the target ({err.strerror or err})") from None
    if st is not None:
        if not stat.S_ISREG(st.st_mode):
            raise error(
                f"{path}: is {describe_kind(st.st_mode)}; fastttt writes only to regular files"
            )
        if not force and not is_ours(path):
            raise error(f"{path}: exists and is not {what}; refusing to overwrite it{force_hint}")
    if not folder.is_dir():
        state = "no such folder" if not folder.exists() else "not a folder"
        raise error(f"{folder}: {state}, cannot write {path.name} in it")
    clean_stale_temps(path)
    probe = temp_name(path)
    try:
        os.close(create_exclusive(probe))
        os.unlink(probe)
    except OSError as err:
        raise error(
            f"{folder}: folder not writable, cannot write {path.name} in it ({err.strerror or err})"
        ) from None
    return path


def write_atomic(path: Path, write: Callable, error: type[FastTTTError]) -> Path:
    """Create ``path`` through ``write(binary file)``: in a temporary file, flushed, then
    renamed over ``path`` (check it first with :func:`check_target`)."""
    tmp = temp_name(path)
    try:
        try:
            fd = create_exclusive(tmp)
            with os.fdopen(fd, "wb") as f:
                write(f)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except OSError as err:
            raise error(
                f"{path}: could not write it in {path.parent.absolute()} ({err.strerror or err})"
            ) from err
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    sync_folder(path.parent)
    return path


def file_head(path: Path, size: int = 64) -> bytes:
    """The first ``size`` bytes of the regular file ``path`` (b"" when it cannot be read): what
    tells whether a file is of the kind a save may replace (:func:`check_target`'s ``is_ours``)."""
    try:
        with open(path, "rb") as f:
            return f.read(size)
    except OSError:
        return b""


def is_picture(path: Path) -> bool:
    """Whether the regular file ``path`` starts like a picture of its suffix (SVG, PNG, PDF)."""
    magics = PICTURE_MAGIC.get(path.suffix.lower(), ())
    head = file_head(path).lstrip()
    return any(head.startswith(m) for m in magics)


def check_picture_target(
    path: str | os.PathLike, suffixes: tuple[str, ...], error: type[FastTTTError]
) -> Path:
    """:func:`check_target` for a picture: the suffix must be one of ``suffixes``, and an
    existing file is replaced only when it is a picture of that kind."""
    path = Path(path)
    if path.suffix.lower() not in suffixes:
        raise error(
            f"{path}: a picture is written as {' or '.join(suffixes)}, "
            f"not {path.suffix or 'a name without a suffix'}"
        )
    kind = path.suffix.lower().lstrip(".").upper()
    return check_target(path, is_picture, f"a picture ({kind})", error)


def crc32(data: Any, crc: int = 0) -> int:
    """The CRC-32 of ``data`` (bytes, or a C-contiguous array, read as bytes) continuing ``crc``,
    in chunks of :data:`CRC_CHUNK` bytes."""
    view = memoryview(data).cast("B")
    for start in range(0, len(view), CRC_CHUNK):
        crc = zlib.crc32(view[start : start + CRC_CHUNK], crc)
    return crc


def frame_prefix(magic: bytes, header: dict) -> bytes:
    """The start of a framed file: ``magic``, the header's length and the header (JSON, sorted
    keys)."""
    blob = json.dumps(header, sort_keys=True).encode()
    return magic + struct.pack("<I", len(blob)) + blob


def write_framed(
    path: Path, magic: bytes, header: dict, parts: Sequence[Any], error: type[FastTTTError]
) -> Path:
    """Write a framed file (the layout above) atomically (:func:`write_atomic`): the prefix of
    ``magic`` and ``header``, each of ``parts`` (bytes or C-contiguous arrays) as raw bytes, then
    the CRC-32 of all of it. Check ``path`` first with :func:`check_target`."""
    prefix = frame_prefix(magic, header)

    def write(f) -> None:
        f.write(prefix)
        crc = zlib.crc32(prefix)
        for part in parts:
            f.write(memoryview(part).cast("B"))
            crc = crc32(part, crc)
        f.write(struct.pack("<I", crc))

    return write_atomic(path, write, error)


def open_regular(path: Path, what: str, error: type[FastTTTError]) -> tuple[int, os.stat_result]:
    """A read descriptor of ``path`` and its stat; refuses (``error``) anything but a regular
    file, saying it is not ``what`` ("a table file"); O_NONBLOCK: opening a FIFO does not wait
    for a writer."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise error(f"{path}: no such file") from None
    except IsADirectoryError:
        raise error(f"{path}: is a directory, not {what}") from None
    except OSError as err:
        raise error(f"{path}: cannot open ({err.strerror or err})") from None
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise error(f"{path}: is {describe_kind(st.st_mode)}, not {what}")
    return fd, st


def read_frame_header(
    f, path: Path, size: int, magic: bytes, what: str, error: type[FastTTTError]
) -> tuple[dict, bytes]:
    """The JSON header of the framed file ``f`` (``size`` bytes; read from its start) and the
    bytes it was read from, the CRC's start; refuses (``error``) other magic bytes (not
    ``what``) and a damaged or truncated header."""
    head = f.read(len(magic))
    if head != magic:
        raise error(f"{path}: not {what} (bad magic bytes)")
    raw = f.read(4)
    if len(raw) != 4:
        raise error(f"{path}: truncated header")
    (length,) = struct.unpack("<I", raw)
    if length > MAX_HEADER_BYTES or len(magic) + 4 + length > size:
        raise error(f"{path}: damaged header (length {length} does not fit the file)")
    blob = f.read(length)
    if len(blob) != length:
        raise error(f"{path}: truncated header")
    try:
        header = json.loads(blob)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise error(f"{path}: damaged header (not JSON)") from None
    if not isinstance(header, dict):
        raise error(f"{path}: damaged header (not a JSON object)")
    return header, head + raw + blob


def check_frame_size(
    path: Path, size: int, prefix: bytes, parts: Sequence[Any], error: type[FastTTTError]
) -> None:
    """Refuse (``error``) a framed file of ``size`` bytes that is not its header's ``prefix``,
    the ``parts`` (the arrays to be filled) and the CRC-32: before any of it is read."""
    want = len(prefix) + sum(memoryview(part).nbytes for part in parts) + 4
    if size != want:
        why = "truncated?" if size < want else "extra bytes at the end"
        raise error(f"{path}: {size:,} bytes, its header says {want:,} ({why})")


def read_frame_parts(
    f, path: Path, prefix: bytes, parts: Sequence[Any], error: type[FastTTTError]
) -> None:
    """Fill ``parts`` (C-contiguous arrays, in the order written) from ``f``, just after the
    header whose bytes are ``prefix``, and check the CRC-32 that ends the file (its size checked
    first by :func:`check_frame_size`); refuses (``error``) a file that shrank while read and a
    checksum mismatch."""
    crc = zlib.crc32(prefix)
    for part in parts:
        view = memoryview(part).cast("B")
        if f.readinto(view) != len(view):
            raise error(f"{path}: shorter than its header says (truncated?)")
        crc = crc32(part, crc)
    trailer = f.read(4)
    if len(trailer) != 4:
        raise error(f"{path}: shorter than its header says (truncated?)")
    if crc != struct.unpack("<I", trailer)[0]:
        raise error(f"{path}: checksum mismatch (header or contents), the file is damaged")
