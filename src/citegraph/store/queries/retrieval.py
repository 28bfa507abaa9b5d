"""Reading evidence: seeds, keywords, graph walks, meaning, chunk details."""

from __future__ import annotations

from collections.abc import Iterable

from .entities import ALIAS_OF_E

# -- used by retrieve/keywords.py
# Sorted and cut before the PART_OF check: a staged chunk (not yet part of a document) is rare,
# so a small over-fetch keeps the count right without checking every hit. Hits of equal score
# are taken by id (the store's order follows write order), among a few more than needed: only
# the score is sorted over every hit.
CANDIDATE_CHUNKS = """
CALL db.idx.fulltext.queryNodes('Chunk', $query) YIELD node, score
WITH node, score
WHERE node.furniture IS NULL
WITH node, score
ORDER BY score DESC
LIMIT $wide
WITH node, score
ORDER BY score DESC, node.id
LIMIT $over
MATCH (node)-[:PART_OF]->(:Document)
RETURN node.id, node.text, score
LIMIT $limit
"""

# Document frequencies are counted up to a cap: past it a word is common, its weight small, and
# counting every hit would cost the most exactly where it matters least.
TERM_COUNT = """
CALL db.idx.fulltext.queryNodes('Chunk', $term) YIELD node
WITH node
LIMIT $cap
RETURN count(node)
"""

CHUNK_STATS = (
    "MATCH (c:Chunk)-[:PART_OF]->(:Document) RETURN count(c), avg(c.end_byte - c.start_byte)"
)

# -- used by retrieve/seeds.py
ENTITIES_BY_NORM = """
UNWIND $norms AS n
MATCH (e:Entity {norm: n})
RETURN e.key, e.name, e.type, n
"""

# The entities a source says the seeds are also called (entities.py ALIAS_OF_E): the
# question's name means them too.
ALIASES_OF = f"""
UNWIND $keys AS k
MATCH (e:Entity {{key: k}})
MATCH {ALIAS_OF_E}
RETURN DISTINCT k, o.key, o.name
"""

# Each prefix as the range of names that start with it (`prefix_ranges`): the `norm` index
# answers a range, where STARTS WITH scans every entity (0.9 against 6.5 ms a question at 10k
# chunks).
ENTITIES_BY_PREFIX = """
UNWIND $prefixes AS p
MATCH (e:Entity)
WHERE e.norm >= p[0] AND e.norm < p[1]
RETURN e.key, e.name, e.norm
ORDER BY e.key
LIMIT 1000
"""


def prefix_ranges(prefixes: Iterable[str]) -> list[list[str]]:
    """ENTITIES_BY_PREFIX's parameter: each non-empty prefix as [prefix, the least string
    after every string that starts with it]."""
    return [[p, _successor(p)] for p in prefixes if p]


def _successor(prefix: str) -> str:
    """`prefix` with its last character made the next one (surrogates skipped)."""
    code = ord(prefix[-1]) + 1
    code = 0xE000 if 0xD800 <= code <= 0xDFFF else code
    if code > 0x10FFFF:
        return _successor(prefix[:-1]) if len(prefix) > 1 else prefix + "\U0010ffff"
    return prefix[:-1] + chr(code)


ENTITY_TYPES = "MATCH (e:Entity) RETURN DISTINCT e.type LIMIT 1000"

ENTITIES_BY_TYPE = """
UNWIND $types AS t
MATCH (e:Entity {type: t})
RETURN e.key, e.name, e.type
ORDER BY e.key
LIMIT $limit
"""

# -- used by retrieve/walk.py
# Rows are capped for the whole frontier (fanout for each entity in it), so a hub entity with
# thousands of links costs no more than the cap; a walk that hits it reports "fanout". Which
# rows the cap keeps is fixed by an order: stated before weak, then by where each is stated
# (chunk, then place), as the store's own order grouped them, but not by the order rows were
# written in, which concurrent ingests vary (the same question could walk elsewhere).
NEIGHBOURS = """
UNWIND $keys AS k
MATCH (a:Entity {key: k})-[r:RELATES]-(b:Entity)
WHERE ($types IS NULL OR r.type IN $types) AND ($weak OR r.weak = false)
RETURN a.key, b.key, r.chunk_id, r.citable, r.type, startNode(r) = a, r.quote, r.start_byte,
  r.end_byte, r.weak
ORDER BY r.weak, r.chunk_id, r.start_byte, a.key, b.key
LIMIT $cap
"""

