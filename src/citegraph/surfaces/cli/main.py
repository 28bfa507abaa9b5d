"""The `citegraph` command: every command module registers on the one app; nothing else
imports this module, so the commands never import each other."""

from __future__ import annotations

import signal
import sys

from . import (  # noqa: F401  (they register)
    adoption,
    answers,
    backups,
    demo,
    documents,
    evaluation,
    extraction,
    graph,
    graph_query,
    service,
    store,
)
from .common import app, err

__all__ = ["app", "main"]


def _terminate(signum: int, _frame: object) -> None:
    # Turn SIGTERM into a normal exit so the embedded server is shut down in order.
    raise SystemExit(128 + signum)


def main() -> None:
    signal.signal(signal.SIGTERM, _terminate)
    try:
        app()
    except KeyboardInterrupt:
        err.print("interrupted")
        sys.exit(130)
