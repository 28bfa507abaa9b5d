"""Graph walks: binding names to entities, the relations around a set of entities, and the
chunks their evidence quotes are in."""

from __future__ import annotations

# Every entity a normalised name may mean, with its mentions and (some of) its documents.
IDENTITIES = """
MATCH (e:Entity {norm: $norm})
OPTIONAL MATCH (e)-[m:MENTIONED_IN]->(:Chunk)-[:PART_OF]->(d:Document)
WITH e, count(m) AS mentions, collect(DISTINCT d.name) AS documents
RETURN e.key, e.name, e.type, mentions, documents[..20]
ORDER BY mentions DESC, e.key
"""

ENTITY_BY_KEY = "MATCH (e:Entity {key: $key}) RETURN e.key, e.name, e.type, e.norm"

# The keys and types behind some normalised names: is each one entity, or several?
KEYS_OF_NORMS = """
UNWIND $norms AS n
MATCH (e:Entity {norm: n})
RETURN n, e.key, e.name, e.type
"""

_EDGE_FIELDS = (
    "o.key, o.name, o.type, o.norm, r.type, r.polarity, r.modality, r.weak, r.citable, "
    "r.quote, r.document_id, r.chunk_id, r.start_byte, r.end_byte, r.source"
)

# One level of a walk: the relations of the followed types touching some entities, both
# ways (`outgoing`: stated from the entity walked from). Bounded by $limit per direction.
EDGES_AROUND = f"""
UNWIND $keys AS k
MATCH (e:Entity {{key: k}})-[r:RELATES]->(o:Entity)
WHERE r.type IN $types
RETURN k, true AS outgoing, {_EDGE_FIELDS}
LIMIT $limit
UNION ALL
UNWIND $keys AS k
MATCH (e:Entity {{key: k}})<-[r:RELATES]-(o:Entity)
WHERE r.type IN $types
RETURN k, false AS outgoing, {_EDGE_FIELDS}
LIMIT $limit
"""

# The chunks evidence quotes were located in, with what a citation of them needs.
EVIDENCE_CHUNKS = """
UNWIND $ids AS id
MATCH (c:Chunk {id: id})-[:PART_OF]->(d:Document)
RETURN c.id, c.document_id, c.start_byte, c.text, d.name, d.page_starts, d.origin_kind,
       d.origin_source, d.origin_method
"""
