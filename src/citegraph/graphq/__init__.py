"""Guarded Text2Cypher: questions about the graph answered by one model-written read query.

schema (what the model may name), prompt (what it is asked, how its reply is read), lexer and
gate (what may run), run (EXPLAIN, the read-only run with a timeout), rows (bounds after
reading), citing (rows that cite). Experimental and off by default: docs/graph-questions.md.
"""
