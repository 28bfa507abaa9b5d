"""The graph walk keeps the edges it took: each entity's path back to a seed, hop by hop, with
the relation's type, its direction as stored, and the quote and span it was located at."""

from __future__ import annotations

from citegraph import EntityFact, Facts, Passage, RelationFact, Scope, TraversalPolicy
from citegraph.retrieve.walk import walk

CHECKOUT = "The checkout service calls the payment service to capture the card."
PAYMENT = "The fraud service is called by the payment service before each capture."


def test_each_reached_entity_has_its_path_back_to_a_seed(scope: Scope) -> None:
    result = scope.remember(
        "architecture notes",
        Facts(
            entities=tuple(
                EntityFact(name, "Service")
                for name in ("checkout service", "payment service", "fraud service")
            ),
            relations=(
                RelationFact("checkout service", "payment service", "CALLS"),
                # Stored pointing at payment: the walk goes against it, and says so.
                RelationFact("fraud service", "payment service", "CALLED_BY"),
            ),
        ),
        [
            Passage(CHECKOUT, ("checkout service", "payment service")),
            Passage(PAYMENT, ("fraud service", "payment service")),
        ],
    )
    assert result.relations_grounded == 2
    policy = TraversalPolicy(relation_types=frozenset({"CALLS", "CALLED_BY"}))
    reached = walk(scope.graph, ["Service:checkout service"], 2, policy)
    assert reached.entities == {
        "Service:checkout service": 0,
        "Service:payment service": 1,
        "Service:fraud service": 2,
    }
    first, second = reached.path("Service:fraud service")
    assert (first.hop, first.source, first.target, first.type, first.forward) == (
        1, "Service:checkout service", "Service:payment service", "CALLS", True,
    )  # fmt: skip
    assert (second.hop, second.source, second.target, second.type, second.forward) == (
        2, "Service:payment service", "Service:fraud service", "CALLED_BY", False,
    )  # fmt: skip
    for edge, passage in ((first, CHECKOUT), (second, PAYMENT)):
        assert edge.citable and not edge.weak and edge.quote is not None
        assert edge.quote in passage and edge.chunk_id
        stored = scope.stored_text(edge.chunk_id.rsplit("-", 2)[0])
        assert stored[edge.start_byte : edge.end_byte].decode() == edge.quote
    assert reached.path("Service:checkout service") == []


def test_co_mentions_the_walk_keeps_are_quoted_by_their_sentence(scope: Scope) -> None:
    """Co-mentions are read from the mentions of one sentence; the walk quotes the sentence of
    each it keeps, and the quote is the stored bytes at the edge's span."""
    text = (
        "Ada Lovelace corresponded with Charles Babbage and Mary Somerville in London. The"
        " Analytical Engine was never built.\n\nThe Difference Engine drew Joseph Clement"
        " to the Science Museum.\n"
    )
    scope.ingest(text.encode(), name="engines.txt")
    (seed,) = [i.key for i in scope.entities("Ada Lovelace")]
    reached = walk(scope.graph, [seed], 2, TraversalPolicy(include_weak=True))
    kept = [reached.via[key] for key in reached.entities if key != seed]
    assert {e.target for e in kept} == {
        "name:charles babbage", "name:mary somerville", "name:london",
    }  # fmt: skip
    for edge in kept:
        assert edge.type == "CO_MENTIONED" and edge.weak and edge.citable
        assert edge.quote == text[: text.index("London.") + len("London.")]
        assert edge.chunk_id is not None and edge.start_byte is not None
        stored = scope.stored_text(edge.chunk_id.rsplit("-", 2)[0])
        assert stored[edge.start_byte : edge.end_byte].decode() == edge.quote
