"""Entities, mentions and relations."""

from __future__ import annotations

# -- used by store/entities.py
# Extraction's rows are lists, not maps: a flush holds thousands, and lists are what the
# store and the parameter encoder read fastest (store/params.py).
# One flush of extraction in one query: the entities it names, once each ([key, name, type,
# norm, names]; created where missing, their new names added where not), then its mentions grouped
# by chunk ([chunk id, document id, [[key, start byte, end byte, count, sentence or null]]],
# the sentence [start byte, end byte, start char in the chunk, length in chars], see
# store/entities.py). A lookup and a conditional create cost the store less than MERGE; the
# graph takes one write at a time, so no other writer can create the same key in between.
WRITE_MENTIONS = """
UNWIND $entities AS r
OPTIONAL MATCH (old:Entity {key: r[0]})
FOREACH (_ IN CASE WHEN old IS NULL THEN [1] ELSE [] END |
  CREATE (:Entity {key: r[0], name: r[1], type: r[2], norm: r[3], aliases: r[4], asserted: false}))
FOREACH (_ IN CASE WHEN old IS NULL THEN [] ELSE [1] END |
  SET old.aliases = old.aliases + [n IN r[4] WHERE NOT n IN old.aliases])
WITH count(*) AS entities
UNWIND $chunks AS g
MATCH (c:Chunk {id: g[0]})
UNWIND g[2] AS m
MATCH (e:Entity {key: m[0]})
CREATE (e)-[:MENTIONED_IN {start_byte: m[1], end_byte: m[2], document_id: g[1], count: m[3],
  s_start: m[4][0], s_end: m[4][1], s_char: m[4][2], s_len: m[4][3]}]->(c)
"""

# A typed relation located by grounding: its quote is in the chunk and names both ends.
# [a, b, type, quote, chunk id, document id, start byte, end byte, polarity, modality,
#  a start byte, a end byte, b start byte, b end byte, description or null]
# A description is a model's words about the relation: stored, listed as such, never cited.
WRITE_RELATIONS = """
UNWIND $rows AS r
MATCH (a:Entity {key: r[0]}), (b:Entity {key: r[1]})
CREATE (a)-[:RELATES {
  type: r[2], weak: false, citable: true, quote: r[3], chunk_id: r[4], document_id: r[5],
  start_byte: r[6], end_byte: r[7], source: 'extracted', polarity: r[8], modality: r[9],
  a_start_byte: r[10], a_end_byte: r[11], b_start_byte: r[12], b_end_byte: r[13],
  description: r[14]
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

# What makes `o` another name of `e`: a source says so (an acronym's definition, extract/
# acronyms.py ALIAS_OF; a remembered fact), either way round, and not negated. Read by the
# entities listing below and by the question's seeds (retrieval.py).
ALIAS_OF_E = (
    "(e)-[r:RELATES {type: 'alias-of'}]-(o:Entity) "
    "WHERE coalesce(r.polarity, 'affirmed') = 'affirmed'"
)

# Every identity a name can mean, most mentioned first, with the names a source says it is
# also called.
IDENTITIES_BY_NORM = f"""
MATCH (e:Entity {{norm: $norm}})
OPTIONAL MATCH (e)-[m:MENTIONED_IN]->(:Chunk)
WITH e, count(m) AS mentions
OPTIONAL MATCH {ALIAS_OF_E}
RETURN e.key, e.name, e.type, e.aliases, mentions, collect(DISTINCT o.name)
ORDER BY mentions DESC, e.key
"""

# Relations, optionally only those touching one entity name; the strong ones first.
# Each with its document's name and page starts (a PDF's), looked up once the rows are cut.
LIST_RELATIONS = """
MATCH (a:Entity)-[r:RELATES]->(b:Entity)
WHERE ($norm IS NULL OR a.norm = $norm OR b.norm = $norm) AND ($type IS NULL OR r.type = $type)
WITH a, b, r
ORDER BY r.weak, r.document_id, r.start_byte, a.name, b.name
LIMIT $limit
OPTIONAL MATCH (d:Document {id: r.document_id})
RETURN a.name, a.type, b.name, b.type, r.type, r.polarity, r.modality, r.weak, r.citable,
  r.quote, r.document_id, r.chunk_id, r.start_byte, r.end_byte, r.source, d.name,
  d.page_starts, r.description
