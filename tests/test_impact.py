"""Impact and paths, graded hop by hop, on a fixture corpus written for these tests
(tests/fixtures/harbor: a dozen short architecture notes of a fictional freight platform)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from citegraph import EntityFact, Facts, Passage, Scope, UsageError, Workspace
from citegraph.paths.walk import MAX_ENTITIES
from citegraph.values.paths import (
    DEFAULT_WALK_POLICY,
    Grade,
    GradedPath,
    Hop,
    ImpactResult,
    WalkPolicy,
)

HARBOR = Path(__file__).parent / "fixtures" / "harbor"
TENANTS = 250


@pytest.fixture(scope="module")
def harbor(workspace: Workspace) -> Scope:
    scope = workspace.scope(f"harbor{os.getpid()}")
    scope.ingest(HARBOR)
    # Two things called Apollo, typed by the callers who know them.
    for kind, text, source in (
        ("team", "Apollo is the team that runs the tracking stack.", "team directory"),
        ("service", "Apollo is the service that answers shipment status queries.", "catalogue"),
    ):
        facts = Facts(entities=(EntityFact("Apollo", kind),))
        scope.remember(source, facts, [Passage(text, mentions=("Apollo",))])
    tenants = "\n\n".join(
        f"The tenant-{n:03d}-worker calls the config-service on start." for n in range(TENANTS)
    )
    scope.ingest(tenants.encode(), name="tenants.md")
    return scope


def _by_name(result: ImpactResult) -> dict[str, tuple[int, Grade, GradedPath]]:
    return {a.entity.name: (a.hops, a.grade, a.paths[0]) for a in result.affected}


def _steps(path: GradedPath) -> list[tuple[str, str, str, Grade]]:
    return [(h.subject, h.relation, h.object, h.grade) for h in path.hops]


def _assert_evidence_is_stored(scope: Scope, hop: Hop) -> None:
    """The hop's quote is exactly the stored bytes at its span, on the page it says."""
    assert hop.evidence is not None, hop
    stored = scope.stored_text(hop.evidence.document_id)
    assert stored[hop.evidence.start_byte : hop.evidence.end_byte] == hop.evidence.quote.encode()
    assert hop.document_name and hop.document_name.endswith(".md")


def test_a_supported_chain_of_three_hops(harbor: Scope) -> None:
    result = harbor.impact("journal-db", direction="dependents", max_hops=3)
    assert result.status == "ok" and result.entity is not None
    assert result.entity.name == "journal-db"
    found = _by_name(result)
    assert found["ledger-service"][:2] == (1, Grade.SUPPORTED)
    assert found["billing-api"][:2] == (2, Grade.SUPPORTED)
    hops, grade, path = found["portal-gateway"]
    assert (hops, grade) == (3, Grade.SUPPORTED)
    assert _steps(path) == [
        ("ledger-service", "writes", "journal-db", Grade.SUPPORTED),
        ("billing-api", "calls", "ledger-service", Grade.SUPPORTED),
        ("portal-gateway", "calls", "billing-api", Grade.SUPPORTED),
    ]
    quotes = [h.evidence.quote for h in path.hops if h.evidence]
    assert quotes == [
        "The ledger-service writes to the journal-db.",
        "The billing-api calls the ledger-service to record each invoice.",
        "The portal-gateway calls the billing-api for every booking.",
    ]
    for hop in path.hops:
        assert hop.reason is None
        _assert_evidence_is_stored(harbor, hop)
    assert result.policy == DEFAULT_WALK_POLICY and not result.evaluation_mode
    # A co-mention is not a dependency: the audit worker shares a sentence only.
    assert "audit-worker" not in found


def test_dependencies_walk_the_other_way(harbor: Scope) -> None:
    found = _by_name(harbor.impact("portal-gateway", direction="dependencies"))
    assert [name for name, (_, grade, _) in found.items() if grade is Grade.SUPPORTED] == [
        "billing-api", "ledger-service", "journal-db",
    ]  # fmt: skip


def test_a_hop_only_by_co_mention_is_inferred(harbor: Scope) -> None:
    # Under the default policy, sharing a sentence links nothing.
    plain = harbor.paths("audit-worker", "ledger-service")
    assert plain.status == "ok" and plain.paths == ()
    policy = WalkPolicy(co_mentions=True, name="with co-mentions")
    result = harbor.paths("audit-worker", "ledger-service", policy=policy)
    assert result.evaluation_mode and result.policy == policy
    [path] = [p for p in result.paths if len(p.hops) == 1]
    [hop] = path.hops
    assert (hop.relation, hop.grade) == ("co-mentioned", Grade.INFERRED)
    assert hop.reason is not None and "same sentence" in hop.reason
    assert hop.evidence is not None
    assert hop.evidence.quote.startswith("The audit-worker and the ledger-service run")
    _assert_evidence_is_stored(harbor, hop)


def test_negated_planned_and_hypothetical_hops_are_insufficient(harbor: Scope) -> None:
    for target, source, cue in (
        ("fraud-service", "billing-api", "negated"),
        ("search-service", "portal-gateway", "planned"),
        ("standby-db", "ledger-service", "hypothetical"),
    ):
        result = harbor.impact(target)
        found = _by_name(result)
        hops, grade, path = found[source]
        assert (hops, grade) == (1, Grade.INSUFFICIENT), target
        [hop] = path.hops
        assert hop.reason is not None and cue in hop.reason
        _assert_evidence_is_stored(harbor, hop)
        # The walk does not go on through doubtful evidence.
        assert len(found) == 1, (target, found)
    negated = _by_name(harbor.impact("fraud-service"))["billing-api"][2].hops[0]
    assert negated.evidence is not None
    assert "no longer calls the fraud-service" in negated.evidence.quote
    assert negated.polarity == "negated"


