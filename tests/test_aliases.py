"""Aliases only where a source says so: an acronym the text defines ("the Federal Aviation
Administration (FAA)") or a remembered `alias-of` fact; never two names that merely look alike."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citegraph import EntityFact, Facts, Passage, RelationFact, Scope
from citegraph.extract.acronyms import definitions

from helpers import cli, env_with


@pytest.mark.parametrize(
    ("text", "short", "long"),
    [
        ("The Federal Aviation Administration (FAA) certifies pilots.", "FAA",
         "Federal Aviation Administration"),
        ("In 1958 the National Aeronautics and Space Administration (NASA) opened.", "NASA",
         "National Aeronautics and Space Administration"),
        ("GKE (Google Kubernetes Engine) runs the cluster.", "GKE", "Google Kubernetes Engine"),
        ("It is a limited liability company (LLC) now.", "LLC", "limited liability company"),
        ("the Treaty on the Functioning of the European Union (TFEU) says", "TFEU",
         "Treaty on the Functioning of the European Union"),
        ("the T cell receptor (TCR) binds", "TCR", "T cell receptor"),
        ("the primary flight displays (PFDs) show", "PFDs", "primary flight displays"),
        ("the Bank of England (BoE) sets rates", "BoE", "Bank of England"),
        ("label switching uses Multi-Protocol Label Switching (MPLS) here", "MPLS",
         "Multi-Protocol Label Switching"),
        ("G.R.C. (Gramophone Record Company, 1939-85) pressed it", "G.R.C",
         "Gramophone Record Company"),
        ("it produces rate, error, and duration (RED) metrics", "RED",
         "rate, error, and duration"),
    ],
)  # fmt: skip
def test_an_acronym_and_its_long_form_are_read_from_the_definition(
    text: str, short: str, long: str
) -> None:
    [found] = definitions(text)
    assert (found.short, found.long) == (short, long)
    quote = text[found.start : found.end]
    assert quote.startswith((long, short)) and quote.endswith(")")


@pytest.mark.parametrize(
    "text",
    [
        "Prices rose (ECB) last year.",  # the letters are not in the words before
        "The service speaks gRPC (HTTP2) to the cart.",
        "Snapshots are kept in Redis (RDB).",
        "See the table (see below).",
        "NASA (1958) was founded.",
        "It said FAA (FAA) twice.",
        "Kubernetes (K8S) runs it.",  # one word is no long form
        "the agency. (FAA) came later",  # another clause
        "No parenthesis at all here, FAA.",
        # a list whose letters are not its items' initials: no long form of RED
        "The generator derives request rate, error rate, and duration (RED) metrics.",
        "Variables found in there in `$(VARIABLE)` format are replaced.",  # a placeholder
        # held out (Vitess, Knative): code in the parenthesis; words giving no initials
        "This is the name of the ACL (`aclname` in the example above) and is",
        "If you keep it in Git and automatically applying it to the cluster (GitOps), you",
    ],
)
def test_parentheses_that_define_nothing_are_no_definition(text: str) -> None:
    assert definitions(text) == []


@pytest.mark.parametrize(
    ("text", "short", "long"),
    [
        ("GKE stands for Google Kubernetes Engine, which runs it.", "GKE",
         "Google Kubernetes Engine"),
        ("Here CSM stands for the Cloud Service Mesh.", "CSM", "Cloud Service Mesh"),
        ("NASA stands for National Aeronautics and Space Administration.", "NASA",
         "National Aeronautics and Space Administration"),
        ("UK stands for United Kingdom of Great Britain.", "UK", "United Kingdom"),
        ("SRE is short for site reliability engineering; it pays.", "SRE",
         "site reliability engineering"),
        ("MPLS stands for Multi-Protocol Label Switching here.", "MPLS",
         "Multi-Protocol Label Switching"),
        ("NATO stood for the North Atlantic Treaty Organization", "NATO",
         "North Atlantic Treaty Organization"),
    ],
)  # fmt: skip
def test_stands_for_defines_an_acronym(text: str, short: str, long: str) -> None:
    [found] = definitions(text)
    assert (found.short, found.long) == (short, long)
    quote = text[found.start : found.end]
    assert quote.startswith(short) and quote.endswith(long)


@pytest.mark.parametrize(
    "text",
    [
        "GKE stands for nothing in particular.",  # no words spell it
        "ABC stands for what we believe in.",
        "The X stands for unknown.",  # one letter is no acronym
        "It stands for Freedom.",
        "GKE stands for Google. Kubernetes Engine rooms are hot.",  # another clause
    ],
)
def test_stands_for_without_a_spelled_long_form_is_no_definition(text: str) -> None:
    assert definitions(text) == []


@pytest.mark.parametrize(
    ("text", "short", "long"),
    [
        ("The project joined the Cloud Native Computing Foundation, or CNCF, in 2016.", "CNCF",
         "Cloud Native Computing Foundation"),
        ("Use the Domain Name System, or DNS, to find it.", "DNS", "Domain Name System"),
        ("the application programming interface, or API, of it", "API",
         "application programming interface"),
    ],
)  # fmt: skip
def test_or_between_commas_defines_an_acronym(text: str, short: str, long: str) -> None:
    [found] = definitions(text)
    assert (found.short, found.long) == (short, long)
    assert text[found.start : found.end] == f"{long}, or {short}"


@pytest.mark.parametrize(
    "text",
    ["Paris, or PA, is a city.", "Then, or TN, and so.", "We run Kubernetes, or K8S, here."],
)
def test_or_between_commas_without_spelling_initials_is_no_definition(text: str) -> None:
    assert definitions(text) == []


def test_a_stands_for_definition_is_stored_as_an_alias(scope: Scope) -> None:
    scope.ingest(
        b"Our cluster runs on GKE. GKE stands for Google Kubernetes Engine.\n", name="g.md"
    )
    [alias] = [r for r in scope.relations() if r.type == "alias-of"]
    assert (alias.source, alias.target) == ("GKE", "Google Kubernetes Engine")
    assert alias.quote == "GKE stands for Google Kubernetes Engine"
    stored = scope.stored_text(scope.document("g.md").id)
    assert stored[alias.start_byte : alias.end_byte].decode() == alias.quote


DEFINING = (
    b"The Federal Aviation Administration (FAA) certifies pilots and writes the rules that "
    b"airlines follow.\n"
)
LONG_FORM_ONLY = b"The Federal Aviation Administration inspects gliders every spring in Nevada.\n"


def test_a_defined_acronym_is_an_alias_of_its_long_form_with_the_definition_quoted(
    scope: Scope,
) -> None:
    [result] = scope.ingest(DEFINING, name="faa.txt")
    assert result.extraction is not None and result.extraction.dropped == {}
    [alias] = [r for r in scope.relations() if r.type == "alias-of"]
    assert (alias.source, alias.source_type) == ("FAA", "acronym")
    assert (alias.target, alias.target_type) == ("Federal Aviation Administration", "name")
    assert alias.quote == "Federal Aviation Administration (FAA)"
    assert (alias.polarity, alias.modality, alias.citable) == ("affirmed", "actual", True)
    stored = scope.stored_text(result.document.id)
    assert stored[alias.start_byte : alias.end_byte].decode() == alias.quote
    [acronym] = scope.entities("faa")
    assert acronym.aliases == ("FAA", "Federal Aviation Administration")
    [long] = scope.entities("Federal Aviation Administration")
    assert long.aliases == ("Federal Aviation Administration", "FAA")


def test_the_readers_of_aliases_read_the_type_extraction_writes() -> None:
    from citegraph.extract.acronyms import ALIAS_OF
    from citegraph.store.queries.entities import ALIAS_OF_E

    assert f"type: '{ALIAS_OF}'" in ALIAS_OF_E


def test_names_that_only_look_alike_are_no_aliases(scope: Scope) -> None:
    scope.ingest(
        b"The FAA met in May. The Federal Aviation Administration met in June.\n", name="x.txt"
    )
    assert [r for r in scope.relations() if r.type == "alias-of"] == []
    [acronym] = scope.entities("FAA")
    assert acronym.aliases == ("FAA",)


def test_a_question_by_the_acronym_finds_the_long_form_by_name(scope: Scope) -> None:
    scope.ingest(DEFINING, name="faa.txt")
    scope.ingest(LONG_FORM_ONLY, name="gliders.txt")
    for i in range(6):  # passages that share the question's other words, and no name
        other = f"Gliders fly in spring; inspection {i} found nothing.\n"
        scope.ingest(other.encode(), name=f"{i}.txt")
    evidence = scope.context("When does the FAA inspect gliders?")
    assert "Federal Aviation Administration" in evidence.seeds
    [gliders] = [i for i in evidence.items if i.document_name == "gliders.txt"]
    assert "name" in gliders.retrievers  # found by the name itself, not only by a walk
    # Without hops the alias is still read: it is a name the question says, not a walk.
    flat = scope.context("When does the FAA inspect gliders?", hops=0)
    assert any(i.document_name == "gliders.txt" and "name" in i.retrievers for i in flat.items)


def test_a_remembered_alias_fact_is_an_alias(scope: Scope) -> None:
    scope.remember(
        "team glossary",
        Facts(
            entities=(EntityFact("checkout", "service"), EntityFact("CO", "service")),
            relations=(RelationFact("CO", "checkout", "alias-of"),),
        ),
        [Passage("CO is what the on-call team calls checkout.", ("CO", "checkout"))],
    )
    # The passage is also read offline ("CO" an acronym there): each identity stays its own.
    by_key = {e.key: e for e in scope.entities("CO")}
    assert "checkout" in by_key["service:co"].aliases
    assert by_key["acronym:co"].aliases == ("CO",)
    [full] = [e for e in scope.entities("checkout") if e.key == "service:checkout"]
    assert "CO" in full.aliases


def test_the_entities_command_lists_identities_with_their_aliases(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (tmp_path / "faa.txt").write_bytes(DEFINING)
    env = env_with(CITEGRAPH_STORE_LINGER="0")
    ingested = cli("ingest", str(tmp_path / "faa.txt"), "--home", str(home), env=env)
    assert ingested.returncode == 0, ingested.stderr
    shown = cli("entities", "faa", "--home", str(home), env=env)
    assert shown.returncode == 0, shown.stderr
    assert "acronym:faa" in shown.stdout and "also: Federal Aviation Administration" in shown.stdout
    listed = cli("entities", "FAA", "--home", str(home), "--json", env=env)
    [identity] = json.loads(listed.stdout)["identities"]
    assert identity["aliases"] == ["FAA", "Federal Aviation Administration"]
    unknown = cli("entities", "Nowhere Agency", "--home", str(home), env=env)
    assert unknown.returncode == 1 and "no entity named 'Nowhere Agency'" in unknown.stderr
    relations = cli("relations", "--entity", "FAA", "--home", str(home), env=env)
    assert "FAA --alias-of--> Federal Aviation Administration" in relations.stdout


def test_a_statement_a_chunk_makes_twice_is_one_relation(scope: Scope) -> None:
    # Found by the web UI's edge audit: one verdict marked two relations at one span.
    twice = (
        b"We run Cloud Service Mesh (CSM) in every region. The checkoutservice calls the "
        b"paymentservice.\n\nLater: Cloud Service Mesh (CSM) again. The checkoutservice calls "
        b"the paymentservice.\n"
    )
    scope.ingest(twice, name="twice.md")
    stated = [(r.source, r.type, r.target, r.start_byte) for r in scope.relations() if not r.weak]
    assert sorted(stated) == sorted(set(stated))
    assert [r for r in stated if r[1] == "alias-of"] == [
        ("CSM", "alias-of", "Cloud Service Mesh", 7)
    ]
    assert [r[:3] for r in stated if r[1] == "calls"] == [
        ("checkoutservice", "calls", "paymentservice")
    ]


def test_relations_are_listed_by_type_on_every_surface(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    import citegraph
    from citegraph.surfaces.http import TokenFile, create_app

    home = tmp_path / "home"
    text = DEFINING + b"The checkoutservice calls the paymentservice for every order.\n"
    with citegraph.open(home) as ws:
        scope = ws.scope("t")
        scope.ingest(text, name="mixed.txt")
        every = {r.type for r in scope.relations()}
        assert {"alias-of", "calls", "CO_MENTIONED"} <= every
        for asked in ("alias-of", "calls"):
            assert {r.type for r in scope.relations(relation_type=asked)} == {asked}
        for shown in ("co-mentioned", "CO_MENTIONED"):
            assert {r.type for r in scope.relations(relation_type=shown)} == {"CO_MENTIONED"}
        assert scope.relations("FAA", relation_type="calls") == []
        tokens = TokenFile(home.parent / "tokens.json")
        auth = {"Authorization": f"Bearer {tokens.create(['t'], 'read')}"}
        listed = TestClient(create_app(ws, tokens)).get(
            "/v1/memory/relations", params={"scope": "t", "type": "alias-of"}, headers=auth
        )
        assert listed.status_code == 200, listed.text
        assert listed.json()["relationType"] == "alias-of"
        assert [r["type"] for r in listed.json()["relations"]] == ["alias-of"]
    shown = cli("relations", "--type", "calls", "--home", str(home), "-s", "t")
    assert shown.returncode == 0, shown.stderr
    assert "checkoutservice --calls--> paymentservice" in shown.stdout
    assert "alias-of" not in shown.stdout
    none = cli("relations", "--type", "writes", "--home", str(home), "-s", "t")
    assert "no relations of type writes in t" in " ".join(none.stderr.split())
