"""The edge audit: people's verdicts on stated relations, kept on the relation itself."""

from __future__ import annotations

# -- used by store/audit.py
# Stated relations located at a quote (what a walk follows and a person can judge), not
# yet audited, in random order.
AUDIT_SAMPLE = """
MATCH (a:Entity)-[r:RELATES]->(b:Entity)
WHERE r.weak = false AND r.quote IS NOT NULL AND r.audit IS NULL
WITH a, r, b, rand() AS shuffle
ORDER BY shuffle
LIMIT $n
RETURN a.key, a.name, a.type, b.key, b.name, b.type, r.type, r.polarity, r.modality, r.quote,
  r.document_id, r.chunk_id, r.start_byte, r.end_byte
"""

AUDIT_MARK = """
UNWIND $verdicts AS v
MATCH (a:Entity {key: v.a})-[r:RELATES]->(b:Entity {key: v.b})
WHERE r.type = v.type AND r.document_id = v.document_id AND r.start_byte = v.start_byte
  AND r.weak = false
SET r.audit = v.verdict, r.audited_at = v.at
RETURN count(r)
"""

AUDIT_SUMMARY = """
MATCH ()-[r:RELATES]->()
WHERE r.weak = false AND r.quote IS NOT NULL
RETURN r.audit, count(*)
"""
