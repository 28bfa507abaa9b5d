"""`LLMExtractor`: entities and relations proposed by a chat model, one call per window of
chunks. The fixed instructions come first and the chunk last, so a provider can cache the
prefix. The reply must be the JSON asked for (one code fence tolerated); anything else is an
unreadable reply, counted, and proposes nothing. Optionally (off by default), "gleaning": the
same conversation goes on for more rounds, each asking for what the replies so far missed;
each round is one more call, cached and counted like the first. Nothing proposed is kept
before grounding locates it."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from typing import Any

from ..models.chat import ChatModel, ChatReply, Message
from ..values.proposals import (
    EntityProposal,
    Proposal,
    RelationProposal,
    merged,
    model_words,
)
from .cost import prompt_tokens as count_prompt
from .modality import DEFAULT_CUES, CueTable

PROMPT_VERSION = "extract/1"
GENERAL_TYPES = ("person", "organization", "place", "event", "work", "concept")
ENGINEERING_TYPES = ("service", "datastore", "queue", "api", "setting", "team")
ENGINEERING_RELATIONS = ("calls", "reads", "writes", "depends-on", "publishes", "consumes")
GENERAL_RELATIONS = ("part-of", "located-in", "member-of", "works-for", "leads", "created")
# The schemas `citegraph extract --schema` names: (entity types, relation types).
SCHEMAS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "engineering": (ENGINEERING_TYPES, ENGINEERING_RELATIONS),
    "general": (GENERAL_TYPES, GENERAL_RELATIONS),
}
# Consecutive chunks of a document sent in one call (about 2,000 tokens with the default
# 2,000-byte chunks): fewer calls, the fixed instructions paid once per window. Grounding
# still places every name and quote in the one chunk that holds it.
CHUNKS_PER_CALL = 4
_FENCE = re.compile(r"\A```[a-zA-Z]*\n(.*)\n```\Z", re.S)

INSTRUCTIONS = """\
You extract a knowledge graph from one passage. Reply with JSON only, no prose:
{"entities": [{"name": ..., "type": ...}],
 "relations": [{"source": ..., "target": ..., "type": ..., "quote": ...}]}
Rules:
- A name is written exactly as in the passage.
- A relation's quote is copied word for word from the passage: the shortest sentence or
  phrase that states it, naming both its source and its target.
- Only what the passage states. Nothing from your own knowledge.
Entity types: {entity_types}. Relation types: {relation_types}, or a short verb phrase.
"""

# Asked only of an extractor made with `describe=True` (its name says so): a relation's
# description is the model's words, stored beside the quote and never shown as a citation.
DESCRIBE_RULE = """\
- Each relation may also have a "description": one short sentence in your own words about
  it. It is shown as your words, never as a quote.
