"""Documents, their chunks, and staged versions."""

from __future__ import annotations

# -- used by store/documents.py
DOC_FIELDS = (
    "d.id, d.name, d.media_type, d.sha256, d.size_bytes, d.chunk_count, d.ingested_at, "
    "d.origin_kind, d.origin_source, d.origin_method, d.page_starts, d.title, d.extracted, "
    "d.embedded_with, d.extracted_with"
)

CHUNK_FIELDS = (
    "c.id, c.document_id, c.ordinal, c.start_byte, c.end_byte, c.text, c.page, c.end_page, "
    "c.furniture"
)

FIND_BY_NAMES = f"UNWIND $names AS name MATCH (d:Document {{name: name}}) RETURN {DOC_FIELDS}"

FIND_BY_ID = f"MATCH (d:Document {{id: $id}}) RETURN {DOC_FIELDS}"

LIST_DOCUMENTS = f"MATCH (d:Document) RETURN {DOC_FIELDS} ORDER BY d.name"

LIST_CHUNKS = (
    f"MATCH (c:Chunk {{document_id: $id}})-[:PART_OF]->(d:Document {{id: $id}}) "
    f"RETURN {CHUNK_FIELDS} ORDER BY c.ordinal SKIP $skip LIMIT $limit"
)

# Every document of some media types ($types), with its chunks when its text holds any of
# $marks (settings_links.py reads those): one read, so the documents and the chunks are of
# one moment; the text is searched in the store.
CONFIGURATION = (
    "MATCH (d:Document) WHERE d.media_type IN $types "
    "OPTIONAL MATCH (c:Chunk {document_id: d.id})-[:PART_OF]->(d) "
    "WITH d, collect(c) AS chunks "
    "WITH d, chunks, any(c IN chunks WHERE any(m IN $marks WHERE c.text CONTAINS m)) AS marked "
    f"RETURN {DOC_FIELDS}, CASE WHEN marked THEN [c IN chunks | [{CHUNK_FIELDS}]] ELSE [] END"
)

# Whether any of the documents $ids holds any of $marks in its text.
HOLDS_MARKS = (
    "UNWIND $ids AS id MATCH (c:Chunk {document_id: id}) "
    "WHERE any(m IN $marks WHERE c.text CONTAINS m) RETURN c.id LIMIT 1"
)

# Who is writing a staged version lives on a lease node of its own, so that committing never
# has to remove properties from the document node.
CREATE_STAGING = """
UNWIND $docs AS d
CREATE (:IngestLease {
  staging_key: d.key, owner_host: $owner_host, owner_pid: $owner_pid, owner_start: $owner_start,
  deadline: timestamp() + $ttl_ms
})-[:STAGES]->(:StagingDocument {
  id: d.id, name: d.name, media_type: d.media_type, sha256: d.sha256,
  size_bytes: d.size_bytes, chunk_count: 0, ingested_at: d.ingested_at,
  origin_kind: d.origin_kind, origin_source: d.origin_source, origin_method: d.origin_method,
  page_starts: d.page_starts, title: d.title, extracted: false
})
"""

# Chunk rows are lists (their encoding is then one JSON call): [id, ordinal, start byte,
# end byte, text, page, end page, furniture], each after its staging key here.
ADD_CHUNKS = """
UNWIND $rows AS k
WITH k[0] AS key, k[1] AS r
MATCH (:IngestLease {staging_key: key})-[:STAGES]->(s:StagingDocument)
CREATE (c:Chunk {
  id: r[0], document_id: s.id, ordinal: r[1], start_byte: r[2], end_byte: r[3], text: r[4],
  page: r[5], end_page: r[6], furniture: r[7]
})-[:PART_OF]->(s)
"""

# One query, so one atomic step: the old versions go and the new ones appear together. The
# documents of one call have distinct names, so no row can match another row's new version.
COMMIT = """
UNWIND $items AS item
MATCH (lease:IngestLease {staging_key: item.key})-[:STAGES]->(s:StagingDocument)
DELETE lease
SET s.chunk_count = item.chunk_count
WITH s, item
OPTIONAL MATCH (old:Document {name: s.name})
OPTIONAL MATCH (oc:Chunk)-[:PART_OF]->(old)
WITH s, item, collect(DISTINCT old) AS olds, collect(oc) AS old_chunks
OPTIONAL MATCH ()-[rel:RELATES {document_id: s.id}]->()
WITH s, item, olds, old_chunks, collect(rel) AS old_relations
OPTIONAL MATCH ()-[bound:RELATES {binding_document_id: s.id}]->()
WITH s, item, olds, old_chunks, old_relations, collect(bound) AS old_bound
FOREACH (r IN old_relations | DELETE r)
FOREACH (r IN old_bound | DELETE r)
FOREACH (c IN old_chunks | DELETE c)
FOREACH (o IN olds | DELETE o)
SET s:Document
REMOVE s:StagingDocument
RETURN item.key, size(olds)
"""

