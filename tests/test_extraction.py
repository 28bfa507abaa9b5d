"""The offline entity layer: names proposed by shape, each mention located before it is kept."""

from __future__ import annotations

import os
from typing import Any

import pytest

from citegraph import IngestStatus, OfflineExtractor, Scope, Workspace
from citegraph.errors import StoreError
from citegraph.extract import run
from citegraph.store.entities import EntityRepository

from conftest import dataset

BOUTIQUE_DOCS = "engineering_docs/google_microservices-demo/docs"


def _names(text: str, title: str | None = None) -> set[tuple[str, str]]:
    return {(c.name, c.type) for c in OfflineExtractor().candidates(text, title)}


def test_shapes_of_names() -> None:
    found = _names(
        "When the origin-mapper restarts, the checkoutservice calls the payment-gateway and "
        "the Bank of England. NASA said HTTP2 is fine. Set `cart_id` in getUser first."
    )
    assert {
        ("origin-mapper", "identifier"),
        ("checkoutservice", "identifier"),
        ("payment-gateway", "identifier"),
        ("Bank of England", "name"),
        ("NASA", "acronym"),
        ("HTTP2", "acronym"),
        ("cart_id", "identifier"),
        ("getUser", "identifier"),
    } <= found
    assert not any(name in {"When", "Set", "the"} for name, _ in found)


def test_an_acronym_opens_a_longer_name_and_stays_a_name_of_its_own() -> None:
    """ "The HTTP Load Generator" is one name (it had been "HTTP" and "Load Generator", and
    "Load Generator" then read as the object of its own subject), and HTTP a name too;
    acronyms side by side stay apart, an acronym closes a name ("Amazon S3"), and a setting
    such as DB_HOST joins no name."""
    found = _names(
        "The HTTP Load Generator runs. When the US Congress met, HTTP GET requests went to "
        "Amazon S3 and DB_HOST Settings changed."
    )
    assert {
        ("HTTP Load Generator", "name"),
        ("HTTP", "acronym"),
        ("US Congress", "name"),
        ("US", "acronym"),
        ("GET", "acronym"),
        ("Amazon S3", "name"),
        ("S3", "acronym"),
    } <= found
    assert not {("Load Generator", "name"), ("HTTP GET", "name"), ("Congress", "name")} & found
    assert ("Amazon", "name") not in found
    assert not any(name.startswith("DB_HOST ") for name, _ in found)


def test_an_acronym_in_the_plural_is_no_name() -> None:
    found = _names("By default the URLs will use the APIs of ECR Public and AWS, not VMs.")
    assert found == {("ECR Public", "name"), ("AWS", "acronym"), ("ECR", "acronym")}


def test_a_word_that_only_opens_sentences_is_not_a_name() -> None:
    assert _names("Use the form. Then wait. Alice waits. Then Alice leaves.") == {("Alice", "name")}
    # A paragraph opens a sentence too, under a heading or a code block, with no full stop
    # before it.
    text = "## Setup\n\nQueries must use contexts.\n\n```\nrun()\n```\n\nWell, Alice waits."
    assert _names(text) == {("Setup", "name"), ("Alice", "name")}
    # A table cell holding a sentence opens one; a cell holding a name does not.
    table = (
        "| Service | Description |\n|---|---|\n"
        "| Redis | Continuously sends requests to Cart Service. Stores carts. |\n"
        "| Cart Service | Exposes an API. |\n"
    )
    found = _names(table)
    assert {("Redis", "name"), ("Cart Service", "name"), ("API", "acronym")} <= found
    assert not {name for name, _ in found} & {"Continuously", "Stores", "Exposes"}
    # A header row labels columns: its words open cells ("| Protocol | Use |" named both).
    table = "| Protocol | Use |\n| :--- | ---: |\n| SMTP | Mail to Postfix |\n"
    assert _names(table) == {("SMTP", "acronym"), ("Postfix", "name")}


