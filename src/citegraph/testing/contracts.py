"""Contract suites, shipped so that every implementation of a seam passes the same tests:
a graph store (through the workspace API), a chat model, an extractor. Subclass one in a test
module and give it its fixture (pytest collects the subclass, named Test...):

    class TestMyStore(StoreContract):
        @pytest.fixture
        def space(self) -> Scope: ...          # an empty scope of the store under test

    class TestMyModel(ChatModelContract):
        @pytest.fixture
        def chat(self) -> ChatModel: ...       # replies to any conversation
        @pytest.fixture
        def broken_chat(self) -> ChatModel: ...  # its endpoint fails

    class TestMyExtractor(ExtractorContract):
        @pytest.fixture
        def extractor(self) -> Extractor: ...

Needs pytest (a test dependency, not one of citegraph's).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from ..errors import ChatModelError, DocumentNotFound, InvalidDocument, UsageError
from ..extract.offline import Extractor
from ..models.chat import ChatModel, Message
from ..scope import Scope
from ..values.documents import IngestStatus
from ..values.facts import EntityFact, Facts, Passage

NORTHWIND = "Northwind Retail reports that the invoice export drops the currency column."


class StoreContract:
    """What every graph store must do, through the workspace API (`space`: an empty scope)."""

    def test_documents_are_stored_whole_replaced_and_deleted(self, space: Scope) -> None:
        text = ("A line about the harbour wall, with “quotes” and ünïcödé.\n" * 200).encode()
        [created] = space.ingest(text, name="wall.txt")
        assert created.status is IngestStatus.CREATED
        assert space.stored_text(created.document.id) == text
        chunks = list(space.chunks(created.document.id))
        assert [c.start_byte for c in chunks[1:]] == [c.end_byte for c in chunks[:-1]]
        assert chunks[0].start_byte == 0 and chunks[-1].end_byte == len(text)
        [same] = space.ingest(text, name="wall.txt")
        assert same.status is IngestStatus.UNCHANGED
        [replaced] = space.ingest(text + b"One more line.\n", name="wall.txt")
        assert replaced.status is IngestStatus.REPLACED
        assert space.stored_text("wall.txt") == text + b"One more line.\n"
        assert [d.name for d in space.documents()] == ["wall.txt"]
        space.delete_document("wall.txt")
        assert space.documents() == []
        with pytest.raises(DocumentNotFound):
            space.document("wall.txt")

    def test_verdicts_are_the_same(self, space: Scope) -> None:
        space.remember(
            "ticket",
            Facts(entities=(EntityFact("Northwind Retail", "Company"),)),
            [Passage(NORTHWIND, ("Northwind Retail",))],
        )
        grounded = space.context("What does Northwind Retail report about the invoice export?")
        assert grounded.verdict.state == "grounded"
        assert any("currency column" in item.text for item in grounded.items)
        related = space.context("What does Northwind Retail report about the export deadline?")
        assert related.verdict.state == "related" and "deadline" in related.verdict.uncovered
        assert space.context("What does Contoso say about payroll?").verdict.state != "grounded"

    def test_answers_are_verified_or_refused(self, space: Scope) -> None:
        space.ingest(NORTHWIND.encode(), name="ticket.txt")
        answer = space.ask("What does Northwind Retail report about the invoice export?")
        assert answer.disposition.value == "answered"
        for citation in answer.citations:
            stored = space.stored_text(citation.document_id)
            assert stored[citation.start_byte : citation.end_byte] == citation.quote.encode()
        refusal = space.ask("What does Contoso say about payroll?")
        assert refusal.disposition.value == "refused" and refusal.reason is not None

    def test_bad_input_changes_nothing(self, space: Scope) -> None:
        space.ingest(b"Kept.", name="kept.txt")
        for bad in (b"\xff\xfe\xfa not utf-8", b"", b"\x89PNG\r\n\x1a\n\x00\x00"):
            with pytest.raises(InvalidDocument):
                space.ingest(bad, name="bad.txt")
        with pytest.raises(UsageError, match="NUL"):
            space.ingest(b"text", name="nul\x00name.txt")
        assert [d.name for d in space.documents()] == ["kept.txt"]

    def test_readers_and_a_writer_at_once(self, space: Scope) -> None:
        notes = [(f"n{i}.txt", f"Note {i} on the tide gauge.".encode()) for i in range(30)]
        space.ingest_many(notes)

        def read(_: int) -> str:
            return space.context("What do the notes say about the tide gauge?").verdict.state.value

        def write(i: int) -> None:
            space.ingest(f"Later note {i} on the tide gauge.".encode(), name=f"later{i}.txt")

        with ThreadPoolExecutor(6) as pool:
            writes = [pool.submit(write, i) for i in range(6)]
            states = list(pool.map(read, range(30)))
            for w in writes:
                w.result()
        assert set(states) == {"grounded"}
        assert len(space.documents()) == 36

    def test_index_states_are_reported(self, space: Scope) -> None:
        space.ingest(b"Anything at all.", name="a.txt")
        states = space.index_states()
        assert states and set(states.values()) == {"OPERATIONAL"}, states


ASK = [Message("system", "Reply with JSON only."), Message("user", "Who keeps the ledger?")]


class ChatModelContract:
    """What every chat model must do (`chat`: one that replies; `broken_chat`: one whose
    endpoint fails)."""

    def test_it_names_itself(self, chat: ChatModel) -> None:
        assert isinstance(chat.name, str) and chat.name.strip()

    def test_a_reply_is_text_with_optional_token_counts(self, chat: ChatModel) -> None:
        reply = chat.complete(ASK)
        assert isinstance(reply.text, str)
        for count in (reply.input_tokens, reply.output_tokens):
            assert count is None or (isinstance(count, int) and count >= 0)

    def test_a_failure_is_an_error_never_a_reply(self, broken_chat: ChatModel) -> None:
        # An answerer would read a made-up reply as the model's: a failure must be raised.
        with pytest.raises(ChatModelError):
            broken_chat.complete(ASK)


class ExtractorContract:
    """What every extractor must do (`extractor`). Names it proposes are located in the chunk
    by citegraph before anything is kept, so an extractor may be wrong, never harmful."""

    TEXT = (
        "When the payment gateway times out, the checkoutservice releases the stock. "
        "Northwind Retail said the Bank of England approved it."
    )

    def test_candidates_are_named_and_typed(self, extractor: Extractor) -> None:
        found = extractor.candidates(self.TEXT, "Checkout notes")
        assert found, "nothing proposed for a text full of names"
        for candidate in found:
            assert candidate.name.strip() and candidate.type.strip()

    def test_the_same_text_gives_the_same_candidates(self, extractor: Extractor) -> None:
        assert extractor.candidates(self.TEXT, None) == extractor.candidates(self.TEXT, None)

    @pytest.mark.parametrize(
        "text", ["", "   \n\t", "北风零售报告了什么？", "') RETURN 1 // DELETE n", "x" * 20_000]
    )
    def test_any_text_is_taken_without_error(self, extractor: Extractor, text: str) -> None:
        assert isinstance(extractor.candidates(text, None), list)
