"""Finding and removing what interrupted writes left."""

from __future__ import annotations

# -- used by store/repair.py
LEASE_IDS = "MATCH (l:IngestLease) RETURN id(l)"

LEASE = (
    "MATCH (l:IngestLease) WHERE id(l) = $id "
    "RETURN l.staging_key, l.owner_host, l.owner_pid, l.owner_start, "
    "l.deadline IS NOT NULL AND l.deadline < timestamp()"
)

# Chunks first, then the staged document, then the lease: nothing refers to a deleted node.
DROP_LEASE = """
MATCH (l:IngestLease) WHERE id(l) = $id
OPTIONAL MATCH (l)-[:STAGES]->(s:StagingDocument)
OPTIONAL MATCH (c:Chunk)-[:PART_OF]->(s)
WITH l, collect(DISTINCT s) AS staged, collect(c) AS chunks
FOREACH (c IN chunks | DELETE c)
FOREACH (x IN staged | DELETE x)
DELETE l
RETURN size(chunks)
"""

UNLEASED_STAGING = """
MATCH (s:StagingDocument) WHERE NOT ()-[:STAGES]->(s)
OPTIONAL MATCH (c:Chunk)-[:PART_OF]->(s)
WITH s, collect(c) AS chunks
FOREACH (c IN chunks | DELETE c)
DELETE s
RETURN count(s), sum(size(chunks))
"""

ORPHAN_CHUNKS = """
MATCH (c:Chunk) WHERE NOT (c)-[:PART_OF]->()
DELETE c
RETURN count(c)
"""

CHUNK_COUNTS = """
MATCH (d:Document)
OPTIONAL MATCH (c:Chunk)-[:PART_OF]->(d)
WITH d, count(c) AS stored
WHERE stored <> d.chunk_count
RETURN d.name, d.chunk_count, stored
"""