def test_an_imperative_opening_a_list_item_or_a_link_is_not_a_name() -> None:
    """A list item or an image's text opens with a verb as a sentence does ("- Create and
    manage machines", "![Create a config](...)"; Sentry's and MongoDB's docs made "Create" and
    "Ensure" names, and relations of them). The item's subject ("- Shipping never calls"),
    its label ("- Receiver: receives") or its whole ("- Ruler") is still a name."""
    text = (
        "Goals:\n\n- Create and manage machines.\n* Ensure stored queries run.\n\n"
        "![Use a config](./x.png)\n\n- Shipping never calls Kafka.\n"
        "- Receiver: receives data.\n  + Ruler\n"
    )
    found = {name for name, _ in _names(text)}
    assert found == {"Shipping", "Kafka", "Receiver", "Ruler"}


def test_an_instruction_opening_a_line_or_a_sentence_is_no_part_of_a_name() -> None:
    """ "## Deploy Consul", "- Add Envoy to the gateway", "Use Visual Studio to build": the
    verb telling the reader what to do is no word of the name after it."""
    text = "## Deploy Consul\n\n- Add Envoy to the gateway.\n\nUse Visual Studio to build it.\n"
    assert _names(text) == {("Consul", "name"), ("Envoy", "name"), ("Visual Studio", "name")}


def test_an_instruction_in_ing_opening_a_line_or_a_sentence_is_no_part_of_a_name() -> None:
    """Titles and sentences say what to do in -ing as often: "## Configuring Loki", "- Running
    Bank of Anthos", "Using Swift requires OpenStack Keystone" (a held-out review found
    "Using Swift" stored as what depends on Keystone). A name in -ing stays one."""
    text = (
        "## Configuring Loki\n\n- Running Bank of Anthos locally.\n\n"
        "Using Swift requires OpenStack Keystone.\n\nThe Matching Service reads orders.\n"
    )
    assert {name for name, _ in _names(text)} == {
        "Loki", "Bank of Anthos", "Swift", "OpenStack Keystone", "Matching Service"
    }  # fmt: skip


def test_an_acronym_closes_a_name_but_a_roman_numeral_does_not() -> None:
    """ "Argo CD", "Gateway API", "Amazon S3" are one name each (and the acronym a name of
    its own); "Artemis II" is the mission Artemis and its number."""
    found = _names("Teams deploy with Argo CD and the Gateway API, and keep logs in Amazon S3.")
    assert {("Argo CD", "name"), ("Gateway API", "name"), ("Amazon S3", "name")} <= found
    assert {("CD", "acronym"), ("API", "acronym"), ("S3", "acronym")} <= found
    assert not {name for name, _ in found} & {"Argo", "Gateway", "Amazon"}
    found = _names("The crew of Artemis II flew past the Moon.")
    assert ("Artemis", "name") in found and "Artemis II" not in {name for name, _ in found}


def test_an_adverb_opening_an_item_is_not_a_name() -> None:
    """ "- **Always** use HTTPS": in bold, the adverb does not look like it opens the item,
    but an adverb alone is never a name."""
    text = "To reduce risk:\n\n- **Always use HTTPS** between Harbor and Argo CD.\n"
    found = {name for name, _ in _names(text)}
    assert "Always" not in found and {"Harbor", "Argo CD", "HTTPS"} <= found


def test_a_verb_opening_a_comment_or_a_heading_is_not_a_name() -> None:
    """A comment or heading that is a sentence opens with its verb ("# Turn this off",
    "## See the guide"); one that is a title opens with a name ("## Chatbot", "# Checkout
    service", "# Valkey used by the cart")."""
    text = (
        "# Turn this to False for calling the configured LLM\nFLAG=true\n"
        "// See the guide for Redis\n## Chatbot\n# Checkout service\n"
        "# Valkey used by the cart\n"
    )
    assert _names(text) == {
        ("LLM", "acronym"), ("FLAG", "acronym"), ("Redis", "name"), ("Chatbot", "name"),
        ("Checkout", "name"), ("Valkey", "name"), ("False", "name"),
    }  # fmt: skip


