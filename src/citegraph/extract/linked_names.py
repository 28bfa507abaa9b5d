"""Names a Markdown link gives: a link to a page (or a section) of the same docs whose text
is that page's name ("[metastore](../metastore/)"), or to a project's repository under the
project's name. The offline extractor (offline.py) proposes them, in lower case too."""

from __future__ import annotations

import re

from ..text.words import STOPWORDS

# A Markdown link to a page of the same docs ("[ingesters](../ingester/)"), or to a project's
# repository ("[of-watchdog](https://github.com/openfaas/of-watchdog)").
_DOC_LINK = re.compile(r"\[([A-Za-z][\w -]{1,38}[a-z])\]\(([^)\s]+)\)")
_REPOSITORY = re.compile(
    r"https?://(?:www\.)?(?:github|gitlab)\.com/[\w.-]+/([\w.-]+?)/?(?:#.*)?\Z"
)
# At most this many words in a label naming its page with a qualifier ("OpenFaaS classic
# watchdog" for /architecture/watchdog).
_QUALIFIED_WORDS = 3


def named_by_their_pages(text: str) -> list[tuple[str, int]]:
    """Names linked to a page (or a section) of their own, in lower case too: a link whose
    text is the last part of its target's path or its anchor ("[metastore](../metastore/)",
    "[store-gateways](../store-gateway/)": the docs hold a page about each), or ends with it
    after a few words naming no stopword ("[OpenFaaS classic watchdog](/architecture/
    watchdog)"); named without a plural's "s", as the page is. A link elsewhere names a
    project only when it is the project's repository, under its name. A link that says what
    to do ("[configuring memberlist](...)") names nothing."""
    found: list[tuple[str, int]] = []
    for match in _DOC_LINK.finditer(text):
        label, target = match.group(1), match.group(2).lower()
        if label.split()[0].lower().endswith("ing") or label.lower() in STOPWORDS:
            continue
        key = label.lower().replace(" ", "-").replace("_", "-")
        if re.match(r"[a-z][a-z0-9+.-]*:", target):
            repository = _REPOSITORY.match(target)
            if repository is not None and key == repository.group(1).replace("_", "-"):
                found.append((label, match.start(1)))
            continue
        path, _, anchor = target.partition("#")
        slugs = {anchor, path.rstrip("/").rsplit("/", 1)[-1].rsplit(".", 1)[0]} - {""}
        words = label.split()
        for slug in slugs:
            slug = slug.replace("_", "-")
            if key == slug:
                found.append((label, match.start(1)))
            elif key == slug + "s":
                found.append((label[:-1], match.start(1)))
            elif (
                key.endswith("-" + slug)
                and len(words) <= _QUALIFIED_WORDS
                and not any(w.lower() in STOPWORDS for w in words)
            ):
                found.append((label, match.start(1)))
    return found