# -- used by retrieve/meaning.py
WRITE_EMBEDDINGS = """
UNWIND $rows AS r
MATCH (c:Chunk {id: r.id})
SET c.embedding = vecf32(r.vector)
"""

# Cosine distance: smaller is closer. Only chunks of committed documents count.
NEAREST = """
CALL db.idx.vector.queryNodes('Chunk', 'embedding', $k, vecf32($vector)) YIELD node, score
MATCH (node)-[:PART_OF]->(:Document)
RETURN node.id, score
ORDER BY score, node.id
"""

# -- used by retrieve/context.py
COUNT_DOCUMENTS = "MATCH (d:Document) RETURN count(d)"

CHUNKS_OF_ENTITIES = """
UNWIND $keys AS k
MATCH (e:Entity {key: k})
WITH e, outdegree(e, 'MENTIONED_IN') AS named
WHERE 0 < named AND named <= $max_named
MATCH (e)-[:MENTIONED_IN]->(c:Chunk)-[:PART_OF]->(:Document)
WITH c, sum(log(1.0 + toFloat($chunks) / named)) AS s
RETURN c.id, s
ORDER BY s DESC, c.id
LIMIT $limit
"""

CHUNK_DETAILS = """
UNWIND $ids AS id
MATCH (c:Chunk {id: id})-[:PART_OF]->(d:Document)
WHERE c.furniture IS NULL
RETURN c.id, c.document_id, d.name, c.ordinal, c.start_byte, c.end_byte, c.text, c.page,
       c.end_page, d.origin_kind, d.origin_source, d.origin_method
"""

NEIGHBOUR_CHUNKS = """
UNWIND $pairs AS p
MATCH (c:Chunk {document_id: p.doc})-[:PART_OF]->(d:Document)
WHERE c.ordinal = p.ordinal AND c.furniture IS NULL
RETURN c.id, c.document_id, d.name, c.ordinal, c.start_byte, c.end_byte, c.text, c.page,
       c.end_page, d.origin_kind, d.origin_source, d.origin_method
"""

# -- used by retrieve/respelling.py
# A few chunks holding a word spelled close to the one asked (RediSearch's %word% matches
# within one edit, %%word%% within two); the word itself is read back from their text.
CLOSE_SPELLING_CHUNKS = """
CALL db.idx.fulltext.queryNodes('Chunk', $query) YIELD node
WITH node
LIMIT 5
RETURN node.text
"""

# -- used by retrieve/bridge.py
# From the best passages to the one passage of what they name: a name mentioned there that is
# the title of exactly one document (its own passage, as an article is a person's or a
# band's), outside the documents already at the top.
BRIDGE_CHUNKS = """
MATCH (t:Chunk) WHERE t.id IN $chunks
WITH collect(t.document_id) AS documents
UNWIND $chunks AS cid
MATCH (:Chunk {id: cid})<-[:MENTIONED_IN]-(e:Entity)
WITH DISTINCT documents, cid, e.name AS name
OPTIONAL MATCH (exact:Document {title: name})
WITH documents, cid, name, collect(exact.id) AS exact
RETURN cid, name, [x IN exact WHERE NOT x IN documents], size(exact), documents
"""

# Documents whose title is `name` followed by a space, a comma, a parenthesis or an
# apostrophe ("UNLV Rebels football", "Mark Masons' Hall, London", "Jack Harvey (basketball)"
# for UNLV, Mark Masons' Hall, Jack Harvey): the titles in [name + ' ', name + '-'), which the
# title index answers as a range.
TITLES_LONGER = """
UNWIND $names AS name
MATCH (d:Document)
WHERE d.title >= name + ' ' AND d.title < name + '-'
RETURN name, collect(d.id)[..3]
"""

# Each document's first passage (not a page's furniture).
FIRST_PASSAGES = """
UNWIND $ids AS id
MATCH (c:Chunk {document_id: id})
WHERE c.ordinal = 0 AND c.furniture IS NULL
RETURN id, c.id
"""

# Documents titled exactly with a name the question uses.
TITLED = """
UNWIND $names AS name
MATCH (d:Document {title: name})
RETURN name, collect(d.id)[..2]
"""
