"""Reading PyYAML's composed nodes, which keep where each value is in the text."""

from __future__ import annotations

from typing import Any

from .structural import Located


def scalar(node: Any) -> str | None:
    import yaml

    return node.value if isinstance(node, yaml.ScalarNode) else None


def pairs(node: Any) -> list[tuple[Any, Any]]:
    import yaml

    return list(node.value) if isinstance(node, yaml.MappingNode) else []


def get(node: Any, key: str) -> Any:
    for k, v in pairs(node):
        if scalar(k) == key:
            return v
    return None


def located(text: str, node: Any) -> Located:
    start, end = node.start_mark.index, node.end_mark.index
    return Located(text[start:end], start, end)


def spanning(text: str, first: Any, last: Any) -> Located:
    """The text from where node `first` starts to where node `last` ends (a key to the end of
    its value, or to an item of its list): a setting's evidence."""
    start, end = first.start_mark.index, last.end_mark.index
    return Located(text[start:end], start, end)


def named(text: str, node: Any) -> Located:
    """Where a scalar names something: inside its quotes when it is quoted ("web" in JSON)."""
    whole, value = located(text, node), scalar(node)
    if value and whole.text != value and value in whole.text:
        at = whole.start + whole.text.index(value)
        return Located(value, at, at + len(value))
    return whole
