"""Adopting graphs built by other tools (Microsoft GraphRAG, LightRAG): their passages
located in stored bytes, their entities and relations checked like citegraph's own."""
