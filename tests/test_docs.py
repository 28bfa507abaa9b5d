"""The docs stay true: every setting is documented, and the README starts as promised."""

from __future__ import annotations

import re

from helpers import ROOT


def test_every_setting_is_in_the_settings_table() -> None:
    code = (ROOT / "src" / "citegraph" / "config.py").read_text()
    used = set(re.findall(r'"(CITEGRAPH_[A-Z_]+)"', code))
    documented = (ROOT / "docs" / "settings.md").read_text()
    assert used, "no settings found in config.py"
    missing = [name for name in sorted(used) if f"`{name}`" not in documented]
    assert not missing


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
