"""The ways in: the CLI, the HTTP API and the MCP server, each a thin layer over the workspace
API. The core never imports a surface, and the HTTP and MCP surfaces never import each other
(tests/test_layout.py); the CLI starts the other two (`serve`, `mcp`)."""
