"""Which tool wrote an output, and reading it whole before anything is adopted."""

from __future__ import annotations

from pathlib import Path

from ..errors import AdoptionError
from .lightrag import is_lightrag, read_lightrag
from .model import AdoptedGraph

TOOLS = ("lightrag", "graphrag")


def detect(path: Path) -> str:
    """The tool whose output `path` is, from the files it holds."""
    if not path.exists():
        raise AdoptionError(f"{path}: no such file or directory")
    if path.is_dir() and is_lightrag(path):
        return "lightrag"
    if path.is_dir() and any(path.glob("*.parquet")):
        return "graphrag"
    raise AdoptionError(
        f"{path}: neither a LightRAG working directory (kv_store_text_chunks.json and "
        "graph_chunk_entity_relation.graphml) nor a GraphRAG output folder (*.parquet)"
    )


def read_output(path: Path, tool: str | None = None) -> AdoptedGraph:
    tool = tool or detect(path)
    if tool not in TOOLS:
        raise AdoptionError(f"--from must be one of {', '.join(TOOLS)}, got {tool!r}")
    if tool == "graphrag":
        raise AdoptionError(
            "adopting Microsoft GraphRAG output (parquet) is not built yet; LightRAG working "
            "directories are (docs/adopt.md)"
        )
    return read_lightrag(path)
