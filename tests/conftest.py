from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

import citegraph
from citegraph import Scope, Workspace

from network_guard import block_network

ROOT = Path(__file__).resolve().parent.parent
DATASETS = Path(os.environ.get("CITEGRAPH_DATASETS", ROOT.parent / "shared" / "datasets"))

_counter = itertools.count()

# A store that stops answering fails the test in a minute instead of hanging the suite.
os.environ.setdefault("CITEGRAPH_QUERY_TIMEOUT", "60")
# Each test's store stops with its last client, as before lingering existed; the tests of the
# linger time set it themselves.
os.environ.setdefault("CITEGRAPH_STORE_LINGER", "0")


# Tests never reach a real model: a chat model named in the environment of whoever runs them
# is set aside (a test that wants one names the local stub).
for _name in ("CITEGRAPH_CHAT_MODEL", "CITEGRAPH_CHAT_BASE_URL", "CITEGRAPH_CHAT_API_KEY"):
    os.environ.pop(_name, None)
# And nothing in this process connects outside loopback (tests/test_network_guard.py).
block_network()


def dataset(relative: str) -> Path:
    """A path in the shared data sets; skips the test, saying why, when they are absent."""
    path = DATASETS / relative
    if not path.exists():
        pytest.skip(f"public data set not found at {path} (see ../shared/datasets/README.md)")
    return path


@pytest.fixture(scope="session")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    """One embedded store for the whole session; each test takes a scope of its own."""
    ws = citegraph.open(tmp_path_factory.mktemp("home"))
    yield ws
    ws.close()


@pytest.fixture
def scope(workspace: Workspace) -> Scope:
    return workspace.scope(f"t{os.getpid()}_{next(_counter)}")


def assert_tiles(scope: Scope, doc_id: str, expected: bytes | None = None) -> None:
    """The chunks of a document tile its stored text exactly, in order, without overlap."""
    doc = scope.document(doc_id)
    chunks = list(scope.chunks(doc_id))
    assert len(chunks) == doc.chunk_count > 0
    assert [c.ordinal for c in chunks] == list(range(len(chunks)))
    assert chunks[0].start_byte == 0
    for before, after in itertools.pairwise(chunks):
        assert before.end_byte == after.start_byte
    assert chunks[-1].end_byte == doc.size_bytes
    text = b"".join(c.text.encode("utf-8") for c in chunks)
    assert len(text) == doc.size_bytes
    for c in chunks:
        assert text[c.start_byte : c.end_byte] == c.text.encode("utf-8")
    if expected is not None:
        assert text == expected
    import hashlib

    assert hashlib.sha256(text).hexdigest() == doc.sha256
