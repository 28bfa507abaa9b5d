from __future__ import annotations

from pathlib import Path

import pytest

from citegraph import ConfigError, load_settings


def test_defaults_and_environment() -> None:
    settings = load_settings(env={"CITEGRAPH_HOME": "/tmp/x", "CITEGRAPH_CHUNK_BYTES": "500"})
    assert settings.home == Path("/tmp/x")
    assert settings.chunk_bytes == 500
    assert settings.fsync == "everysec" and settings.graph_url is None
    assert load_settings(env={}).home == Path.home() / ".citegraph"


def test_arguments_win_over_the_environment() -> None:
    env = {"CITEGRAPH_HOME": "/tmp/env", "CITEGRAPH_GRAPH_URL": "redis://env:1"}
    settings = load_settings(home="/tmp/arg", url="redis://arg:2", env=env)
    assert settings.home == Path("/tmp/arg") and settings.graph_url == "redis://arg:2"


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"CITEGRAPH_CHUNK_BYTES": "lots"}, "whole number"),
        ({"CITEGRAPH_CHUNK_BYTES": "10"}, "at least 64"),
        ({"CITEGRAPH_FSYNC": "sometimes"}, "fsync policy"),
        ({"CITEGRAPH_START_TIMEOUT": "soon"}, "must be a number"),
        ({"CITEGRAPH_INDEX_TIMEOUT": "-1"}, "positive"),
    ],
)
def test_bad_settings_are_refused_clearly(env: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_settings(env=env)
