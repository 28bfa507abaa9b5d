"""Multi-passage evidence: a passage the question needs only through what another names."""

from __future__ import annotations

import os

from citegraph import Scope, Workspace


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


def _titled_scope(workspace: Workspace, docs: list[tuple[str, str]]) -> Scope:
    scope = workspace.scope(f"bridge{os.getpid()}_{len(docs)}_{docs[0][0][:4]}")
    scope.ingest_many(
        [(title, text.encode(), title) for title, text in docs], media_type="text/plain"
    )
    return scope


def test_a_title_that_starts_with_the_name_is_a_bridge_when_the_words_agree(
    workspace: Workspace,
) -> None:
    docs = [
        ("Kent Baer", "Kent Baer is an American football coach. He is the defensive "
         "coordinator at UNLV."),
        ("UNLV Rebels football", "The UNLV Rebels play their home games at Sam Boyd Stadium."),
        ("Gulch Lions football", "The Gulch Lions play their home games at the old yard."),
        *((f"Coach {n}", f"Coach {n} was a defensive coordinator for a season.")
          for n in range(12)),
        *((f"Arena {n}", f"The team of Arena {n} plays its home games in a stadium.")
          for n in range(12)),
    ]  # fmt: skip
    scope = _titled_scope(workspace, docs)
    evidence = scope.context("What stadium does the team of Kent Baer play its home games in?")
    names = [item.document_name for item in evidence.items]
    assert names[0] == "Kent Baer"
    assert names.index("UNLV Rebels football") <= 2
    by_document = {item.document_name: item for item in evidence.items}
    assert "bridge" in by_document["UNLV Rebels football"].retrievers


def test_a_longer_title_the_question_does_not_touch_is_no_bridge(workspace: Workspace) -> None:
    docs = [
        ("Kent Baer", "Kent Baer is an American football coach. He grew up in Australia."),
        ("Australia at the Cricket World Cup", "Australia has won the Cricket World Cup."),
        *((f"Coach {n}", f"Coach {n} was a defensive coordinator for a season.")
          for n in range(12)),
    ]  # fmt: skip
    scope = _titled_scope(workspace, docs)
    evidence = scope.context("Which team does the defensive coordinator Kent Baer coach?")
    for item in evidence.items:
        assert "bridge" not in item.retrievers


def test_documents_the_question_names_by_title_come_first(workspace: Workspace) -> None:
    docs = [
        ("Coldplay", "Coldplay are a British rock band formed in London in 1996."),
        ("Pierre Bouvier", "Pierre Bouvier is a Canadian singer from Montreal."),
        *((f"Pierre {n}", f"Pierre {n} was a singer from the same country as a band.")
          for n in range(12)),
        *((f"Band {n}", f"Band {n} is from the same country as Coldplay and Pierre Bouvier.")
          for n in range(12)),
    ]  # fmt: skip
    scope = _titled_scope(workspace, docs)
    evidence = scope.context("Are both Coldplay and Pierre Bouvier from the same country?")
    first_two = {item.document_name for item in evidence.items[:2]}
    assert first_two == {"Coldplay", "Pierre Bouvier"}
    assert all("title" in item.retrievers for item in evidence.items[:2])
    # A title shared by two documents names neither.
    scope.ingest_many(
        [("Coldplay (copy)", b"Coldplay again.", "Coldplay")], media_type="text/plain"
    )
    again = scope.context("Are both Coldplay and Pierre Bouvier from the same country?")
    titled = [item.document_name for item in again.items if "title" in item.retrievers]
    assert titled == ["Pierre Bouvier"]
