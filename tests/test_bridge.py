"""Multi-passage evidence: a passage the question needs only through what another names."""

from __future__ import annotations

import os

from citegraph import Workspace


def test_a_name_in_the_best_passage_brings_its_own_passage_in(workspace: Workspace) -> None:
    scope = workspace.scope(f"bridge{os.getpid()}")
    docs = [
        ("Kent Baer", "Kent Baer is an American football coach. He is the defensive "
         "coordinator of the Marlow Harriers."),
        ("Marlow Harriers", "The Marlow Harriers are based at Quarry Field, by the river."),
        ("Quarry Field", "Quarry Field seats nine thousand."),
        *((f"Coach {n}", f"Coach {n} was a defensive coordinator for a season.")
          for n in range(12)),
    ]  # fmt: skip
    scope.ingest_many(
        [(title, text.encode(), title) for title, text in docs], media_type="text/plain"
    )
    question = "Which ground does the side of Kent Baer use?"
    evidence = scope.context(question)
    by_document = {item.document_name: item for item in evidence.items}
    assert "Kent Baer" in by_document
    bridged = by_document["Marlow Harriers"]
    assert "bridge" in bridged.retrievers
    names = [item.document_name for item in evidence.items]
    assert names.index("Marlow Harriers") <= 2  # right after the passage that leads to it
    # Without graph steps, no bridge.
    flat = scope.context(question, hops=0)
    assert all("bridge" not in item.retrievers for item in flat.items)
