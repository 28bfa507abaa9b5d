"""Every Cypher string citegraph runs, named and parameterised, one module per concern.
User text is always a parameter, never part of a string here (tests/test_layout.py checks
that no other module holds Cypher)."""
