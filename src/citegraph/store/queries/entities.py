"""Entities, mentions and relations."""

from __future__ import annotations

# -- used by store/entities.py
WRITE_MENTIONS = """
UNWIND $rows AS m
MATCH (c:Chunk {id: m.chunk_id})
MERGE (e:Entity {key: m.key})
  ON CREATE SET e.name = m.name, e.type = m.type, e.norm = m.norm, e.aliases = [m.name],
    e.asserted = false
SET e.aliases = CASE WHEN m.name IN e.aliases THEN e.aliases ELSE e.aliases + m.name END
CREATE (e)-[:MENTIONED_IN {
  start_byte: m.start_byte, end_byte: m.end_byte, document_id: m.document_id, count: m.count
}]->(c)
"""

WRITE_CO_MENTIONS = """
UNWIND $rows AS r
MATCH (a:Entity {key: r.a}), (b:Entity {key: r.b})
CREATE (a)-[:RELATES {
  type: 'CO_MENTIONED', weak: true, citable: true, quote: r.quote, chunk_id: r.chunk_id,
  document_id: r.document_id, start_byte: r.start_byte, end_byte: r.end_byte, source: 'extracted'
}]->(b)
"""

# A typed relation located by grounding: its quote is in the chunk and names both ends.
WRITE_RELATIONS = """
UNWIND $rows AS r
MATCH (a:Entity {key: r.a}), (b:Entity {key: r.b})
CREATE (a)-[:RELATES {
  type: r.type, weak: false, citable: true, quote: r.quote, chunk_id: r.chunk_id,
  document_id: r.document_id, start_byte: r.start_byte, end_byte: r.end_byte, source: 'extracted',
  polarity: r.polarity, modality: r.modality, a_start_byte: r.a_start_byte,
  a_end_byte: r.a_end_byte, b_start_byte: r.b_start_byte, b_end_byte: r.b_end_byte
}]->(b)
"""
WRITE_ENTITIES = """
UNWIND $rows AS m
MERGE (e:Entity {key: m.key})
  ON CREATE SET e.name = m.name, e.type = m.type, e.norm = m.norm, e.aliases = [m.name],
    e.asserted = true
SET e.asserted = true,
    e.aliases = CASE WHEN m.name IN e.aliases THEN e.aliases ELSE e.aliases + m.name END
"""

# What a caller remembers twice is stored once: mentions and relations are merged.
REMEMBER_MENTIONS = """
UNWIND $rows AS m
MATCH (c:Chunk {id: m.chunk_id})
MATCH (e:Entity {key: m.key})
MERGE (e)-[x:MENTIONED_IN {start_byte: m.start_byte, end_byte: m.end_byte}]->(c)
SET x.document_id = m.document_id, x.count = m.count
"""

REMEMBER_RELATIONS = """
UNWIND $rows AS r
MATCH (a:Entity {key: r.a}), (b:Entity {key: r.b})
MERGE (a)-[x:RELATES {type: r.type, source: r.source, citable: r.citable,
                      chunk_id: coalesce(r.chunk_id, '')}]->(b)
SET x.weak = false, x.quote = r.quote, x.document_id = r.document_id,
    x.start_byte = r.start_byte, x.end_byte = r.end_byte
"""

# An extraction cut short (the process died between two flushes) left some rows of its
# documents; they are removed before the extraction runs again, so nothing is stored twice.
FORGET_CHUNK_MENTIONS = """
UNWIND $ids AS id
MATCH (:Document {id: id})<-[:PART_OF]-(:Chunk)<-[m:MENTIONED_IN]-(:Entity)
DELETE m
"""

FORGET_CO_MENTIONS = """
MATCH (:Entity)-[r:RELATES {source: 'extracted'}]->(:Entity)
WHERE r.document_id IN $ids
DELETE r
"""

DROP_ORPHAN_ENTITIES = """
MATCH (e:Entity)
WHERE e.asserted = false AND NOT (e)-[:MENTIONED_IN]->() AND NOT (e)-[:RELATES]-()
DELETE e
RETURN count(e)
"""

# Every identity a name can mean, most mentioned first.
IDENTITIES_BY_NORM = """
MATCH (e:Entity {norm: $norm})
OPTIONAL MATCH (e)-[m:MENTIONED_IN]->(:Chunk)
RETURN e.key, e.name, e.type, e.aliases, count(m) AS mentions
ORDER BY mentions DESC, e.key
"""

# Relations, optionally only those touching one entity name; the strong ones first.
LIST_RELATIONS = """
MATCH (a:Entity)-[r:RELATES]->(b:Entity)
WHERE $norm IS NULL OR a.norm = $norm OR b.norm = $norm
RETURN a.name, a.type, b.name, b.type, r.type, r.polarity, r.modality, r.weak, r.citable,
  r.quote, r.document_id, r.chunk_id, r.start_byte, r.end_byte, r.source
ORDER BY r.weak, r.document_id, r.start_byte, a.name, b.name
LIMIT $limit
"""
