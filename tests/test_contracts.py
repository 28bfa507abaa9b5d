"""The shipped chat model and extractor contracts, on citegraph's own implementations: the
scripted, replayed and OpenAI-compatible chat models (the last against the stub server over
real HTTP), and the offline extractor."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from citegraph import ChatModelError, Message, OfflineExtractor, ReplayChat, ScriptedChat
from citegraph.extract.offline import Extractor
from citegraph.models.chat import ChatModel
from citegraph.models.openai_chat import OpenAIChat
from citegraph.testing import Exchange, OpenAIStubServer
from citegraph.testing.contracts import ChatModelContract, ExtractorContract


def _fail(messages: Sequence[Message]) -> str:
    raise ChatModelError("the endpoint answered 500")


class TestScriptedChat(ChatModelContract):
    @pytest.fixture
    def chat(self) -> ChatModel:
        return ScriptedChat(lambda messages: '{"declined": "no"}')

    @pytest.fixture
    def broken_chat(self) -> ChatModel:
        return ScriptedChat(_fail)


class TestReplayChat(ChatModelContract):
    @pytest.fixture
    def chat(self, tmp_path: Path) -> ChatModel:
        return ReplayChat(tmp_path / "cassette.json", ScriptedChat(lambda m: "{}"))

    @pytest.fixture
    def broken_chat(self, tmp_path: Path) -> ChatModel:
        return ReplayChat(tmp_path / "empty.json")  # nothing recorded, nothing to record from


class TestOpenAIChat(ChatModelContract):
    @pytest.fixture
    def chat(self) -> Iterator[ChatModel]:
        with OpenAIStubServer(lambda messages: '{"declined": "no"}') as stub:
            yield OpenAIChat("stub", base_url=stub.url)

    @pytest.fixture
    def broken_chat(self) -> Iterator[ChatModel]:
        failing = [Exchange(500, '{"error": {"message": "down"}}')] * 3
        with OpenAIStubServer(failing) as stub:
            yield OpenAIChat("stub", base_url=stub.url, max_retries=1)


class TestOfflineExtractor(ExtractorContract):
    @pytest.fixture
    def extractor(self) -> Extractor:
        return OfflineExtractor()