def test_a_sentence_case_titles_first_word_written_in_lower_case_in_prose_is_ordinary() -> None:
    """A title in sentence case capitalises its first word as a sentence does: "## Variable
    substitution" names no Variable where the prose writes "a variable" (a held-out review
    found "uses a variable" stored as a relation to it). A word the prose never writes in
    lower case (but in code), or a word for a component, stays the title's name."""
    text = "##### Variable substitution in CEL\n\nThe Pipeline Result uses a variable.\n"
    assert "Variable" not in {name for name, _ in _names(text)}
    text = (
        "## Helm charts\n\nRun `helm install` to deploy.\n\n## Frontend service\n\nThe frontend.\n"
    )
    assert {"Helm", "Frontend"} <= {name for name, _ in _names(text)}


def test_a_command_line_flag_in_code_names_nothing() -> None:
    """ "`--plugins`", "`--apply`" name settings; read without their dashes they were the
    words of prose ("Velero uses storage provider plugins", held out) taken as names."""
    text = (
        "Install with the `--plugins` flag and `-vv`.\n\n"
        "The Velero server uses storage provider plugins.\n"
    )
    assert {name for name, _ in _names(text)} == {"Velero"}


def test_a_hidden_comment_names_nothing() -> None:
    """Markdown's `<!-- ... -->` holds markers for tools, no text a reader sees: "START" and
    "INTERACTIVE" there are no names (and were then found in lower case in later chunks:
    "Loki queries always start with" read as a call of START)."""
    text = (
        "<!-- INTERACTIVE page intro.md START -->\n\nThe Querier calls the Ingester.\n"
        "<!-- INTERACTIVE ignore END\n  spanning LINES -->\n\nRead the NATS docs. <!-- OPEN"
    )
    assert _names(text) == {("Querier", "name"), ("Ingester", "name"), ("NATS", "acronym")}


def test_a_licence_header_names_nothing() -> None:
    """The licence grant atop a file (any comment style) is no text about the file; a
    line outside it, a bullet about a licence, or prose quoting one still name things."""
    header = (
        "# Copyright 2024 Google LLC\n#\n"
        '# Licensed under the Apache License, Version 2.0 (the "License");\n'
        "# Unless required by applicable law or agreed to in writing, software\n"
        "# See the License for the specific language governing permissions.\n\n"
        "# Redis keeps the carts\napiVersion: v1\n"
    )
    assert _names(header) == {("Redis", "name"), ("apiVersion", "identifier")}
    java = "/*\n * Copyright Acme Corp\n * SPDX-License-Identifier: MIT\n */\nclass CartStore {}\n"
    assert _names(java) == {("CartStore", "name")}
    markdown = (
        "* Licensed under the MIT License\n* the cart uses Redis\n\nThe Apache License is fine."
    )
    assert {"MIT License", "Redis", "Apache License"} <= {n for n, _ in _names(markdown)}


def test_a_possessive_is_its_name_and_an_adjective_made_of_a_name_is_none() -> None:
    """ "Thrift's encoding" names Thrift (an acronym's possessive, "the USSR's", the
    acronym), "It's" is a contraction, and "Prometheus-compatible", "Time-based" are
    adjectives."""
    found = _names(
        "Clients use Thrift's encoding. Then It's done. Ask the USSR's envoy. "
        "SPM needs a Prometheus-compatible store and Time-based indices."
    )
    assert found == {("Thrift", "name"), ("USSR", "acronym"), ("SPM", "acronym")}


def test_a_title_is_proposed_with_its_document() -> None:
    assert ("Rome Protocols", "title") in _names(
        "The Rome Protocols were signed.", "Rome Protocols"
    )


