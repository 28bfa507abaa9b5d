"""`OpenAIChat`: any OpenAI-compatible chat endpoint (OpenAI, Ollama, vLLM, llama.cpp server).

Configured by arguments, or from Settings with `from_settings` (`CITEGRAPH_CHAT_MODEL`,
`CITEGRAPH_CHAT_BASE_URL`, `CITEGRAPH_CHAT_API_KEY`, `CITEGRAPH_CHAT_TIMEOUT`). Timeouts and
retries with backoff on 429 and 5xx come from the official client. A transport failure is an
error (`ChatModelError`), never a refusal; token usage is read when the server reports it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..config import Settings
from ..errors import ChatModelError, ConfigError
from .chat import ChatReply, Message


class OpenAIChat:
    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout_s: float = 60.0,
        max_retries: int = 3,
    ):
        import openai

        if not model:
            raise ConfigError("no chat model: name one (model=, CITEGRAPH_CHAT_MODEL, --model)")
        self.name = model
        self._client: Any = openai.OpenAI(
            base_url=base_url or None,
            # Local servers (Ollama, llama.cpp) need no key, but the client wants one.
            api_key=api_key or "not-needed",
            timeout=timeout_s,
            max_retries=max_retries,
        )
        self._errors: tuple[type[Exception], ...] = (openai.OpenAIError,)

    @classmethod
    def from_settings(cls, settings: Settings) -> OpenAIChat:
        return cls(
            settings.chat_model or "",
            base_url=settings.chat_base_url,
            api_key=settings.chat_api_key,
            timeout_s=settings.chat_timeout_s,
        )

    def complete(self, messages: Sequence[Message]) -> ChatReply:
        try:
            response = self._client.chat.completions.create(
                model=self.name,
                messages=[{"role": m.role, "content": m.content} for m in messages],
                temperature=0,
            )
        except self._errors as exc:
            raise ChatModelError(f"the chat model {self.name!r} failed: {exc}") from exc
        except ValueError as exc:  # a body that is not JSON reaches us as a decoding error
            raise ChatModelError(f"the chat model {self.name!r} sent a malformed reply") from exc
        try:
            text = response.choices[0].message.content
        except (AttributeError, IndexError, TypeError) as exc:
            raise ChatModelError(f"the chat model {self.name!r} sent a malformed reply") from exc
        if not isinstance(text, str):
            raise ChatModelError(f"the chat model {self.name!r} sent no text")
        usage = getattr(response, "usage", None)
        return ChatReply(
            text,
            input_tokens=getattr(usage, "prompt_tokens", None),
            output_tokens=getattr(usage, "completion_tokens", None),
        )
