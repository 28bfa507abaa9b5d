"""The rewrite is traced as a span that carries counts and the outcome, never text."""

from __future__ import annotations

import pytest
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from citegraph import Scope, Turn
from citegraph.answer import followup


@pytest.fixture
def spans(monkeypatch: pytest.MonkeyPatch) -> InMemorySpanExporter:
    """The rewrite's tracer, from a provider of this test's own (the global one untouched)."""
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    monkeypatch.setattr(followup, "_tracer", provider.get_tracer("citegraph"))
    return exporter


def test_the_rewrite_span_has_no_text(scope: Scope, spans: InMemorySpanExporter) -> None:
    scope.ingest(b"Reid Wiseman commands Artemis II. Wiseman works for NASA.", name="a.md")
    _exporter = spans
    question = "Which organization does he work for?"
    scope.ask(question, [Turn("Who commands Artemis II?", "Reid Wiseman commands Artemis II.")])
    [span] = [s for s in _exporter.get_finished_spans() if s.name == "citegraph.rewrite"]
    attributes = dict(span.attributes or {})
    assert attributes["citegraph.turns_used"] == 1
    assert attributes["citegraph.outcome"] == "rewritten"
    for value in attributes.values():
        assert not isinstance(value, str) or value in {
            "rewritten",
            "unchanged",
            "unreadable",
            "unresolved",
        }
