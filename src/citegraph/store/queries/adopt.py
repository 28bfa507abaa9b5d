"""Another tool's entities and relations, adopted (adopt/run.py): merged, never created
twice, so adopting the same output again changes nothing."""

from __future__ import annotations

ADOPT_ENTITIES = """
UNWIND $rows AS m
MERGE (e:Entity {key: m.key})
  ON CREATE SET e.name = m.name, e.type = m.type, e.norm = m.norm, e.aliases = [m.name],
    e.asserted = false
SET e.adopted_from = m.tool, e.description = m.description, e.unsupported = m.unsupported
"""

# The tool's description is its words, kept beside the relation; the quote, when there is
# one, is the sentence citegraph found.
ADOPT_RELATIONS = """
UNWIND $rows AS r
MATCH (a:Entity {key: r.a}), (b:Entity {key: r.b})
MERGE (a)-[x:RELATES {type: r.type, source: r.source, chunk_id: r.chunk_id,
                      keywords: r.keywords}]->(b)
SET x.weak = false, x.citable = r.citable, x.quote = r.quote, x.document_id = r.document_id,
    x.start_byte = r.start_byte, x.end_byte = r.end_byte, x.description = r.description,
    x.weight = r.weight
"""

# A community report is the tool's summary: kept as context beside its entities, never a
# passage (no chunk, so nothing can cite it).
ADOPT_REPORTS = """
UNWIND $rows AS r
MERGE (c:CommunityReport {key: r.key})
SET c.title = r.title, c.summary = r.summary, c.full_content = r.full_content, c.tool = r.tool
WITH c, r
UNWIND r.entities AS k
MATCH (e:Entity {key: k})
MERGE (c)-[:ABOUT]->(e)
"""
