"""A scope's portable dump (store/backup.py): read in pages, written back by label and type."""

from __future__ import annotations

# -- used by store/backup.py
# What a backup holds: documents, chunks, entities and the extraction cache; not an ingest in
# flight (leases, staging), nor the scope's embedding record (embeddings are not kept).
DUMP_NODES = """
MATCH (n)
WHERE id(n) > $after
  AND (n:Document OR n:Entity OR n:ExtractionReply OR n:CommunityReport OR n:Adoption
       OR (n:Chunk AND (n)-[:PART_OF]->(:Document)))
RETURN id(n), labels(n)[0], properties(n)
ORDER BY id(n)
LIMIT $page
"""

DUMP_EDGES = """
MATCH (a)-[r]->(b)
WHERE id(r) > $after AND type(r) IN ['PART_OF', 'MENTIONED_IN', 'RELATES', 'ABOUT']
  AND (a:Chunk OR a:Entity OR a:CommunityReport) AND (b:Document OR b:Chunk OR b:Entity)
RETURN id(r), type(r), coalesce(a.id, a.key), coalesce(b.id, b.key), properties(r)
ORDER BY id(r)
LIMIT $page
"""

RESTORE_NODES = {
    "Document": "UNWIND $rows AS p CREATE (n:Document) SET n = p",
    "Chunk": "UNWIND $rows AS p CREATE (n:Chunk) SET n = p",
    "Entity": "UNWIND $rows AS p CREATE (n:Entity) SET n = p",
    "ExtractionReply": "UNWIND $rows AS p CREATE (n:ExtractionReply) SET n = p",
    "CommunityReport": "UNWIND $rows AS p CREATE (n:CommunityReport) SET n = p",
    "Adoption": "UNWIND $rows AS p CREATE (n:Adoption) SET n = p",
}

RESTORE_EDGES = {
    "PART_OF": """
UNWIND $rows AS r
MATCH (a:Chunk {id: r.a}), (b:Document {id: r.b})
CREATE (a)-[e:PART_OF]->(b) SET e = r.p
RETURN count(e)
""",
    "MENTIONED_IN": """
UNWIND $rows AS r
MATCH (a:Entity {key: r.a}), (b:Chunk {id: r.b})
CREATE (a)-[e:MENTIONED_IN]->(b) SET e = r.p
RETURN count(e)
""",
    "RELATES": """
UNWIND $rows AS r
MATCH (a:Entity {key: r.a}), (b:Entity {key: r.b})
CREATE (a)-[e:RELATES]->(b) SET e = r.p
RETURN count(e)
""",
    "ABOUT": """
UNWIND $rows AS r
MATCH (a:CommunityReport {key: r.a}), (b:Entity {key: r.b})
CREATE (a)-[e:ABOUT]->(b) SET e = r.p
RETURN count(e)
""",
}

COUNT_ALL = "MATCH (n) RETURN count(n)"
