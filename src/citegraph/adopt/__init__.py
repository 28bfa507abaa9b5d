"""Adopting graphs built by other tools (LightRAG; Microsoft GraphRAG is next): their passages
located in stored bytes, their entities and relations checked like citegraph's own."""
