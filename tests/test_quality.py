"""The code stays typed (mypy strict on src/) and ruff clean: part of the suite, not a chore."""

from __future__ import annotations

import subprocess
import sys

from helpers import ROOT


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], capture_output=True, text=True, cwd=ROOT, check=False
    )


def test_ruff_lint() -> None:
    result = _run("ruff", "check", "src", "tests", "bench")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format() -> None:
    result = _run("ruff", "format", "--check", "src", "tests", "bench")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict() -> None:
    result = _run("mypy")
    assert result.returncode == 0, result.stdout + result.stderr


def test_package_is_marked_typed() -> None:
    assert (ROOT / "src" / "citegraph" / "py.typed").exists()
