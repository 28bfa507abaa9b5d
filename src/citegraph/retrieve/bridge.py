"""Bridges: the passages a question needs that its words do not find, reached through names.

"What stadium does the team who has Kent Baer as the defensive coordinator play its home
games?": the question names Kent Baer; his passage names his team (UNLV); the team's own
passage ("UNLV Rebels football") says the stadium. After ranking, each name mentioned in the
BRIDGE_FROM best passages leads to the one document it is the title of: titled exactly with
it, or else, when there is exactly one, titled with it and more words ("UNLV Rebels
football", "Mark Masons' Hall, London"); that document's first passage comes in right after
them, at most MAX_BRIDGES of them, marked `bridge`. A title that only starts with the name is
the weaker link: it counts only when the question's words found that passage too.

And the documents a question names by their titles ("Are both Coldplay and Pierre Bouvier
from the same country?") come first, marked `title`: a name the question uses that is the
title of exactly one document.
"""

from __future__ import annotations

from ..store.graph import GraphHandle
from ..store.queries.retrieval import BRIDGE_CHUNKS, FIRST_PASSAGES, TITLED, TITLES_LONGER

BRIDGE_FROM = 2
MAX_BRIDGES = 2
MAX_TITLED = 2
# A name this short leads only to a title that is exactly it ("IBM" is not "IBM Research").
MIN_PREFIX_CHARS = 4


def bridged(graph: GraphHandle, top: list[str], found: set[str]) -> list[str]:
    """Chunk ids that the passages `top` lead to (outside their documents), best first. A
    title that only starts with the name is the weaker link: its passage comes in only when
    the question's words found it too (it is in `found`, the chunks any retriever returned)."""
    if not top:
        return []
    order = {chunk: index for index, chunk in enumerate(top)}
    # (in a passage's order, then by name: the store returns a passage's names in any order)
    rows = sorted(
        graph.ro_query(BRIDGE_CHUNKS, {"chunks": top}), key=lambda r: (order[r[0]], str(r[1]))
    )
    targets: list[tuple[str, bool]] = []  # (document, exact title)
    longer_wanted: list[tuple[str, list[str]]] = []
    for _chunk, name, exact, count, documents in rows:
        if count == 1 and exact:
            targets.append((exact[0], True))
        elif count == 0 and len(name) >= MIN_PREFIX_CHARS:
            longer_wanted.append((name, documents))
    if longer_wanted:
        names = sorted({name for name, _ in longer_wanted})
        longer: dict[str, list[str]] = {
            str(n): list(ids) for n, ids in graph.ro_query(TITLES_LONGER, {"names": names})
        }
        for name, documents in longer_wanted:
            titled_so = longer.get(name) or []
            if len(titled_so) == 1 and titled_so[0] not in documents:
                targets.append((titled_so[0], False))
    documents = list(dict.fromkeys(d for d, _ in targets))
    exact_ones = {d for d, exact in targets if exact}
    first = _first_passages(graph, documents)
    kept = [c for d, c in zip(documents, first, strict=True) if d in exact_ones or c in found]
    return kept[:MAX_BRIDGES]


def titled(graph: GraphHandle, names: list[str]) -> list[str]:
    """The first passages of the documents titled with one of `names` (the names a question
    uses, in its order), each title that of exactly one document."""
    if not names:
        return []
    owners = dict(graph.ro_query(TITLED, {"names": names}))
    found = [owners[n][0] for n in names if len(owners.get(n) or []) == 1]
    return [c for c in _first_passages(graph, list(dict.fromkeys(found))[:MAX_TITLED]) if c]


def _first_passages(graph: GraphHandle, documents: list[str]) -> list[str]:
    """Each document's first passage ("" for one that has none)."""
    if not documents:
        return []
    first = dict(graph.ro_query(FIRST_PASSAGES, {"ids": documents}))
    return [first.get(d, "") for d in documents]