def test_mentions_are_located_and_tied_to_their_chunk(scope: Scope) -> None:
    [result] = scope.ingest(dataset("alice/pg11_alice_body.txt"))
    doc = result.document
    assert scope.document(doc.id).extracted
    stored = scope.stored_text(doc.id)
    rows = scope.graph.ro_query(
        "MATCH (e:Entity)-[m:MENTIONED_IN]->(c:Chunk) "
        "RETURN e.name, m.start_byte, m.end_byte, c.start_byte, c.end_byte LIMIT 2000"
    )
    assert len(rows) > 200
    for name, start, end, chunk_start, chunk_end in rows:
        assert chunk_start <= start < end <= chunk_end
        assert stored[start:end].decode().lower() == name.lower()
    rabbit = scope.graph.ro_query(
        "MATCH (e:Entity {key: 'name:white rabbit'})-[m:MENTIONED_IN]->() RETURN count(m)"
    )
    assert rabbit[0][0] >= 10


def test_co_mentions_quote_their_sentence(scope: Scope) -> None:
    [result] = scope.ingest(
        b"The checkoutservice calls the payment-gateway. Nothing else happens here.",
        name="arch.md",
    )
    stored = scope.stored_text(result.document.id)
    co_mentions = [r for r in scope.relations() if r.type == "CO_MENTIONED"]
    assert len(co_mentions) == 1
    [link] = co_mentions
    assert link.weak is True and link.citable is True
    assert {link.source, link.target} == {"checkoutservice", "payment-gateway"}
    assert link.quote == "The checkoutservice calls the payment-gateway."
    assert stored[link.start_byte : link.end_byte].decode() == link.quote
    # Read from the mentions of one sentence: no edge is stored for it.
    assert scope.graph.ro_query(
        "MATCH ()-[r:RELATES {type: 'CO_MENTIONED'}]->() RETURN count(r)"
    ) == [[0]]


def test_co_mentions_of_text_beyond_ascii_quote_their_sentence(scope: Scope) -> None:
    text = "Zoë Brandt 🦄 met Ōtani in Zürich. Later, Ōtani flew to Kyōto alone."
    [result] = scope.ingest(text.encode(), name="unicode.md")
    stored = scope.stored_text(result.document.id)
    links = [r for r in scope.relations() if r.type == "CO_MENTIONED"]
    assert {frozenset((r.source, r.target)) for r in links} == {
        frozenset(p) for p in [("Zoë Brandt", "Ōtani"), ("Zoë Brandt", "Zürich"),
                               ("Ōtani", "Zürich")]
    }  # fmt: skip
    for link in links:
        assert link.quote == "Zoë Brandt 🦄 met Ōtani in Zürich."
        assert stored[link.start_byte : link.end_byte].decode() == link.quote


def test_two_identities_of_one_name_in_a_sentence_are_no_co_mention(scope: Scope) -> None:
    """A document's title is also found as a name where the text writes it: the two
    identities of "Apollo Program" share a sentence, but a name is not related to itself.
    Listed by name, each real pair comes once, and a walk does not step from one identity
    of the name to the other."""
    scope.ingest(
        b"The Apollo Program sent crews to the Moon on Saturn rockets. More notes follow.",
        name="apollo.md",
        title="Apollo Program",
    )
    assert {e.type for e in scope.entities("Apollo Program")} == {"name", "title"}
    listed = [r for r in scope.relations(entity="Apollo Program") if r.type == "CO_MENTIONED"]
    pairs = [(r.source, r.source_type, r.target, r.target_type, r.start_byte) for r in listed]
    assert len(pairs) == len(set(pairs))  # each pair once
    assert all(r.source != r.target for r in listed), pairs
    assert {frozenset((r.source, r.target)) for r in listed} == {
        frozenset(("Apollo Program", "Moon")),
        frozenset(("Apollo Program", "Saturn")),
    }
    everything = [r for r in scope.relations() if r.type == "CO_MENTIONED"]
    assert all(r.source != r.target for r in everything)


def test_same_name_different_types_are_kept_apart(scope: Scope) -> None:
    scope.ingest(b"The planet Mercury is small.", name="a.txt", title="Mercury")
    types = scope.graph.ro_query("MATCH (e:Entity {norm: 'mercury'}) RETURN e.type ORDER BY e.type")
    assert [t for [t] in types] == ["name", "title"]


