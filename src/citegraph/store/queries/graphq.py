"""The schema a model-written query is shown, and what its rows cite. (The model's own query
is never one of these: it runs through the gate in graphq/.)"""

from __future__ import annotations

# -- used by graphq/schema.py
# Cheap (the store keeps both counts, each alone; 0.3 ms at 20,000 chunks where one query
# joining the two takes 90 ms): a schema read before is reused while they hold.
NODE_COUNT = "MATCH (n) RETURN count(n)"
EDGE_COUNT = "MATCH ()-[r]->() RETURN count(r)"
NODE_LABELS = "MATCH (n) UNWIND labels(n) AS label RETURN label, count(*)"

EDGE_ENDS = """
MATCH (a)-[r]->(b)
RETURN type(r), labels(a)[0], labels(b)[0], count(*)
"""

# A sample of each label's nodes: enough to list the properties that are set and a few values.
NODE_SAMPLE = """
MATCH (n) WHERE $label IN labels(n)
WITH n LIMIT $sample
RETURN [k IN keys(n) WHERE NOT k IN $hidden | [k, n[k]]]
"""

EDGE_SAMPLE = """
MATCH ()-[r]->() WHERE type(r) = $type
WITH r LIMIT $sample
RETURN [k IN keys(r) WHERE NOT k IN $hidden | [k, r[k]]]
"""

# Stated relations are few among many co-mentions, and have properties co-mentions lack
# (polarity, modality): sampled on their own, so that whichever edges the store lists first
# do not hide them.
STATED_RELATION_SAMPLE = """
MATCH ()-[r:RELATES]->() WHERE r.weak = false
WITH r LIMIT $sample
RETURN [k IN keys(r) WHERE NOT k IN $hidden | [k, r[k]]]
"""

# Kinds a model needs to name exactly: every value, with how often it is set.
ENTITY_TYPES = "MATCH (e:Entity) RETURN e.type, count(*) ORDER BY count(*) DESC LIMIT $limit"
RELATION_TYPES = """
MATCH ()-[r:RELATES]->() RETURN r.type, count(*) ORDER BY count(*) DESC LIMIT $limit
"""

# -- used by graphq/citing.py
# A mention has a document span but no chunk id: the chunk holding its first byte.
CHUNK_AT = """
UNWIND $spans AS s
MATCH (c:Chunk {document_id: s.document_id})-[:PART_OF]->(:Document)
WHERE c.start_byte <= s.start_byte AND s.start_byte < c.end_byte
RETURN s.key, c.id
"""

# A document is cited by the opening of its first passage.
FIRST_CHUNKS = """
UNWIND $ids AS id
MATCH (c:Chunk {document_id: id})-[:PART_OF]->(:Document {id: id})
WHERE NOT coalesce(c.furniture, false)
WITH id, c ORDER BY c.ordinal
WITH id, collect(c.id)[0] AS first
RETURN id, first
"""

# An entity is cited where it is first named.
FIRST_MENTIONS = """
UNWIND $keys AS key
MATCH (e:Entity {key: key})-[m:MENTIONED_IN]->(c:Chunk)
WITH key, m, c ORDER BY m.document_id, m.start_byte
WITH key, collect([c.id, m.document_id, m.start_byte, m.end_byte])[0] AS first
RETURN key, first
"""
