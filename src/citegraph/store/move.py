"""Moving a scope from one store to another (embedded, server, cluster), built on backup and
restore: the scope is backed up, restored into the target, the copy backed up again and
compared record by record, and only then is the source dropped. A source written to during
the move is kept (its backup no longer matches), so nothing stored is lost either way.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import StoreError

if TYPE_CHECKING:
    from ..workspace import Workspace


@dataclass(frozen=True)
class MoveReport:
    scope: str  # the name in the source
    target_scope: str  # the name in the target
    source: str  # where it was (no passwords)
    target: str  # where it is now
    records: int
    digest: str  # sha256 over the records, in a fixed order: equal on both sides
    source_dropped: bool
    note: str | None = None  # why the source was kept, when it was


def records_digest(path: Path) -> str:
    """The sha256 of a backup's records (nodes and relationships), sorted: two backups of
    the same content have the same digest, whatever order the store listed them in and
    whichever scope name and time their first line says."""
    lines = gzip.decompress(path.read_bytes()).split(b"\n")
    records = sorted(line for line in lines[1:] if line and not line.startswith(b'{"end"'))
    digest = hashlib.sha256()
    for line in records:
        digest.update(json.dumps(json.loads(line), sort_keys=True).encode() + b"\n")
    return digest.hexdigest()


def move_scope(
    source: Workspace, name: str, target: Workspace, target_name: str, keep: bool = False
) -> MoveReport:
    """Copy scope `name` of `source` into `target` as `target_name` (which must hold
    nothing), check the copy, then drop the source unless `keep`."""
    if source.where == target.where and name == target_name:
        raise StoreError("the source and the target are the same scope")
    scope = source.scope(name)
    with tempfile.TemporaryDirectory(prefix="citegraph-move-") as scratch:
        before, copy, after = (Path(scratch) / f for f in ("before.cgb", "copy.cgb", "after.cgb"))
        records = scope.backup(before)
        digest = records_digest(before)
        target.restore(before, target_name)
        target.scope(target_name).backup(copy)
        if records_digest(copy) != digest:
            target.drop_scope(target_name)
            raise StoreError(
                f"the copy of scope {name!r} at {target.where} differs from the original; it "
                "was removed and the original kept"
            )
        note = None
        dropped = False
        if not keep:
            scope.backup(after)
            if records_digest(after) != digest:
                note = "the source changed during the move (a writer?): kept, move it again"
            else:
                source.drop_scope(name)
                dropped = True
    return MoveReport(name, target_name, source.where, target.where, records, digest, dropped, note)
