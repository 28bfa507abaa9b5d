"""The parameter header: every value comes back from the store exactly as it was sent."""

from __future__ import annotations

from typing import Any

import pytest

from citegraph import Workspace
from citegraph.errors import UsageError
from citegraph.store.params import header, literal

TRICKY = [
    "",
    "plain",
    'a "quoted" word',
    "back\\slash and \\n written out, \\u00e9 written out",
    "line\nbreak\ttab\rreturn\bbell\fform",
    "\x01\x02\x1f control characters",
    "é, ß, 中文, emoji 🦄, \u2028 line separator",
    "`backticks` and {braces} and [brackets]",
    "trailing backslash \\",
]


def _echo(workspace: Workspace, params: dict[str, Any]) -> list[Any]:
    graph = workspace.store.graph("citegraph:test_params")
    columns = ", ".join(f"${name}" for name in params)
    return list(graph.query(f"RETURN {columns}", params)[0])


@pytest.mark.parametrize("text", TRICKY)
def test_a_string_comes_back_byte_for_byte(workspace: Workspace, text: str) -> None:
    assert _echo(workspace, {"s": text}) == [text]


def test_rows_of_lists_and_maps_come_back_as_sent(workspace: Workspace) -> None:
    table = [[text, index, None, index % 2 == 0] for index, text in enumerate(TRICKY)]
    maps = [{"text": text, "n": index, "nested": [text, {"k": text}]} for index, text in
            enumerate(TRICKY)]  # fmt: skip
    numbers = [0, -1, 2**40, 2.5, -0.125]
    assert _echo(workspace, {"table": table, "maps": maps, "numbers": numbers}) == [
        table, maps, numbers,
    ]  # fmt: skip


def test_the_fast_path_is_taken_only_where_its_literals_are_falkordbs() -> None:
    assert literal([["a", 1, None, True]]) == '[["a", 1, null, true]]'
    # JSON writes \u0001 for a control character; FalkorDB does not read it: item by item.
    assert literal(["\x01"]) == '["\x01"]'
    assert literal([{"k": 1}]) == "[{`k`:1}]"


def test_text_the_store_cannot_take_is_refused_by_name() -> None:
    with pytest.raises(UsageError, match="NUL"):
        header({"rows": [["a\x00b", 1]]})
    with pytest.raises(UsageError, match="NUL"):
        header({"rows": [{"text": "a\x00b"}]})
    with pytest.raises(UsageError, match="name"):
        header({"": 1})
    with pytest.raises(UsageError, match="name"):
        header({"rows": [{"a`b": 1}]})
