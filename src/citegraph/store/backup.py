"""A portable backup of one scope: gzip'd JSON lines, checksummed, restored all or nothing.

Line 1 says what it is (`citegraph-backup/1`, the scope, when, which citegraph); then one line
per node (documents with their properties, chunks with their stored text and spans, entities,
the extraction cache) and per relationship (by the ids or keys of its ends, with every property:
quotes, spans, polarity, modality, audit verdicts); the last line counts the records and holds
the sha256 of every line before it. Embeddings are not kept (they are derived: embed again).

Restore reads and checks the whole file before it writes anything: a truncated, edited or
foreign file is refused with what is wrong. It writes only into a scope that holds nothing, and
a restore that fails part way deletes what it wrote, so the scope ends whole or empty. (It
writes into the scope itself: `GRAPH.COPY` from a graph of its own would be atomic to readers,
but FalkorDB 4.16 hangs on it while an append-only-file rewrite runs, "Can't fork for module",
which the embedded store starts on its own as it grows.) A reader that opens the scope during a
restore can see part of it.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import InvalidRequest, UsageError
from .graph import GraphHandle, GraphStore
from .queries.backup import COUNT_ALL, DUMP_EDGES, DUMP_NODES, RESTORE_EDGES, RESTORE_NODES
from .schema import ensure_indexes, wait_for_indexes

FORMAT = "citegraph-backup/1"
_PAGE = 2000
_BATCH = 500
_HIDDEN = ("embedding",)


class BackupDamaged(UsageError):
    """The backup file is not whole: truncated, edited, or not a citegraph backup."""


@dataclass
class Backup:
    scope: str
    created_at: str
    nodes: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    edges: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    @property
    def records(self) -> int:
        return sum(map(len, self.nodes.values())) + sum(map(len, self.edges.values()))


def write_backup(graph: GraphHandle, scope: str, path: Path, version: str) -> int:
    """Write `graph` (scope `scope`) to `path`; the number of records written."""
    digest = hashlib.sha256()
    count = 0
    with gzip.open(path, "wb") as out:

        def line(record: dict[str, Any]) -> None:
            data = (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
            digest.update(data)
            out.write(data)

        created = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        line({"format": FORMAT, "scope": scope, "created_at": created, "citegraph": version})
        for label, props in _nodes(graph):
            line({"node": label, "p": props})
            count += 1
        for kind, a, b, props in _edges(graph):
            line({"edge": kind, "a": a, "b": b, "p": props})
            count += 1
        end = {"end": count, "sha256": digest.hexdigest()}
        out.write((json.dumps(end) + "\n").encode())
    return count


def _nodes(graph: GraphHandle) -> Iterator[tuple[str, dict[str, Any]]]:
    after = -1
    while True:
        rows = graph.ro_query(DUMP_NODES, {"after": after, "page": _PAGE})
        for node_id, label, props in rows:
            yield str(label), {k: v for k, v in dict(props).items() if k not in _HIDDEN}
            after = int(node_id)
        if len(rows) < _PAGE:
            return


def _edges(graph: GraphHandle) -> Iterator[tuple[str, str, str, dict[str, Any]]]:
    after = -1
    while True:
        rows = graph.ro_query(DUMP_EDGES, {"after": after, "page": _PAGE})
        for edge_id, kind, a, b, props in rows:
            yield str(kind), str(a), str(b), dict(props)
            after = int(edge_id)
        if len(rows) < _PAGE:
            return


def read_backup(path: Path) -> Backup:
    """The whole backup, checked; `BackupDamaged` naming what is wrong otherwise."""
    try:
        raw = gzip.decompress(path.read_bytes())
    except FileNotFoundError:
        raise InvalidRequest(f"{path}: no such file") from None
    except (OSError, EOFError, zlib.error) as exc:
        raise BackupDamaged(
            f"{path}: not a whole gzip file ({exc}): truncated or not a backup"
        ) from None
    lines = raw.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    if not lines:
        raise BackupDamaged(f"{path}: empty")
    digest = hashlib.sha256()
    header = _record(lines[0], 1, path)
    if header.get("format") != FORMAT:
        raise BackupDamaged(f"{path}: not a {FORMAT} file (line 1 says {header.get('format')!r})")
    digest.update(lines[0] + b"\n")
    backup = Backup(str(header.get("scope", "")), str(header.get("created_at", "")))
    end: dict[str, Any] | None = None
    for number, data in enumerate(lines[1:], start=2):
        record = _record(data, number, path)
        if "end" in record:
            if number != len(lines):
                raise BackupDamaged(f"{path}: line {number}: records after the end record")
            end = record
            break
        digest.update(data + b"\n")
        _add(backup, record, number, path)
    if end is None:
        raise BackupDamaged(f"{path}: no end record: the file was cut short")
    if end.get("sha256") != digest.hexdigest():
        raise BackupDamaged(f"{path}: checksum mismatch: the file was changed after it was written")
    if end.get("end") != backup.records:
        raise BackupDamaged(
            f"{path}: {backup.records} records, the end record says {end.get('end')}"
        )
    return backup


def _record(data: bytes, number: int, path: Path) -> dict[str, Any]:
    try:
        record = json.loads(data)
    except ValueError:
        raise BackupDamaged(f"{path}: line {number}: not JSON") from None
    if not isinstance(record, dict):
        raise BackupDamaged(f"{path}: line {number}: not a record")
    return record


def _add(backup: Backup, record: dict[str, Any], number: int, path: Path) -> None:
    props = record.get("p")
    if not isinstance(props, dict):
        raise BackupDamaged(f"{path}: line {number}: a record without properties")
    if record.get("node") in RESTORE_NODES:
        backup.nodes.setdefault(record["node"], []).append(props)
    elif record.get("edge") in RESTORE_EDGES and isinstance(record.get("a"), str):
        row = {"a": record["a"], "b": record.get("b"), "p": props}
        backup.edges.setdefault(record["edge"], []).append(row)
    else:
        raise BackupDamaged(f"{path}: line {number}: a record of no known kind")


def restore(store: GraphStore, backup: Backup, target: str, index_timeout_s: float) -> int:
    """Write `backup` into the graph `target`, which must hold nothing; the records written.
    A restore that fails part way deletes what it wrote: the scope is left as it was."""
    graph = store.graph(target)
    if _exists(store, target) and int(graph.ro_query(COUNT_ALL)[0][0]) > 0:
        raise InvalidRequest(
            f"the scope behind {target!r} already holds data: restore into a new scope"
        )
    try:
        ensure_indexes(graph)
        wait_for_indexes(graph, index_timeout_s)
        for label, rows in backup.nodes.items():
            for start in range(0, len(rows), _BATCH):
                graph.query(RESTORE_NODES[label], {"rows": rows[start : start + _BATCH]})
        for kind, rows in backup.edges.items():
            for start in range(0, len(rows), _BATCH):
                batch = rows[start : start + _BATCH]
                made = graph.query(RESTORE_EDGES[kind], {"rows": batch})
                missing = len(batch) - int(made[0][0])
                if missing:
                    raise BackupDamaged(
                        f"{kind}: {missing} relationship(s) name an end the backup does not hold"
                    )
    except BaseException:
        graph.delete()  # it held nothing before: all or nothing
        raise
    return backup.records


def _exists(store: GraphStore, name: str) -> bool:
    return name in store.list_graphs()