# Documents small enough to go in one query skip staging: one query is already atomic.
# A document row is a list: [id, name, media type, sha256, size in bytes, ingested at,
# origin kind, origin source, origin method, page starts, title, chunk rows (as ADD_CHUNKS)].
WRITE_WHOLE = """
UNWIND $docs AS d
OPTIONAL MATCH (old:Document {name: d[1]})
OPTIONAL MATCH (oc:Chunk)-[:PART_OF]->(old)
WITH d, collect(DISTINCT old) AS olds, collect(oc) AS old_chunks
OPTIONAL MATCH ()-[rel:RELATES {document_id: d[0]}]->()
WITH d, olds, old_chunks, collect(rel) AS old_relations
OPTIONAL MATCH ()-[bound:RELATES {binding_document_id: d[0]}]->()
WITH d, olds, old_chunks, old_relations, collect(bound) AS old_bound
FOREACH (r IN old_relations | DELETE r)
FOREACH (r IN old_bound | DELETE r)
FOREACH (c IN old_chunks | DELETE c)
FOREACH (o IN olds | DELETE o)
CREATE (doc:Document {
  id: d[0], name: d[1], media_type: d[2], sha256: d[3], size_bytes: d[4],
  chunk_count: size(d[11]), ingested_at: d[5], origin_kind: d[6], origin_source: d[7],
  origin_method: d[8], page_starts: d[9], title: d[10], extracted: false
})
WITH d, doc, size(olds) AS replaced
UNWIND d[11] AS r
CREATE (c:Chunk {
  id: r[0], document_id: doc.id, ordinal: r[1], start_byte: r[2], end_byte: r[3], text: r[4],
  page: r[5], end_page: r[6], furniture: r[7]
})-[:PART_OF]->(doc)
RETURN d[1], replaced, count(c)
"""

# Mentions go with their chunks; relations found in the document go with it, and so do those
# quoted from another file whose source is bound in it (a workload taking a ConfigMap).
DELETE_DOCUMENT = """
MATCH (d:Document {id: $id})
OPTIONAL MATCH (c:Chunk)-[:PART_OF]->(d)
WITH d, collect(c) AS chunks
OPTIONAL MATCH ()-[rel:RELATES {document_id: d.id}]->()
WITH d, chunks, collect(rel) AS relations
OPTIONAL MATCH ()-[bound:RELATES {binding_document_id: d.id}]->()
WITH d, chunks, relations, collect(bound) AS bound
FOREACH (r IN relations | DELETE r)
FOREACH (r IN bound | DELETE r)
FOREACH (c IN chunks | DELETE c)
DELETE d
RETURN size(chunks)
"""

MARK_EXTRACTED = (
    "UNWIND $ids AS id MATCH (d:Document {id: id}) SET d.extracted = true, d.extracted_with = $by"
)
# How far extraction has come: documents stored, those not extracted yet, and those of them a
# live extraction claim holds (being extracted now; CLAIM_EXTRACTION below).
EXTRACTION_COVERAGE = """
MATCH (d:Document)
WITH count(d) AS documents
OPTIONAL MATCH (p:Document) WHERE NOT coalesce(p.extracted, false)
WITH documents, count(p) AS pending
OPTIONAL MATCH (l:IngestLease)
WHERE l.extracting IS NOT NULL AND l.deadline >= timestamp()
WITH documents, pending, collect(l.extracting) AS held
UNWIND reduce(busy = [null], ids IN held | busy + ids) AS id
OPTIONAL MATCH (b:Document {id: id}) WHERE NOT coalesce(b.extracted, false)
RETURN documents, pending, count(DISTINCT b)
"""
# Before a document is extracted again (by another extractor, or after a run cut short).
UNMARK_EXTRACTED = (
    "UNWIND $ids AS id MATCH (d:Document {id: id}) SET d.extracted = false, d.extracted_with = null"
)

MARK_EMBEDDED = "UNWIND $ids AS id MATCH (d:Document {id: id}) SET d.embedded_with = $model"

# A writer pushes its leases' deadlines on while it runs (store/leases.py).
RENEW_LEASES = """
UNWIND $keys AS key
MATCH (l:IngestLease {staging_key: key})
SET l.deadline = timestamp() + $ttl_ms
RETURN count(l)
"""

# Whether a lease has passed its deadline is judged on the store's clock, not the reader's.
LIST_STAGING = (
    "MATCH (l:IngestLease) RETURN l.staging_key, l.owner_host, l.owner_pid, l.owner_start, "
    "l.deadline IS NOT NULL AND l.deadline < timestamp()"
)

DROP_STAGING = """
UNWIND $keys AS key
MATCH (lease:IngestLease {staging_key: key})
OPTIONAL MATCH (lease)-[:STAGES]->(s:StagingDocument)
OPTIONAL MATCH (c:Chunk)-[:PART_OF]->(s)
WITH lease, collect(DISTINCT s) AS staged, collect(c) AS chunks
FOREACH (c IN chunks | DELETE c)
FOREACH (x IN staged | DELETE x)
DELETE lease
RETURN size(chunks)
"""

# Extraction claims: a run of extraction (an ingest's, or `extract`'s) holds the documents it
# extracts on a lease of its own (`extracting`: their ids), renewed like a staging lease and
# dropped like one when its process is gone, so that two processes never extract one
# document at once (each would store its mentions and relations). Run in one query: the
# documents no live claim holds are claimed, together, and returned.
CLAIM_EXTRACTION = """
OPTIONAL MATCH (l:IngestLease)
WHERE l.extracting IS NOT NULL AND l.deadline >= timestamp()
WITH collect(l.extracting) AS held
WITH reduce(busy = [], ids IN held | busy + ids) AS busy
WITH [id IN $ids WHERE NOT id IN busy] AS free
CREATE (:IngestLease {
  staging_key: $key, extracting: free, owner_host: $owner_host, owner_pid: $owner_pid,
  owner_start: $owner_start, deadline: timestamp() + $ttl_ms
})
RETURN free
"""
