"""The docs stay true: every setting is documented, and the README starts as promised."""

from __future__ import annotations

import re

from helpers import ROOT


def test_every_setting_is_in_the_settings_table() -> None:
    from dataclasses import fields

    from citegraph.config import Settings

    names = [f.metadata.get("env") for f in fields(Settings)]
    assert len(names) >= 20 and None not in names, names
    documented = (ROOT / "docs" / "settings.md").read_text()
    assert [name for name in names if f"`{name}`" not in documented] == []


def test_every_setting_is_read_from_its_variable() -> None:
    """Walks Settings itself: each field's variable, set to a value unlike the default, is the
    value loaded (so a field cannot be documented but never read)."""
    from dataclasses import fields

    from citegraph.config import Settings, load_settings

    defaults = load_settings(home="/nowhere", env={})
    for field in fields(Settings):
        default = getattr(defaults, field.name)
        raw, expected = _unlike(field.name, default)
        env = {field.metadata["env"]: raw}
        loaded = load_settings(env=env) if field.name == "home" else load_settings("/x", env=env)
        assert getattr(loaded, field.name) == expected, field.name


def _unlike(name: str, default: object) -> tuple[str, object]:
    from pathlib import Path

    if name in ("home", "tokens_file", "cues_file"):
        return "/elsewhere", Path("/elsewhere")
    if name == "fsync":
        return "always", "always"
    if isinstance(default, bool):
        return ("off" if default else "on"), not default
    if isinstance(default, int):
        return str(default + 7), default + 7
    if isinstance(default, float) or name.endswith("_timeout_s"):
        return "42.5", 42.5
    text = "redis://127.0.0.1:1" if name == "graph_url" else "some-value"
    return text, text


def test_readme_opens_with_the_two_commands() -> None:
    lines = (ROOT / "README.md").read_text().splitlines()
    block = lines[lines.index("```") + 1 : lines.index("```", lines.index("```") + 1)]
    assert [line.split("#")[0].strip() for line in block] == ["make demo", "make test"]


def test_ci_runs_the_readme_test_command() -> None:
    assert "make test" in (ROOT / ".ci" / "run").read_text()


def test_docs_links_resolve() -> None:
    readme = (ROOT / "README.md").read_text()
    for target in re.findall(r"\]\((docs/[^)]+)\)", readme):
        assert (ROOT / target).exists(), target


def test_the_mcp_client_config_in_the_agent_docs_is_a_real_command() -> None:
    import json

    from typer.testing import CliRunner

    from citegraph.surfaces.cli.main import app

    text = (ROOT / "docs" / "agents.md").read_text()
    [block] = re.findall(r"```json\n(.*?)```", text, flags=re.S)
    server = json.loads(block)["mcpServers"]["citegraph"]
    assert server["command"] == "citegraph"
    # The documented arguments parse (--help stops before anything is opened).
    result = CliRunner().invoke(app, [*server["args"], "--help"])
    assert result.exit_code == 0 and "memory_context" in result.output


def test_every_error_code_the_service_sends_is_in_the_agent_docs() -> None:
    from citegraph.surfaces.http import guard

    sources = "".join(
        path.read_text() for path in (ROOT / "src" / "citegraph" / "surfaces" / "http").glob("*.py")
    )
    # Codes given with a status (ApiError(401, "unauthorized", ...)) or in a status map.
    sent = set(re.findall(r"\b[1-5]\d\d,\s*\"([a-z_]+)\"", sources))
    sent |= set(re.findall(r"\b[1-5]\d\d: \"([a-z_]+)\"", sources))
    sent |= {code for _, _, code in guard._STATUS}
    assert {"unauthorized", "forbidden", "payload_too_large", "timeout", "not_found"} <= sent
    documented = (ROOT / "docs" / "agents.md").read_text()
    assert sorted(c for c in sent if f"`{c}`" not in documented) == []


def test_the_layout_in_the_architecture_doc_is_the_package() -> None:
    text = (ROOT / "docs" / "architecture.md").read_text()
    block = text.split("## Layout", 1)[1].split("```", 2)[1]
    package = ROOT / "src" / "citegraph"
    named = re.findall(r"^  ([a-z_]+(?:\.py|/))", block, flags=re.M)
    assert len(named) >= 15
    assert [n for n in named if not (package / n.rstrip("/")).exists()] == []
    # Every module and package of the top level is on the map.
    present = {p.name + ("/" if p.is_dir() else "") for p in package.iterdir()}
    present = {p for p in present if p.endswith((".py", "/")) and not p.startswith("__pyc")}
    assert sorted(present - set(named) - {"py.typed"}) == []


def test_the_cue_table_in_the_extraction_doc_is_the_one_in_use() -> None:
    """docs/extraction.md lists every negation and modality cue, by kind, as the code has it."""
    import re

    from citegraph.extract.modality import CUES, KINDS

    doc = (ROOT / "docs" / "extraction.md").read_text()
    for kind in KINDS:
        [row] = [line for line in doc.splitlines() if line.startswith(f"| `{kind}` |")]
        listed = re.findall(r"\"([^\"]+)\"", row)
        assert listed == [c.words for c in CUES if c.kind == kind], kind
