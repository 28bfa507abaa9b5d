"""The graph store: FalkorDB, embedded as a child process or reached as a server."""