def test_an_ambiguous_name_lists_every_candidate_and_walks_nothing(harbor: Scope) -> None:
    result = harbor.impact("Apollo")
    assert result.status == "ambiguous" and result.affected == () and result.entity is None
    assert result.unresolved is not None
    candidates = {c.type: c for c in result.unresolved.candidates}
    assert set(candidates) == {"team", "service"}
    assert all(c.mentions >= 1 and c.documents for c in candidates.values())
    # Picked by key, it walks.
    picked = harbor.impact(candidates["service"].key)
    assert picked.status == "ok" and picked.entity is not None
    assert picked.entity.type == "service"
    # Met mid-walk, the offline mention of Apollo cannot be bound to either.
    hops, grade, path = _by_name(harbor.impact("portal-gateway", "dependencies"))["Apollo"]
    assert (hops, grade) == (1, Grade.INSUFFICIENT)
    assert path.hops[0].reason is not None and path.hops[0].reason.startswith("ambiguous")


def test_a_cycle_ends_the_walk(harbor: Scope) -> None:
    result = harbor.impact("retry-service", max_hops=5)
    found = _by_name(result)
    assert list(found) == ["queue-worker"]
    for affected in result.affected:
        for path in affected.paths:
            keys = [e.key for e in path.entities]
            assert len(keys) == len(set(keys))  # no entity twice on a path


def test_more_than_200_dependents_are_cut_and_said(harbor: Scope) -> None:
    result = harbor.impact("config-service")
    assert result.truncated and result.found == TENANTS
    assert len(result.affected) == MAX_ENTITIES
    assert any("entities" in limit for limit in result.limits)
    names = [a.entity.name for a in result.affected]
    assert names == sorted(names)  # one grade, one hop: by name


def test_results_are_ordered_by_grade_then_hops_then_name(harbor: Scope) -> None:
    result = harbor.impact("portal-gateway", "dependencies")
    keys = [(a.grade.rank, a.hops, a.entity.name) for a in result.affected]
    assert keys == sorted(keys)
    assert result.affected[0].grade is Grade.SUPPORTED
    assert result.affected[-1].grade is Grade.INSUFFICIENT


def test_an_unknown_name_says_so_with_close_spellings(harbor: Scope) -> None:
    result = harbor.impact("ledger-servise")
    assert result.status == "unknown" and result.unresolved is not None
    assert "ledger-service" in result.unresolved.suggestions
    paths = harbor.paths("ledger-service", "nowhere-at-all")
    assert paths.status == "unknown"
    assert [u.name for u in paths.unresolved] == ["nowhere-at-all"]


def test_bounds_and_bad_arguments_are_refused(harbor: Scope) -> None:
    with pytest.raises(UsageError, match="max_hops"):
        harbor.impact("journal-db", max_hops=6)
    with pytest.raises(UsageError, match="direction"):
        harbor.impact("journal-db", direction="sideways")
    with pytest.raises(UsageError, match="same entity"):
        harbor.paths("journal-db", "Journal-DB")


def test_paths_between_two_entities_are_graded(harbor: Scope) -> None:
    result = harbor.paths("portal-gateway", "journal-db")
    assert result.status == "ok" and result.paths
    best = result.paths[0]
    assert best.grade is Grade.SUPPORTED and len(best.hops) == 3
    assert [e.name for e in best.entities] == [
        "portal-gateway", "billing-api", "ledger-service", "journal-db",
    ]  # fmt: skip


def test_the_command_line_prints_a_graded_tree_and_json(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from citegraph.surfaces.cli.main import app

    runner = CliRunner()
    home = str(tmp_path / "home")
    assert runner.invoke(app, ["ingest", str(HARBOR), "--home", home, "--json"]).exit_code == 0
    shown = runner.invoke(app, ["impact", "fraud-service", "--home", home])
    assert shown.exit_code == 0, shown.stdout
    text = " ".join(shown.stdout.split())
    assert "billing-api calls fraud-service insufficient" in text
    assert "no longer calls the fraud-service" in text and "(negated)" in text
    as_json = runner.invoke(
        app, ["impact", "portal-gateway", "--direction", "dependencies", "--json", "--home", home]
    )
    body = json.loads(as_json.stdout)
    assert body["format"] == "citegraph-impact/1" and body["policy"]["default"] is True
    assert body["affected"][0]["grade"] == "supported"
    unknown = runner.invoke(app, ["impact", "ledger-servise", "--home", home])
    assert unknown.exit_code == 1 and "ledger-service" in unknown.stdout
    evaluation = runner.invoke(
        app, ["paths", "audit-worker", "ledger-service", "--co-mentions", "--home", home]
    )
    assert evaluation.exit_code == 0 and "evaluation mode" in evaluation.stdout
    assert "co-mentioned" in evaluation.stdout and "inferred" in evaluation.stdout
    too_far = runner.invoke(app, ["impact", "journal-db", "--hops", "9", "--home", home])
    assert too_far.exit_code == 2
