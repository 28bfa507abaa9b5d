"""Fast commands: `--help` and `--version` load no store, server, model or PDF code, and each
command loads only what it uses (the time each takes is measured in bench/cli_start.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from helpers import env_with

# (typer itself loads pydantic to parse a command's options.)
SERVICE = {"fastapi", "starlette", "uvicorn", "mcp"}
MODELS = {"openai", "sentence_transformers", "torch"}
PDF = {"pypdfium2"}
STORE = {"falkordb", "redis"}

_PROGRAM = """
import atexit, sys
def _report():
    print("MODULES", " ".join(sorted({m.split(".")[0] for m in sys.modules})))
atexit.register(_report)
sys.argv = ["citegraph", *sys.argv[1:]]
from citegraph.surfaces.cli.main import main
main()
"""


def _loaded(*args: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", _PROGRAM, *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env_with(),
        check=False,
    )
    assert done.returncode == 0, done.stderr
    line = next(ln for ln in done.stdout.splitlines() if ln.startswith("MODULES "))
    return set(line.split()[1:])


def test_help_and_version_load_nothing_heavy() -> None:
    for args in (["--help"], ["--version"], ["ingest", "--help"], ["serve", "--help"]):
        loaded = _loaded(*args)
        assert not loaded & (SERVICE | MODELS | PDF | STORE), (
            args,
            loaded & (SERVICE | MODELS | PDF | STORE),
        )


def test_store_commands_load_the_store_but_not_the_service(tmp_path: Path) -> None:
    note = tmp_path / "note.txt"
    note.write_text("The harbour master keeps the tide tables.\n")
    home = str(tmp_path / "home")
    loaded = _loaded("ingest", str(note), "--home", home)
    assert "falkordb" in loaded
    assert not loaded & (SERVICE | MODELS | PDF), loaded & (SERVICE | MODELS | PDF)
    loaded = _loaded("docs", "--home", home)
    assert not loaded & (SERVICE | MODELS | PDF), loaded & (SERVICE | MODELS | PDF)
