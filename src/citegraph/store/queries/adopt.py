"""Another tool's entities, mentions, relations and community reports, adopted (adopt/run.py).

One query writes a whole run and removes what an older run of the same tool left: FalkorDB
runs a query whole or undoes it, and readers see the graph before it or after it, so a newer
run replaces the older atomically, and a failure leaves the older one as it was. Every row is
merged, never created twice, so adopting the same output again changes nothing.

What a run wrote carries its `adopt_run` (the tool and a digest of its output): entities,
the mentions adoption created (a mention citegraph's own extraction made first stays
untagged, and is never removed here), relations and reports. An entity only an older run
named, that nothing else holds (no mention, relation or remembered fact), goes with it.
"""

from __future__ import annotations

# The run a scope holds of a tool, if any.
ADOPTED_RUN = "OPTIONAL MATCH (a:Adoption {tool: $tool}) RETURN a.run"

ADOPT_RUN = """
MERGE (run:Adoption {tool: $tool})
SET run.run = $run, run.version = $version
WITH count(*) AS _
UNWIND $entities AS m
MERGE (e:Entity {key: m.key})
  ON CREATE SET e.name = m.name, e.type = m.type, e.norm = m.norm, e.aliases = [m.name],
    e.asserted = false
SET e.adopted_from = $tool, e.description = m.description, e.unsupported = m.unsupported,
    e.adopt_run = $run
WITH count(*) AS _
UNWIND $mentions AS m
MATCH (c:Chunk {id: m.chunk_id})
MATCH (e:Entity {key: m.key})
MERGE (e)-[x:MENTIONED_IN {start_byte: m.start_byte, end_byte: m.end_byte}]->(c)
  ON CREATE SET x.adopt_run = $run, x.document_id = m.document_id, x.count = m.count
  ON MATCH SET x.adopt_run = CASE WHEN x.adopt_run IS NULL THEN NULL ELSE $run END
WITH count(*) AS _
UNWIND $relations AS r
MATCH (a:Entity {key: r.a}), (b:Entity {key: r.b})
MERGE (a)-[x:RELATES {type: r.type, source: $source, chunk_id: r.chunk_id,
                      keywords: r.keywords}]->(b)
SET x.weak = false, x.citable = r.citable, x.quote = r.quote, x.document_id = r.document_id,
    x.start_byte = r.start_byte, x.end_byte = r.end_byte, x.description = r.description,
    x.weight = r.weight, x.adopt_run = $run
WITH count(*) AS _
UNWIND $reports AS r
MERGE (c:CommunityReport {key: r.key})
SET c.title = r.title, c.summary = r.summary, c.full_content = r.full_content, c.tool = $tool,
    c.adopt_run = $run
WITH c, r
UNWIND r.entities AS k
MATCH (e:Entity {key: k})
MERGE (c)-[:ABOUT]->(e)
WITH count(*) AS _
OPTIONAL MATCH ()-[x:RELATES {source: $source}]->()
WHERE coalesce(x.adopt_run, '') <> $run
DELETE x
WITH count(x) AS relations_removed
OPTIONAL MATCH (c:CommunityReport {tool: $tool})
WHERE coalesce(c.adopt_run, '') <> $run
DETACH DELETE c
WITH relations_removed, count(c) AS reports_removed
OPTIONAL MATCH ()-[x:MENTIONED_IN]->()
WHERE x.adopt_run STARTS WITH $tool_prefix AND x.adopt_run <> $run
DELETE x
WITH relations_removed, reports_removed, count(x) AS mentions_removed
OPTIONAL MATCH (e:Entity {adopted_from: $tool})
WHERE coalesce(e.adopt_run, '') <> $run
REMOVE e.adopted_from, e.description, e.unsupported, e.adopt_run
WITH relations_removed, reports_removed, mentions_removed, e
OPTIONAL MATCH (e)-[held]-()
WITH relations_removed, reports_removed, mentions_removed, e, count(held) AS degree
WITH relations_removed, reports_removed, mentions_removed,
     collect(CASE WHEN degree = 0 AND NOT coalesce(e.asserted, false) THEN e END) AS orphans
FOREACH (o IN orphans | DETACH DELETE o)
RETURN relations_removed, reports_removed, mentions_removed, size(orphans) AS entities_removed
"""

# The reports about an entity (by its normalised name), or every report when $norm is null.
COMMUNITY_REPORTS = """
MATCH (c:CommunityReport)
OPTIONAL MATCH (c)-[:ABOUT]->(e:Entity)
WITH c, collect(e) AS about
WHERE $norm IS NULL OR any(e IN about WHERE e.norm = $norm)
RETURN c.key, c.title, c.summary, c.full_content, c.tool, [e IN about | e.name]
ORDER BY c.title, c.key
LIMIT $limit
"""