def test_every_identity_of_a_name_can_be_listed(scope: Scope) -> None:
    """Ambiguity is shown, not resolved by a guess (issue 13): the same name with two types
    is two identities, each with its mentions; case and spacing aside."""
    scope.ingest(b"The planet Mercury is small. Mercury is hot.", name="a.txt", title="Mercury")
    scope.ingest(b"The probe reached Mercury in 2011.", name="b.txt")
    identities = scope.entities("  MERCURY ")
    assert [(i.type, i.name) for i in identities] == [("name", "Mercury"), ("title", "Mercury")]
    by_type = {i.type: i for i in identities}
    assert by_type["name"].mentions == 2  # one per chunk: a.txt and b.txt
    assert by_type["title"].mentions == 1 and by_type["title"].aliases == ("Mercury",)
    assert scope.entities("Venus") == []


def test_replacing_or_deleting_a_document_takes_its_mentions_and_links(scope: Scope) -> None:
    scope.ingest(b"Alpha Corp pays Beta Bank. Alpha Corp smiles.", name="a.txt")
    scope.ingest(b"Gamma Ltd stays.", name="keep.txt")
    scope.ingest(b"Delta Inc pays Epsilon Bank.", name="a.txt")
    names = {n for [n] in scope.graph.ro_query("MATCH (e:Entity) RETURN e.name")}
    assert {"Delta Inc", "Epsilon Bank", "Gamma Ltd"} <= names
    assert "Alpha Corp" not in names and "Beta Bank" not in names
    links = [(r.source, r.target) for r in scope.relations() if r.type == "CO_MENTIONED"]
    assert links == [("Delta Inc", "Epsilon Bank")]
    scope.delete_document("a.txt")
    names = {n for [n] in scope.graph.ro_query("MATCH (e:Entity) RETURN e.name")}
    assert names == {"Gamma Ltd"}
    assert scope.relations() == []


def _extraction_counts(scope: Scope) -> tuple[int, int]:
    mentions = scope.graph.ro_query("MATCH (:Entity)-[m:MENTIONED_IN]->(:Chunk) RETURN count(m)")
    links = [r for r in scope.relations(limit=10**7) if r.type == "CO_MENTIONED"]
    return mentions[0][0], len(links)


