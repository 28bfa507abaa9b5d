"""Co-mentions: two entities the offline layer found named in one sentence.

They are not stored as edges (a corpus names thousands of pairs; writing each was most of an
ingest's time): each linked mention keeps its sentence, and these queries pair the mentions of
one sentence. A pair is read as one weak, citable relation of type CO_MENTIONED whose quote is
the sentence, from the entity whose key sorts first ("forward" from it), the same rows the
stored relations give.
"""

from __future__ import annotations

# The type a co-mention is read as (and stored as, by stores written before).
CO_MENTIONED = "CO_MENTIONED"

# The sentence of mention `m` in chunk `c`, as the chunk's text holds it.
_QUOTE = "substring(c.text, m.s_char, m.s_len)"
# Two identities of one name (a title and the name, say) in one sentence are not a pair: a
# name is not related to itself by being written once.
_SAME_SENTENCE = "m.s_start = n.s_start AND m.s_char IS NOT NULL AND o.norm <> e.norm"

# -- used by retrieve/walk.py: the columns of NEIGHBOURS (retrieval.py), in its order. The
# mentions are taken first, at most `$mentions` of them in chunk order, then paired in their
# sentences. Ordering a hub's every mention (thousands of chunks name it) would cost more than
# the walk: the order is taken among the first `$window` mentions met, which for all but such
# hubs are all of them.
CO_MENTION_NEIGHBOURS = f"""
UNWIND $keys AS k
MATCH (e:Entity {{key: k}})-[m:MENTIONED_IN]->(c:Chunk)
WHERE m.s_char IS NOT NULL
WITH e, m, c
LIMIT $window
WITH e, m, c, c.id AS chunk
ORDER BY chunk, m.s_start, e.key
LIMIT $mentions
MATCH (c)<-[n:MENTIONED_IN]-(o:Entity)
WHERE {_SAME_SENTENCE}
WITH e, m, c, chunk, o, o.key AS other
ORDER BY chunk, m.s_start, e.key, other
LIMIT $cap
RETURN e.key AS a, other AS b, chunk, true AS citable, 'CO_MENTIONED' AS type,
  e.key < other AS forward, {_QUOTE} AS quote, m.s_start AS start, m.s_end AS end, true AS weak
"""

# -- used by paths/walk.py: the columns of EDGES_AROUND (paths.py).
CO_MENTIONS_AROUND = f"""
UNWIND $keys AS k
MATCH (e:Entity {{key: k}})-[m:MENTIONED_IN]->(c:Chunk)<-[n:MENTIONED_IN]-(o:Entity)
WHERE {_SAME_SENTENCE}
RETURN k, e.key < o.key AS outgoing, o.key, o.name, o.type, o.norm, 'CO_MENTIONED' AS type,
  null AS polarity, null AS modality, true AS weak, true AS citable, {_QUOTE} AS quote,
  m.document_id, c.id, m.s_start, m.s_end, 'extracted' AS source
LIMIT $limit
"""

# -- used by store/entities.py: the columns of LIST_RELATIONS (entities.py), each pair once.
_LISTED = f"""
WITH a, b, c, m
ORDER BY m.document_id, m.s_start, a.name, b.name
LIMIT $limit
OPTIONAL MATCH (d:Document {{id: m.document_id}})
RETURN a.name AS a_name, a.type AS a_type, b.name AS b_name, b.type AS b_type,
  'CO_MENTIONED' AS type, null AS polarity, null AS modality, true AS weak, true AS citable,
  {_QUOTE} AS quote, m.document_id AS document, c.id AS chunk, m.s_start AS start,
  m.s_end AS end, 'extracted' AS source, d.name AS document_name,
  d.page_starts AS page_starts, null AS description
"""

LIST_CO_MENTIONS = f"""
MATCH (a:Entity)-[m:MENTIONED_IN]->(c:Chunk)<-[n:MENTIONED_IN]-(b:Entity)
WHERE m.s_start = n.s_start AND m.s_char IS NOT NULL AND a.key < b.key AND a.norm <> b.norm
{_LISTED}
"""

# Those of one name: anchored on its entities, then each pair in its stored direction.
LIST_CO_MENTIONS_OF = f"""
MATCH (x:Entity {{norm: $norm}})-[xm:MENTIONED_IN]->(c:Chunk)<-[ym:MENTIONED_IN]-(y:Entity)
WHERE xm.s_start = ym.s_start AND xm.s_char IS NOT NULL AND y.norm <> x.norm
WITH c, CASE WHEN x.key < y.key THEN x ELSE y END AS a, CASE WHEN x.key < y.key THEN y ELSE x END
  AS b, xm AS m
{_LISTED}
"""
