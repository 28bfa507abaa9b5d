"""Large files without holding them in memory: a private, mapped copy whose pages are let go
as each pass over the text moves on.

A file above `MAP_ABOVE_BYTES` is copied into an unnamed temporary file beside the store and
mapped. The copy is a snapshot: a file truncated or rewritten while it is being ingested cannot
change the bytes that were hashed, or fault the process the way a mapping of the file itself
would. The kernel removes the copy when its last user closes it, also after a crash.
"""

from __future__ import annotations

import contextlib
import hashlib
import mmap
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from ..errors import InvalidDocument

# Smaller files are simply read: a mapping costs a copy and a temporary file.
MAP_ABOVE_BYTES = 16 * 2**20
# Passes over a mapped text give back the pages behind them in steps of this many bytes.
RELEASE_STEP = 8 * 2**20
UTF8_BOM = b"\xef\xbb\xbf"

# The stored text of one document: bytes, or a read-only mapping of a private copy. Both
# support len, indexing, slicing to bytes, find/rfind, `re` and the buffer protocol.
TextBuffer = bytes | mmap.mmap


def read_file(path: Path, *, text: bool, temp_dir: Path | None = None) -> TextBuffer:
    """The file's bytes; for a large text file, a mapped private copy (without a UTF-8 byte
    order mark, which is never stored). Raises `InvalidDocument` when it cannot be read."""
    try:
        with path.open("rb") as source:
            size = os.fstat(source.fileno()).st_size
            if not text or size <= MAP_ABOVE_BYTES:
                return source.read()
            return _mapped_copy(source.fileno(), size, temp_dir)
    except OSError as exc:
        raise InvalidDocument(f"{path}: cannot read: {exc.strerror}") from None


def _mapped_copy(source: int, size: int, temp_dir: Path | None) -> TextBuffer:
    skip = len(UTF8_BOM) if os.pread(source, len(UTF8_BOM), 0) == UTF8_BOM else 0
    directory = temp_dir if temp_dir is not None and temp_dir.is_dir() else None
    with tempfile.TemporaryFile(dir=directory) as copy:
        offset, left = skip, size - skip
        while left > 0:
            sent = os.sendfile(copy.fileno(), source, offset, min(left, 1 << 30))
            if sent == 0:  # the file shrank while it was copied: what was there is the snapshot
                break
            offset, left = offset + sent, left - sent
        copy.flush()
        if offset == skip:
            return b""  # an empty mapping cannot be made; the caller's checks say it is empty
        return mmap.mmap(copy.fileno(), offset - skip, access=mmap.ACCESS_READ)


def release(text: TextBuffer, end: int) -> None:
    """Let go of the mapped pages before byte `end` (they are read again if needed)."""
    if isinstance(text, mmap.mmap) and not text.closed:
        aligned = end - end % mmap.PAGESIZE
        if aligned > 0:
            with contextlib.suppress(OSError, ValueError):
                text.madvise(mmap.MADV_DONTNEED, 0, min(aligned, len(text)))


def slices(text: TextBuffer, step: int = RELEASE_STEP) -> Iterator[tuple[int, memoryview]]:
    """(offset, view) pieces of the text, in order; the pages of each mapped piece are let go
    once the next one is asked for."""
    view = memoryview(text)
    try:
        for start in range(0, len(text), step):
            yield start, view[start : start + step]
            release(text, start + step)
    finally:
        view.release()


def sha256_of(text: TextBuffer) -> str:
    digest = hashlib.sha256()
    for _, piece in slices(text):
        digest.update(piece)
    return digest.hexdigest()
