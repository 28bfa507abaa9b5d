"""From what the caller hands to ingest (paths, folders, bytes) to named inputs."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputNotFound, InvalidDocument

MEDIA_TYPES = {
    ".txt": "text/plain",
    ".text": "text/plain",
    ".md": "text/markdown",
    ".markdown": "text/markdown",
    ".pdf": "application/pdf",
    # Configuration is stored as the text it is, with its own type: manifests, compose files
    # and settings state how services depend on each other.
    ".yaml": "application/yaml",
    ".yml": "application/yaml",
    ".json": "application/json",
    ".toml": "application/toml",
    ".properties": "text/x-java-properties",
    # KEY=value lines a compose file takes its services' settings from (`.env`, `app.env`).
    ".env": "text/x-dotenv",
    # A server's configuration file (nginx's `proxy_pass` states where it sends requests).
    ".conf": "text/x-conf",
}
# `.env` is hidden: a folder's is ingested only when asked (it often holds secrets).
ENV_FILE = ".env"
TEXT_TYPES = ("text/plain", "text/markdown", "application/yaml", "application/json",
              "application/toml", "text/x-java-properties", "text/x-dotenv",
              "text/x-conf")  # fmt: skip
SUPPORTED_TYPES = (*TEXT_TYPES, "application/pdf")
# Read for their structure too (chunked by indentation, settings read as relations).
CONFIGURATION_TYPES = (
    "application/yaml", "application/json", "application/toml", "text/x-java-properties",
    "text/x-dotenv", "text/x-conf",
)  # fmt: skip


@dataclass(frozen=True)
class SourceFile:
    path: Path
    name: str


def media_type_for(name: str, data: bytes | None = None) -> str:
    """The media type from the name's suffix; for bytes named without a suffix, sniff PDF."""
    suffix = Path(name).suffix.lower()
    if Path(name).name == ENV_FILE:
        return MEDIA_TYPES[ENV_FILE]
    if suffix in MEDIA_TYPES:
        return MEDIA_TYPES[suffix]
    if data is not None and not suffix:
        return "application/pdf" if data.startswith(b"%PDF-") else "text/plain"
    raise InvalidDocument(
        f"{name}: unsupported file type {suffix or '(no suffix)'!r}; citegraph ingests "
        f"{', '.join(sorted(MEDIA_TYPES))}; to read it as text anyway: --type text/plain on the "
        "command line, media_type='text/plain' in Python"
    )


def check_media_type(media_type: str, label: str) -> str:
    if media_type not in SUPPORTED_TYPES:
        raise InvalidDocument(
            f"{label}: unsupported media type {media_type!r}; one of {', '.join(SUPPORTED_TYPES)}"
        )
    return media_type


def expand(
    paths: list[Path], env_files: bool = False, env_skipped: list[Path] | None = None
) -> tuple[list[SourceFile], list[Path]]:
    """Files to ingest and files skipped (unsupported suffix), from files and folders.

    A file given directly is named by its file name; a file found in a folder is named by the
    folder's name and its path below it (`alice/pg11.txt`), so names do not depend on the
    directory the command runs from. Hidden files and folders are skipped, and env files
    (`.env`, `prod.env`) unless `env_files` (their settings can then be quoted, secrets
    included); a file given directly is ingested whatever its name. Every path
    is checked before anything is read, so a typo stops the run before it stores anything.
    The env files skipped are added to `env_skipped` when it is given."""
    missing = [p for p in paths if not p.exists()]
    if missing:
        raise InputNotFound(f"no such file or folder: {', '.join(str(p) for p in missing)}")
    files: list[SourceFile] = []
    skipped: list[Path] = []
    for path in paths:
        if path.is_file():
            files.append(SourceFile(path, path.name))
            continue
        root = path.resolve()
        for folder, dirs, names in os.walk(root):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(names):
                dotenv = name == ENV_FILE or name.lower().endswith(ENV_FILE)
                if dotenv and not env_files:
                    if env_skipped is not None:  # `.env`, `prod.env`: secrets, maybe
                        env_skipped.append(Path(folder) / name)
                    continue
                if name.startswith(".") and not dotenv:
                    continue
                found = Path(folder) / name
                if found.suffix.lower() in MEDIA_TYPES or name == ENV_FILE:
                    files.append(SourceFile(found, f"{root.name}/{found.relative_to(root)}"))
                else:
                    skipped.append(found)
    return files, skipped
