"""Which tool wrote an output, and reading it whole before anything is adopted."""

from __future__ import annotations

from pathlib import Path

from ..errors import AdoptionError
from .graphrag import is_graphrag, read_graphrag
from .lightrag import is_lightrag, read_lightrag
from .model import AdoptedGraph

TOOLS = ("lightrag", "graphrag")


def detect(path: Path) -> str:
    """The tool whose output `path` is, from the files it holds."""
    if not path.exists():
        raise AdoptionError(f"{path}: no such file or directory")
    if path.is_dir() and is_lightrag(path):
        return "lightrag"
    if is_graphrag(path):
        return "graphrag"
    raise AdoptionError(
        f"{path}: neither a LightRAG working directory (kv_store_text_chunks.json and "
        "graph_chunk_entity_relation.graphml) nor a GraphRAG output folder (text_units.parquet "
        "and the rest)"
    )


def read_output(path: Path, tool: str | None = None) -> AdoptedGraph:
    tool = tool or detect(path)
    if tool not in TOOLS:
        raise AdoptionError(f"--from must be one of {', '.join(TOOLS)}, got {tool!r}")
    if not path.is_dir():
        raise AdoptionError(f"{path}: not a folder (a {tool} output is one)")
    return read_graphrag(path) if tool == "graphrag" else read_lightrag(path)