"""

# The types of the relations stored, and whether any mention keeps its sentence (so that
# co-mentions can be listed): what a listing that found nothing of one type can offer.
RELATION_TYPES = "MATCH ()-[r:RELATES]->() RETURN DISTINCT r.type ORDER BY r.type"
ANY_SENTENCE = "MATCH ()-[m:MENTIONED_IN]->() WHERE m.s_char IS NOT NULL RETURN 1 LIMIT 1"

# Relations quoted in one file whose source is bound in another (extract/settings_links.py),
# made to be $relations, and only if the configuration documents are still the ones they were
# read from ($snapshot: "id@sha256" of each) and hold the chunks read ($chunk_ids); else
# nothing is written and no row comes back. Each link carries its identity (`link_id`, the
# last field of a row): one already stored is kept as it is, with any audit verdict on it,
# and marked with this pass ($pass); the others are created so marked; then every link bound
# in a configuration document and not marked by this pass is removed. Mentions are added
# where the entity has none in that chunk yet. A link is looked up between its two ends
# (the entity key index) and the links bound in a document by the binding_document_id
# index, so a pass costs a lookup per link, not a comparison with each.
# $entities: [key, name, type, norm]; $mentions: [chunk id, key, start byte, end byte,
# document id]; $relations: as WRITE_RELATIONS's rows (no description), then the binding's
# document id, then the identity. `[null]` keeps a row flowing through an empty UNWIND.
REPLACE_LINKS = """
OPTIONAL MATCH (d:Document) WHERE d.media_type IN $types
WITH collect(d.id + '@' + d.sha256) AS now
WHERE size(now) = size($snapshot) AND all(x IN now WHERE x IN $snapshot)
UNWIND CASE WHEN size($chunk_ids) = 0 THEN [null] ELSE $chunk_ids END AS cid
OPTIONAL MATCH (c:Chunk {id: cid})
WITH now, count(c) AS found
WHERE found = size($chunk_ids)
FOREACH (r IN $entities |
  MERGE (e:Entity {key: r[0]})
  ON CREATE SET e.name = r[1], e.type = r[2], e.norm = r[3], e.aliases = [r[1]],
    e.asserted = false)
FOREACH (m IN $mentions |
  MERGE (e:Entity {key: m[1]})
  MERGE (c:Chunk {id: m[0]})
  MERGE (e)-[x:MENTIONED_IN]->(c)
  ON CREATE SET x.start_byte = m[2], x.end_byte = m[3], x.document_id = m[4], x.count = 1)
WITH now
UNWIND CASE WHEN size($relations) = 0 THEN [null] ELSE $relations END AS r
OPTIONAL MATCH (:Entity {key: r[0]})-[kept:RELATES {link_id: r[15]}]->(:Entity {key: r[1]})
FOREACH (_ IN CASE WHEN kept IS NULL THEN [] ELSE [1] END | SET kept.link_pass = $pass)
FOREACH (_ IN CASE WHEN r IS NULL OR kept IS NOT NULL THEN [] ELSE [1] END |
  MERGE (a:Entity {key: r[0]})
  MERGE (b:Entity {key: r[1]})
  CREATE (a)-[:RELATES {
    type: r[2], weak: false, citable: true, quote: r[3], chunk_id: r[4], document_id: r[5],
    start_byte: r[6], end_byte: r[7], source: 'extracted', polarity: r[8], modality: r[9],
    a_start_byte: r[10], a_end_byte: r[11], b_start_byte: r[12], b_end_byte: r[13],
    binding_document_id: r[14], link_id: r[15], link_pass: $pass
  }]->(b))
WITH now, count(*) AS rows
UNWIND CASE WHEN size($bindings) = 0 THEN [null] ELSE $bindings END AS bid
OPTIONAL MATCH ()-[old:RELATES {binding_document_id: bid}]->()
WITH now, collect(CASE WHEN old.link_pass = $pass THEN null ELSE old END) AS stale
FOREACH (o IN stale | DELETE o)
RETURN size(stale)
"""
