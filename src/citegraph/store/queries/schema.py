"""Indexes and scope settings."""

from __future__ import annotations

# -- used by store/schema.py
LIST_INDEXES = (
    "CALL db.indexes() YIELD label, properties, types, status, entitytype "
    "RETURN label, properties, types, status, entitytype"
)

# Labels and property names below come from the constant table above, never from user input.
CREATE_RANGE = "CREATE INDEX FOR (n:{label}) ON (n.{prop})"

CREATE_FULLTEXT = "CALL db.idx.fulltext.createNodeIndex('{label}', '{prop}')"

CREATE_EDGE = "CREATE INDEX FOR ()-[r:{label}]-() ON (r.{prop})"

# The vector index's dimension comes from the embedder (an int), never from user text.
CREATE_VECTOR = (
    "CREATE VECTOR INDEX FOR (c:Chunk) ON (c.embedding) "
    "OPTIONS {{dimension: {dimensions}, similarityFunction: 'cosine'}}"
)

SCOPE_EMBEDDING = "MERGE (s:ScopeInfo {id: 'scope'}) RETURN s.embed_model, s.dimensions"

SET_SCOPE_EMBEDDING = (
    "MERGE (s:ScopeInfo {id: 'scope'}) SET s.embed_model = $model, s.dimensions = $dimensions"
)

# -- used by the workspace and scopes
ANY_NODE = "MATCH (n) RETURN 1 LIMIT 1"
