"""The cue table is extensible: a TOML file of one's own cues (CITEGRAPH_CUES_FILE) is read on
top of the default table, by every extractor, and a bad file is refused with its reason."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from citegraph import ConfigError, Workspace
from citegraph.config import load_settings
from citegraph.extract.modality import DEFAULT_CUES, Modality, Polarity, assess, load_cues
from citegraph.extract.offline import OfflineExtractor

from helpers import cli, env_with

TEXT = (
    b"# Ledger\n\n"
    b"The ledger service historically read from the archive database.\n"
    b"In the pilot, the billing service calls the fax gateway.\n"
    b"The billing service calls the tax service.\n"
)
CUES = 'negated = ["historically"]\nplanned = ["in the pilot"]\n'


@pytest.fixture
def cue_file(tmp_path: Path) -> Path:
    path = tmp_path / "cues.toml"
    path.write_text(CUES)
    return path


def _readings(ws: Workspace, scope: str) -> set[tuple[str, str, str, str | None, str | None]]:
    return {
        (r.source, r.type, r.target, r.polarity, r.modality)
        for r in ws.scope(scope).relations()
        if not r.weak
    }


@pytest.fixture
def plain(tmp_path: Path) -> Iterator[Workspace]:
    with Workspace(load_settings(home=tmp_path / "home")) as ws:
        yield ws


def test_without_the_file_the_past_and_the_pilot_read_as_plain_dependencies(
    plain: Workspace,
) -> None:
    plain.scope("s").ingest(TEXT, name="ledger.md")
    assert _readings(plain, "s") == {
        ("ledger service", "reads", "archive database", "affirmed", "actual"),
        ("billing service", "calls", "fax gateway", "affirmed", "actual"),
        ("billing service", "calls", "tax service", "affirmed", "actual"),
    }


def test_added_cues_are_read_by_ingest(tmp_path: Path, cue_file: Path) -> None:
    settings = replace(load_settings(home=tmp_path / "home"), cues_file=cue_file)
    with Workspace(settings) as ws:
        ws.scope("s").ingest(TEXT, name="ledger.md")
        assert _readings(ws, "s") == {
            ("ledger service", "reads", "archive database", "negated", "actual"),
            ("billing service", "calls", "fax gateway", "affirmed", "planned"),
            ("billing service", "calls", "tax service", "affirmed", "actual"),
        }
        extractor = ws.extractor
        assert isinstance(extractor, OfflineExtractor)
        assert extractor.name.startswith("offline+cues:") and extractor.cues == ws.cues


def test_the_default_table_is_unchanged_by_another_table(cue_file: Path) -> None:
    table = load_cues(cue_file)
    quote = "The ledger service historically read from the archive database."
    ends = ((4, 18), (37, 53))
    assert assess(quote, ends) == (Polarity.AFFIRMED, Modality.ACTUAL)
    assert assess(quote, ends, table) == (Polarity.NEGATED, Modality.ACTUAL)
    assert DEFAULT_CUES.digest is None and table.digest is not None
    assert OfflineExtractor().name == "offline"


def test_extract_reads_stored_documents_again_with_added_cues(
    tmp_path: Path, cue_file: Path
) -> None:
    home = tmp_path / "home"
    doc = tmp_path / "ledger.md"
    doc.write_bytes(TEXT)
    assert cli("ingest", str(doc), "--home", str(home)).returncode == 0
    env = env_with(CITEGRAPH_CUES_FILE=str(cue_file))
    done = cli("extract", "--home", str(home), "--json", env=env)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["documents"] == 1  # another extractor: read again
    listed = json.loads(cli("relations", "--home", str(home), "--json").stdout)["relations"]
    stated = sorted(
        (r["source"], r["target"], r["polarity"], r["modality"]) for r in listed if not r["weak"]
    )
    assert stated == [
        ("billing service", "fax gateway", "affirmed", "planned"),
        ("billing service", "tax service", "affirmed", "actual"),
        ("ledger service", "archive database", "negated", "actual"),
    ]  # each once: the first reading was replaced, not added to


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (None, "cannot read the cue file"),
        ("negated = [", "is not valid TOML"),
        ('maybe = ["perhaps"]', "names maybe: a cue is one of negated, hypothetical, planned"),
        ('negated = "historically"', "negated must be a list of words"),
        ('planned = [""]', "planned must be a list of words"),
    ],
)
def test_a_bad_cue_file_is_refused_with_its_reason(
    tmp_path: Path, content: str | None, said: str
) -> None:
    path = tmp_path / "cues.toml"
    if content is not None:
        path.write_text(content)
    settings = replace(load_settings(home=tmp_path / "home"), cues_file=path)
    with pytest.raises(ConfigError, match=said):
        Workspace(settings)
    shown = cli(
        "docs", "--home", str(tmp_path / "home"), env=env_with(CITEGRAPH_CUES_FILE=str(path))
    )
    assert shown.returncode != 0 and said.split(":")[0] in " ".join(shown.stderr.split())


def test_a_walk_reads_a_remembered_relation_with_the_added_cues(
    tmp_path: Path, cue_file: Path
) -> None:
    from citegraph import EntityFact, Facts, Passage, RelationFact

    facts = Facts(
        entities=(EntityFact("ledger-service", "service"), EntityFact("archive-db", "datastore")),
        relations=(RelationFact("ledger-service", "archive-db", "reads"),),
    )
    # Both ends named: the remembered relation quotes the passage, stored without polarity.
    passage = Passage(
        "The ledger-service historically read from the archive-db.",
        ("ledger-service", "archive-db"),
    )
    grades = {}
    for name, cues in (("default", None), ("added", cue_file)):
        settings = replace(load_settings(home=tmp_path / name), cues_file=cues)
        with Workspace(settings) as ws:
            scope = ws.scope("s")
            scope.remember("ops notes", facts, [passage])
            [affected] = scope.impact("archive-db").affected
            grades[name] = (affected.entity.name, affected.grade.value)
    assert grades == {
        "default": ("ledger-service", "supported"),
        "added": ("ledger-service", "insufficient"),  # "historically": no longer a dependency
    }


VERBS_TEXT = (
    b"# Gateway\n\n"
    b"The edge-gateway hits the quote-service for every page.\n"
    b"The ledger-service is pinged by the health-service.\n\n"
    b"| Service | Pings |\n| --- | --- |\n| monitor-service | ledger-service |\n\n"
    b"```mermaid\ngraph LR\n  a(audit-service) -->|hits| b(archive-service)\n```\n"
)
VERBS_FILE = '[verbs]\ncalls = ["hits", "pings"]\n[passive_verbs]\ncalls = ["is pinged by"]\n'


def test_added_verbs_are_read_in_sentences_tables_and_diagrams(tmp_path: Path) -> None:
    found = {}
    path = tmp_path / "verbs.toml"
    path.write_text(VERBS_FILE)
    for name, cues in (("default", None), ("added", path)):
        settings = replace(load_settings(home=tmp_path / name), cues_file=cues)
        with Workspace(settings) as ws:
            ws.scope("s").ingest(VERBS_TEXT, name="gateway.md")
            found[name] = {(a, t, b) for a, t, b, _, _ in _readings(ws, "s")}
            for r in ws.scope("s").relations():
                if not r.weak:
                    stored = ws.scope("s").stored_text(r.document_id or "")
                    assert stored[r.start_byte : r.end_byte].decode() == r.quote
    assert found["default"] == {("audit-service", "flows-to", "archive-service")}
    assert found["added"] == {
        ("edge-gateway", "calls", "quote-service"),
        ("health-service", "calls", "ledger-service"),  # passive: turned round
        ("monitor-service", "calls", "ledger-service"),  # a column headed by an added verb
        ("audit-service", "calls", "archive-service"),  # an arrow labelled with one
    }


@pytest.mark.parametrize(
    ("content", "said"),
    [
        ('verbs = ["hits"]', r"\[verbs\] must map relation types to phrases"),
        ("[verbs]\ncalls = [1]", "verbs.calls must be a list of phrases"),
        ('[passive_verbs]\ncalls = ["…"]', "needs a word other than is"),
        ('[verbs]\ncalls = ["is by"]', "needs a word other than is"),
        ('[verbs]\ncalls = ["calls)"]', "must be letters a-z only"),
        ('[verbs]\ncalls = ["co-locates with"]', "must be letters a-z only"),
        ('[verbs]\n"" = ["hits"]', "a relation type with no name"),
    ],
)
def test_a_bad_verb_table_is_refused_with_its_reason(
    tmp_path: Path, content: str, said: str
) -> None:
    path = tmp_path / "cues.toml"
    path.write_text(content)
    with pytest.raises(ConfigError, match=said):
        load_cues(path)