def test_one_document_is_extracted_in_bounded_flushes(
    workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice = dataset("alice/pg11_alice_body.txt").read_bytes()
    whole = workspace.scope(f"whole{os.getpid()}")
    whole.ingest(alice, name="alice.txt")
    expected = _extraction_counts(whole)

    flushed: list[int] = []
    original = EntityRepository.write_mentions

    def counting(self: EntityRepository, rows: list[dict[str, Any]]) -> None:
        flushed.append(len(rows))
        original(self, rows)

    monkeypatch.setattr(run, "_FLUSH_ROWS", 50)
    monkeypatch.setattr(EntityRepository, "write_mentions", counting)
    parts = workspace.scope(f"parts{os.getpid()}")
    parts.ingest(alice, name="alice.txt")
    # Many flushes within the one document, none much over the limit, the same graph.
    assert len(flushed) > 10
    assert max(flushed) <= 50 + 40
    assert _extraction_counts(parts) == expected
    assert expected[0] > 500 and expected[1] > 100


def test_an_extraction_cut_short_is_redone_not_doubled(scope: Scope) -> None:
    alice = dataset("alice/pg11_alice_body.txt").read_bytes()
    [first] = scope.ingest(alice, name="alice.txt")
    expected = _extraction_counts(scope)
    # As if the process had died after some flushes, before the document was marked extracted.
    scope.graph.query("MATCH (d:Document) SET d.extracted = false")
    [again] = scope.ingest(alice, name="alice.txt")
    assert again.status is IngestStatus.UNCHANGED
    assert scope.document(first.document.id).extracted
    assert _extraction_counts(scope) == expected


def test_a_write_that_fails_on_the_writer_thread_fails_the_extraction(
    scope: Scope, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Writes run on a thread of their own (writes.py); a failure there is not lost: the
    ingest says the entities are not stored, and the document is left for the next ingest."""
    alice = dataset("alice/pg11_alice_body.txt").read_bytes()
    calls: list[int] = []
    original = EntityRepository.write_relations

    def failing(self: EntityRepository, rows: list[dict[str, Any]]) -> None:
        calls.append(len(rows))
        if len(calls) == 3:
            raise StoreError("the graph store refused a write (test)")
        original(self, rows)

    monkeypatch.setattr(run, "_FLUSH_ROWS", 50)
    monkeypatch.setattr(EntityRepository, "write_relations", failing)
    [result] = scope.ingest(alice, name="alice.txt")
    assert any("entities or embeddings are not" in w for w in result.warnings)
    assert "refused a write (test)" in " ".join(result.warnings)
    assert not scope.document(result.document.id).extracted
    assert len(calls) == 3  # the flushes queued after the failure were not written

    monkeypatch.setattr(EntityRepository, "write_relations", original)
    [again] = scope.ingest(alice, name="alice.txt")
    assert again.status is IngestStatus.UNCHANGED and not again.warnings
    assert scope.document(result.document.id).extracted


def _graph_of(scope: Scope) -> tuple[object, ...]:
    mentions = sorted(
        tuple(row) for row in scope.graph.ro_query(
            "MATCH (e:Entity)-[m:MENTIONED_IN]->(c:Chunk) "
            "RETURN e.key, m.document_id, m.start_byte, m.end_byte, coalesce(m.s_start, -1)"
        )
    )  # fmt: skip
    relations = sorted(
        (r.source, r.target, r.type, r.quote or "", r.start_byte or 0) for r in
        scope.relations(limit=10**7)
    )  # fmt: skip
    return tuple(mentions), tuple(relations)


def test_a_large_group_is_read_as_its_batches_are_written_within_a_bound(
    workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A group too large for one query is written in batches; its documents are read batch
    by batch while they are written (not read back from the store after the commit), and
    what is stored is the same as extracting after the commit, also when the rows read ahead
    pass the bound on what may be held before the commit (the rest then waits for it)."""
    from citegraph.extract import prefetch
    from citegraph.ingest import derived, pipeline
    from citegraph.store.documents import DocumentRepository

    docs = [(p.name, p.read_bytes()) for p in sorted(dataset(BOUTIQUE_DOCS).glob("*.md"))]
    docs.append(("alice.txt", dataset("alice/pg11_alice_body.txt").read_bytes()))
    monkeypatch.setattr(pipeline, "_ONE_QUERY_BYTES", 64 * 1024)  # this group: in batches
    monkeypatch.setattr(pipeline, "_BATCH_BYTES", 32 * 1024)
    read_back: list[str] = []
    chunks = DocumentRepository.chunks

    def reading_back(self: DocumentRepository, doc_id: str) -> Any:
        read_back.append(doc_id)
        return chunks(self, doc_id)

    monkeypatch.setattr(DocumentRepository, "chunks", reading_back)
    fed = workspace.scope(f"fed{os.getpid()}")
    results = fed.ingest_many(docs, media_type="text/markdown")
    assert all(r.document.extracted for r in results)
    assert read_back == []  # every document was read as it was written

    bound = prefetch.MAX_HELD_ROWS
    monkeypatch.setattr(prefetch, "MAX_HELD_ROWS", 300)
    # Whether the reader passes the bound before the commit is a race (it lost it once on a
    # busy machine: nothing was held back); the commit waits for the reader to stop there.
    made: list[prefetch.Prefetch] = []
    init = prefetch.Prefetch.__init__

    def recorded(self: prefetch.Prefetch, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        made.append(self)

    commit_many = DocumentRepository.commit_many

    def after_the_reader_stopped(self: DocumentRepository, *args: Any, **kwargs: Any) -> Any:
        for reader in made:
            reader._stopped.wait(30)
        return commit_many(self, *args, **kwargs)

    monkeypatch.setattr(prefetch.Prefetch, "__init__", recorded)
    monkeypatch.setattr(DocumentRepository, "commit_many", after_the_reader_stopped)
    bounded = workspace.scope(f"bounded{os.getpid()}")
    bounded.ingest_many(docs, media_type="text/markdown")
    assert read_back  # past the bound, the rest was read back after the commit
    monkeypatch.setattr(prefetch, "MAX_HELD_ROWS", bound)
    monkeypatch.setattr(DocumentRepository, "commit_many", commit_many)

    monkeypatch.setattr(derived, "prefetch", lambda extractor: None)
    after = workspace.scope(f"after{os.getpid()}")
    after.ingest_many(docs, media_type="text/markdown")

    expected = _graph_of(after)
    assert len(expected[0]) > 500 and len(expected[1]) > 50
    assert _graph_of(fed) == expected
    assert _graph_of(bounded) == expected


def test_extraction_read_while_the_store_writes_stores_what_extraction_after_it_does(
    workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Names and relations are read on a thread while the documents' query runs
    (extract/prefetch.py), and written as they are handed over; what is stored is the same as
    extracting after the commit, a reader that fails leaves the extraction to the usual path,
    and one that fails midway through a document (its first rows already written) has that
    document's rows forgotten and read again."""
    from citegraph.ingest import derived

    docs = [(p.name, p.read_bytes()) for p in sorted(dataset(BOUTIQUE_DOCS).glob("*.md"))]
    docs.append(("alice.txt", dataset("alice/pg11_alice_body.txt").read_bytes()))
    original, seen = run.read_offline, []

    def counting(*args: Any) -> Any:
        seen.append(args[1].name)
        return original(*args)

    monkeypatch.setattr(run, "read_offline", counting)
    read = workspace.scope(f"prefetched{os.getpid()}")
    results = read.ingest_many(docs, media_type="text/markdown")
    assert all(r.document.extracted for r in results)
    assert sorted(seen) == sorted(name for name, _ in docs)  # every one read while written
    monkeypatch.undo()

    monkeypatch.setattr(derived, "prefetch", lambda extractor: None)
    after = workspace.scope(f"after_commit{os.getpid()}")
    after.ingest_many(docs, media_type="text/markdown")
    monkeypatch.undo()

    def failing(*_: object) -> object:
        raise RuntimeError("the reader broke (test)")

    monkeypatch.setattr(run, "read_offline", failing)
    fallback = workspace.scope(f"fallback{os.getpid()}")
    fallback.ingest_many(docs, media_type="text/markdown")
    monkeypatch.undo()

    handed: list[int] = []

    def breaking_midway(extractor: Any, document: Any, chunks: Any, hand_over: Any) -> Any:
        def breaking(rows: Any) -> None:
            if document.name == "alice.txt":
                if len(handed) == 40:
                    raise RuntimeError("the reader broke midway (test)")
                handed.append(len(rows.mentions))
            hand_over(rows)

        return original(extractor, document, chunks, breaking)

    forgotten: list[list[str]] = []
    forget = EntityRepository.forget_extraction

    def forgetting(self: EntityRepository, doc_ids: list[str]) -> None:
        forgotten.append(doc_ids)
        forget(self, doc_ids)

    monkeypatch.setattr(run, "read_offline", breaking_midway)
    monkeypatch.setattr(EntityRepository, "forget_extraction", forgetting)
    midway = workspace.scope(f"midway{os.getpid()}")
    midway_results = midway.ingest_many(docs, media_type="text/markdown")
    assert all(r.document.extracted for r in midway_results)
    alice_id = next(r.document.id for r in midway_results if r.document.name == "alice.txt")
    assert forgotten == [[alice_id]]
    assert len(handed) == 40 and sum(handed) > 100  # Alice was partly handed over, then broke

    expected = _graph_of(after)
    assert len(expected[0]) > 500 and len(expected[1]) > 50
    assert _graph_of(read) == expected
    assert _graph_of(fallback) == expected
    assert _graph_of(midway) == expected
    reports = [r.extraction for r in results]
    assert sum(r.mentions for r in reports if r) == len(expected[0])
