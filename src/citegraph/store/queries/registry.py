"""The scope registry (store/registry.py)."""

from __future__ import annotations

ADD_SCOPE = "MERGE (s:Scope {name: $name}) ON CREATE SET s.created_at = timestamp()"
REMOVE_SCOPE = "MATCH (s:Scope {name: $name}) DELETE s"
REGISTERED_SCOPES = "MATCH (s:Scope) RETURN s.name ORDER BY s.name"
SEEDED = "MATCH (r:Registry) RETURN r.version"
SEED_REGISTRY = """
UNWIND $names AS name
MERGE (s:Scope {name: name}) ON CREATE SET s.created_at = timestamp()
WITH count(s) AS registered
MERGE (r:Registry) ON CREATE SET r.version = 1, r.seeded_at = timestamp(), r.seeded = registered
"""