"""

# A gleaning round's question, after the model's last reply in the same conversation. Its
# version is part of a gleaning reply's cache key.
GLEAN_VERSION = "glean/1"
GLEAN_PROMPT = """\
Some entities and relations the passage states may be missing from your replies so far.
Reply with JSON only, in the same form, holding only those not given yet (empty lists if
none). The same rules hold: names and quotes copied word for word from the passage.
"""


class LLMExtractor:
    """Proposes entities and relations with `model`; `entity_types` and `relation_types` are
    the schema shown to it (engineering defaults: services, datastores, calls, reads...).
    One call covers `chunks_per_call` consecutive chunks of a document; `gleanings` more
    calls (0 by default) each ask, in the same conversation, for what was missed. Up to
    `concurrency` calls are in flight at once (extract/ahead.py; 1: one after another).
    `describe`: also ask for each relation's description in the model's words (stored as
    such, never cited); a description a reply gives unasked is kept the same way. `cues`:
    what kept relations are read for negation and modality with (the replies do not depend
    on them: they are cached alike)."""

    def __init__(
        self,
        model: ChatModel,
        entity_types: Sequence[str] = ENGINEERING_TYPES,
        relation_types: Sequence[str] = ENGINEERING_RELATIONS,
        chunks_per_call: int = CHUNKS_PER_CALL,
        gleanings: int = 0,
        concurrency: int = 1,
        describe: bool = False,
        cues: CueTable = DEFAULT_CUES,
    ):
        if chunks_per_call < 1:
            raise ValueError("chunks_per_call must be at least 1")
        if gleanings < 0:
            raise ValueError("gleanings must be 0 or more")
        if concurrency < 1:
            raise ValueError("concurrency must be at least 1")
        self.model = model
        self.chunks_per_call = chunks_per_call
        self.gleanings = gleanings
        self.concurrency = concurrency  # how it is called, not what it proposes: not in name
        self._system = INSTRUCTIONS.replace("{entity_types}", ", ".join(entity_types)).replace(
            "{relation_types}", ", ".join(relation_types)
        ) + (DESCRIBE_RULE if describe else "")
        # What extracted a document names the prompt: another schema is another extractor.
        schema = (tuple(entity_types), tuple(relation_types))
        suffix = (
            ""
            if schema == (ENGINEERING_TYPES, ENGINEERING_RELATIONS)
            else (":" + hashlib.sha256(self._system.encode()).hexdigest()[:8])
        )
        # Gleaning proposes more: another extractor, whose first replies are still cached.
        glean = f"+{GLEAN_VERSION}x{gleanings}" if gleanings else ""
        described = "+describe" if describe else ""
        self.cues = cues
        read = f"+cues:{cues.digest}" if cues.digest is not None else ""
        self.name = f"llm:{model.name}:{PROMPT_VERSION}{suffix}{described}{glean}{read}"

    def messages(self, text: str, title: str | None) -> list[Message]:
        heading = f"Title: {title}\n\n" if title else ""
        return [Message("system", self._system), Message("user", f"{heading}Passage:\n{text}")]

    def cache_key(self, text: str, title: str | None) -> str:
        """What a reply depends on: the chunk's bytes, the prompt (its version and schema),
        the model and its parameters. The same key, the same reply may be reused."""
        parameters = getattr(self.model, "parameters", {})
        material = json.dumps(
            [PROMPT_VERSION, self.model.name, parameters, self._system, title or "",
             hashlib.sha256(text.encode()).hexdigest()],
            sort_keys=True,
        )  # fmt: skip
        return hashlib.sha256(material.encode()).hexdigest()

    def prompt_tokens(self, text: str, title: str | None) -> int:
        return count_prompt([m.content for m in self.messages(text, title)])

    def ask(self, text: str, title: str | None) -> ChatReply:
        return self.model.complete(self.messages(text, title))

    # -- gleaning: the conversation goes on, each round after the replies before it --------

    def glean_messages(
        self, text: str, title: str | None, earlier: Sequence[ChatReply]
    ) -> list[Message]:
        """The conversation of the gleaning round after the replies `earlier` (the first
        call's, then each round's): each reply, then the question what it missed."""
        messages = self.messages(text, title)
        for reply in earlier:
            messages += [Message("assistant", reply.text), Message("user", GLEAN_PROMPT)]
        return messages

    def glean_key(self, text: str, title: str | None, earlier: Sequence[ChatReply]) -> str:
        """A gleaning reply depends on the first call's key and on every reply before it."""
        material = json.dumps(
            [GLEAN_VERSION, GLEAN_PROMPT, self.cache_key(text, title),
             [hashlib.sha256(r.text.encode()).hexdigest() for r in earlier]]
        )  # fmt: skip
        return hashlib.sha256(material.encode()).hexdigest()

    def glean_prompt_tokens(
        self, text: str, title: str | None, earlier: Sequence[ChatReply]
    ) -> int:
        return count_prompt([m.content for m in self.glean_messages(text, title, earlier)])

    def glean(self, text: str, title: str | None, earlier: Sequence[ChatReply]) -> ChatReply:
        return self.model.complete(self.glean_messages(text, title, earlier))

    def read(self, reply: ChatReply, calls: int = 1) -> Proposal:
        """The proposal in a reply (`calls`: 0 for a reply taken from the cache)."""
        parsed = _parse(reply.text)
        entities, relations = parsed if parsed is not None else ((), ())
        return Proposal(
            entities,
            relations,
            calls=calls,
            input_tokens=reply.input_tokens if calls else 0,
            output_tokens=reply.output_tokens if calls else 0,
            unreadable=parsed is None,
        )

    def propose(self, text: str, title: str | None = None) -> Proposal:
        """Ask, and glean `gleanings` rounds (no cache, no budget: extraction's runs
        give those, extract/calls.py)."""
        replies = [self.ask(text, title)]
        proposal = self.read(replies[0])
        for _ in range(self.gleanings if not proposal.unreadable else 0):
            replies.append(self.glean(text, title, replies))
            proposal = merged(proposal, self.read(replies[-1]))
        return proposal


def _parse(
    reply: str,
) -> tuple[tuple[EntityProposal, ...], tuple[RelationProposal, ...]] | None:
    body = reply.strip()
    fenced = _FENCE.match(body)
    if fenced:
        body = fenced.group(1).strip()
    try:
        data: Any = json.loads(body)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    entities, relations = data.get("entities", []), data.get("relations", [])
    if not isinstance(entities, list) or not isinstance(relations, list):
        return None
    found_entities = tuple(
        EntityProposal(e["name"], e["type"])
        for e in entities
        if isinstance(e, dict) and _strings(e, "name", "type")
    )
    # A relation without a quote (offsets instead, say) is kept as proposed with an empty
    # quote: grounding cannot locate it, and counts it as not-in-source.
    found_relations = tuple(
        RelationProposal(
            r["source"],
            r["target"],
            r["type"],
            str(r.get("quote") or ""),
            model_words(r.get("description")),
        )
        for r in relations
        if isinstance(r, dict) and _strings(r, "source", "target", "type")
    )
    return found_entities, found_relations


def _strings(item: dict[str, Any], *keys: str) -> bool:
    return all(isinstance(item.get(k), str) and item[k].strip() for k in keys)
