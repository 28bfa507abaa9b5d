"""Walks through aliases: a name a source says is another name of one thing (an acronym's
definition, a remembered `alias-of` fact) is walked as that thing, by a hop graded against the
sentence that says so; a negated alias is not walked through."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from citegraph import EntityFact, Facts, Passage, RelationFact, Scope, Workspace
from citegraph.surfaces.cli.main import app
from citegraph.surfaces.http import TokenFile, create_app
from citegraph.values.paths import Grade, GradedPath, ImpactResult, WalkPolicy

DOCS = {
    "catalog.md": b"# Catalog\n\nThe Product Catalog Service (PCS) keeps the list of products.\n",
    "frontend.md": b"# Frontend\n\nThe frontend calls the PCS to list products.\n\n"
    b"The ad-service calls the frontend for banners.\n",
    "checkout.md": b"# Checkout\n\nThe checkout-service calls the Product Catalog Service for "
    b"prices.\n",
    "ledger.md": b"# Ledger\n\nThe ledger-service writes to the journal-db.\n",
}


@pytest.fixture(scope="module")
def shop(workspace: Workspace) -> Scope:
    scope = workspace.scope(f"aliaswalk{os.getpid()}")
    for name, text in DOCS.items():
        scope.ingest(text, name=name)
    scope.remember(
        "old glossary",
        Facts(
            entities=(EntityFact("JDB", "datastore"), EntityFact("journal-db", "datastore")),
            relations=(RelationFact("JDB", "journal-db", "alias-of"),),
        ),
        [Passage("JDB is no longer another name for the journal-db.", ("JDB", "journal-db"))],
    )
    return scope


def _steps(path: GradedPath) -> list[tuple[str, str, str, Grade]]:
    return [(h.subject, h.relation, h.object, h.grade) for h in path.hops]


def _by_name(result: ImpactResult) -> dict[str, tuple[int, GradedPath]]:
    return {a.entity.name: (a.hops, a.paths[0]) for a in result.affected}


def test_dependents_stated_of_the_acronym_are_reached_from_the_long_form(shop: Scope) -> None:
    result = shop.impact("Product Catalog Service", direction="dependents", max_hops=2)
    found = _by_name(result)
    assert set(found) == {"checkout-service", "Frontend", "ad-service"}  # PCS is not listed
    hops, path = found["Frontend"]
    assert hops == 1  # the alias is the same thing: not a hop away
    assert _steps(path) == [
        ("PCS", "alias-of", "Product Catalog Service", Grade.SUPPORTED),
        ("Frontend", "calls", "PCS", Grade.SUPPORTED),
    ]
    for hop in path.hops:
        assert hop.evidence is not None
        stored = shop.stored_text(hop.evidence.document_id)
        assert stored[hop.evidence.start_byte : hop.evidence.end_byte] == (
            hop.evidence.quote.encode()
        )
    assert [h.evidence.quote for h in path.hops if h.evidence] == [
        "Product Catalog Service (PCS)",
        "The frontend calls the PCS to list products.",
    ]
    # Within max_hops, counted without the alias: two calls from the Product Catalog Service.
    assert found["ad-service"][0] == 2


def test_dependents_stated_of_the_long_form_are_reached_from_the_acronym(shop: Scope) -> None:
    found = _by_name(shop.impact("PCS", direction="dependents", max_hops=1))
    assert set(found) == {"checkout-service", "Frontend"}
    hops, path = found["checkout-service"]
    assert hops == 1
    assert [h.relation for h in path.hops] == ["alias-of", "calls"]


def test_walks_without_aliases_when_the_policy_says_so(shop: Scope) -> None:
    policy = WalkPolicy(aliases=False, name="no-aliases")
    result = shop.impact("PCS", direction="dependents", max_hops=2, policy=policy)
    assert set(_by_name(result)) == {"Frontend", "ad-service"}
    assert not result.policy.is_default


def test_paths_go_through_an_alias(shop: Scope) -> None:
    result = shop.paths("ad-service", "checkout-service", max_hops=3)
    assert [_steps(p) for p in result.paths] == [
        [
            ("ad-service", "calls", "Frontend", Grade.SUPPORTED),
            ("Frontend", "calls", "PCS", Grade.SUPPORTED),
            ("PCS", "alias-of", "Product Catalog Service", Grade.SUPPORTED),
            ("checkout-service", "calls", "Product Catalog Service", Grade.SUPPORTED),
        ]
    ]
    alias = shop.paths("PCS", "Product Catalog Service", max_hops=1)
    assert [[h.relation for h in p.hops] for p in alias.paths] == [["alias-of"]]


def test_a_negated_alias_is_shown_but_not_walked_through(shop: Scope) -> None:
    result = shop.impact("JDB", direction="dependents", max_hops=2)
    assert result.status == "ok"
    # The journal-db is shown by the negated hop, and the walk stops there: the
    # ledger-service writes to the journal-db, not to JDB.
    [shown] = result.affected
    assert (shown.entity.name, shown.grade, shown.hops) == ("journal-db", Grade.INSUFFICIENT, 1)
    paths = shop.paths("JDB", "journal-db", max_hops=1).paths
    [[hop]] = [p.hops for p in paths]
    assert (hop.relation, hop.grade) == ("alias-of", Grade.INSUFFICIENT)
    assert hop.reason is not None and "negated" in hop.reason


def test_http_and_cli_say_the_walk_goes_through_aliases(tmp_path: Path) -> None:
    import citegraph

    home = tmp_path / "home"
    with citegraph.open(home) as ws:
        scope = ws.scope("t")
        for name, text in DOCS.items():
            scope.ingest(text, name=name)
        tokens = TokenFile(home.parent / "tokens.json")
        auth = {"Authorization": f"Bearer {tokens.create(['t'], 'read')}"}
        client = TestClient(create_app(ws, tokens))
        default = client.post("/v1/impact", json={"scope": "t", "entity": "PCS"}, headers=auth)
        assert default.status_code == 200, default.text
        body = default.json()
        assert body["policy"]["aliases"] is True and body["policy"]["default"] is True
        assert {a["entity"]["name"] for a in body["affected"]} >= {"checkout-service"}
        policy = {"follow": [{"type": "calls", "orientation": "forward"}], "aliases": False}
        plain = client.post(
            "/v1/impact", json={"scope": "t", "entity": "PCS", "policy": policy}, headers=auth
        )
        assert plain.status_code == 200, plain.text
        assert plain.json()["policy"]["aliases"] is False
        assert {a["entity"]["name"] for a in plain.json()["affected"]} == {
            "Frontend", "ad-service"
        }  # fmt: skip
    runner = CliRunner()
    shown = runner.invoke(app, ["impact", "PCS", "--home", str(home), "-s", "t"])
    assert shown.exit_code == 0, shown.stdout
    text = " ".join(shown.stdout.split())
    assert "through aliases" in text
    assert "PCS alias-of Product Catalog Service supported" in text
    as_json = runner.invoke(app, ["impact", "PCS", "--json", "--home", str(home), "-s", "t"])
    assert json.loads(as_json.stdout)["policy"]["aliases"] is True
    plain = runner.invoke(
        app, ["impact", "PCS", "--no-aliases", "--json", "--home", str(home), "-s", "t"]
    )
    body = json.loads(plain.stdout)
    assert body["policy"]["aliases"] is False and body["evaluationMode"] is True
    assert {a["entity"]["name"] for a in body["affected"]} == {"Frontend", "ad-service"}


def test_an_acronym_defined_for_two_things_is_ambiguous_and_not_walked(
    workspace: Workspace,
) -> None:
    scope = workspace.scope(f"twopcs{os.getpid()}")
    scope.ingest(
        b"The Product Catalog Service (PCS) keeps the list of products.\n"
        b"The checkout-service calls the PCS to list products.\n",
        name="catalog.md",
    )
    scope.ingest(
        b"The Payment Clearing System (PCS) settles card payments.\n"
        b"The billing-service calls the Payment Clearing System nightly.\n",
        name="payments.md",
    )
    found = _by_name(scope.impact("Product Catalog Service", direction="dependents", max_hops=2))
    assert "billing-service" not in found  # never reached through the other PCS
    assert "checkout-service" not in found  # "the PCS" it calls may be either one
    hops, path = found["PCS"]  # shown: a name of it, and of something else
    assert path.grade is Grade.INSUFFICIENT and hops == 1
    assert path.hops[-1].reason is not None and "ambiguous" in path.hops[-1].reason
    # Asked by the acronym: both meanings shown, neither walked.
    both = scope.impact("PCS", direction="dependents", max_hops=2)
    assert {a.entity.name: a.grade for a in both.affected} == {
        "Product Catalog Service": Grade.INSUFFICIENT,
        "Payment Clearing System": Grade.INSUFFICIENT,
        "checkout-service": Grade.SUPPORTED,  # stated of "PCS" itself
    }


def _remembered_alias(scope: Scope, a: str, b: str, text: str, kind: str = "service") -> None:
    facts = Facts(
        entities=(EntityFact(a, kind), EntityFact(b, kind)),
        relations=(RelationFact(a, b, "alias-of"),),
    )
    scope.remember("glossary", facts, [Passage(text, (a, b))])


def test_which_name_is_the_short_one_is_read_from_the_names_not_the_stored_direction(
    workspace: Workspace,
) -> None:
    """A remembered alias may be stated either way round: two short names of one thing are
    no ambiguity, and a second meaning stated the other way round still is one."""
    two_names = workspace.scope(f"twonames{os.getpid()}")
    two_names.ingest(b"The checkout-service calls the Order Ledger Service.\n", name="c.md")
    for short in ("OLS", "LEDG"):
        _remembered_alias(
            two_names, "Order Ledger Service", short, f"Order Ledger Service is also {short}."
        )
    found = _by_name(two_names.impact("OLS", direction="dependents", max_hops=1))
    assert found["checkout-service"][1].grade is Grade.SUPPORTED
    assert [h.relation for h in found["checkout-service"][1].hops] == ["alias-of", "calls"]

    two_things = workspace.scope(f"twothings{os.getpid()}")
    two_things.ingest(
        b"The Product Catalog Service (PCS) keeps the list of products.\n", name="a.md"
    )
    two_things.ingest(b"The billing-service calls the Payment Clearing System.\n", name="b.md")
    _remembered_alias(
        two_things, "Payment Clearing System", "PCS", "Payment Clearing System is also PCS."
    )
    reached = _by_name(two_things.impact("Product Catalog Service", max_hops=2))
    assert "billing-service" not in reached


def test_a_negated_alias_is_no_second_meaning(workspace: Workspace) -> None:
    scope = workspace.scope(f"negmeaning{os.getpid()}")
    scope.ingest(b"The Journal Database (JDB) keeps the entries.\n", name="a.md")
    scope.ingest(b"The ledger-service writes to the JDB.\n", name="b.md")
    _remembered_alias(
        scope, "JDB", "journal-db", "JDB is no longer another name for the journal-db.",
        kind="datastore",
    )  # fmt: skip
    found = _by_name(scope.impact("Journal Database", direction="dependents", max_hops=1))
    assert found["ledger-service"][1].grade is Grade.SUPPORTED


def test_a_chain_of_aliases_within_the_rounds_is_not_said_to_be_cut(workspace: Workspace) -> None:
    scope = workspace.scope(f"chain{os.getpid()}")
    scope.ingest(b"The checkout-service calls the Delta Gateway.\n", name="c.md")
    for a, b in (("Alpha", "Beta"), ("Beta", "Gamma"), ("Gamma", "Delta Gateway")):
        _remembered_alias(scope, a, b, f"{a} is another name for {b}.")
    result = scope.impact("Alpha", direction="dependents", max_hops=1)
    assert "checkout-service" in _by_name(result)
    assert not result.truncated and result.limits == ()


def test_an_alias_below_the_walks_grade_counts_as_a_hop(workspace: Workspace) -> None:
    scope = workspace.scope(f"strict{os.getpid()}")
    scope.ingest(b"The checkout-service calls the Order Ledger Service.\n", name="c.md")
    facts = Facts(
        entities=(EntityFact("OLS", "service"), EntityFact("Order Ledger Service", "service")),
        relations=(RelationFact("OLS", "Order Ledger Service", "alias-of"),),
    )
    scope.remember("glossary", facts, [])  # asserted, no passage: inferred
    strict = WalkPolicy(min_grade=Grade.SUPPORTED, name="strict")
    found = _by_name(scope.impact("OLS", max_hops=1, policy=strict))
    assert found["Order Ledger Service"][0] == 1  # shown one hop away, not walked through
    assert "checkout-service" not in found


def test_a_plural_long_form_is_no_second_meaning(workspace: Workspace) -> None:
    """Seen on SQuAD: "T cell receptor (TCR)" in one paragraph, "T cell receptors (TCRs)"
    or "(TCR)" after the plural in another: one thing, not an ambiguous acronym."""
    scope = workspace.scope(f"plural{os.getpid()}")
    scope.ingest(b"The Order Ledger Service (OLS) keeps entries.\n", name="a.md")
    scope.ingest(b"Two Order Ledger Services (OLS) run in each region.\n", name="b.md")
    scope.ingest(b"The checkout-service calls the Order Ledger Service.\n", name="c.md")
    found = _by_name(scope.impact("OLS", direction="dependents", max_hops=1))
    assert found["checkout-service"][1].grade is Grade.SUPPORTED
