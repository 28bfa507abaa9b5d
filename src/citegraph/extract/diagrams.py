"""Offline relations from diagrams written as code: Mermaid `graph`/`flowchart` and
`sequenceDiagram`, PlantUML and Graphviz DOT, in fenced blocks of Markdown or text
(```mermaid, ```plantuml or @startuml, ```dot/```graphviz or `digraph {`).

Each edge is a relation located at the line that draws it. A node's id is bound to its
display label (`checkout(Checkout Service)`, `component "Checkout Service" as checkout`,
`checkout [label="Checkout Service"]`): the end is the label, named at its definition, which
grounding keeps with the relation. The arrow's label gives the type through the verb table
("calls", "reads from"); an arrow without one is `flows-to`, which says only that the diagram
draws an arrow. In a sequence diagram a message is a request: a solid arrow (`->>`, `->`) is
a call, an asynchronous one (`-)`) is `sends-to`, unless its text states another relation
("reads the cart" is `reads`); a dashed arrow (`-->>`) is a reply and states no dependency.
A PlantUML block is read as a sequence diagram when it says so (`participant`, `activate`,
`return`, `alt`...) and declares no component: its solid messages (`->`) are calls, thin ones
(`->>`) `sends-to`, unless their text states another relation, and its dashed ones (`-->`)
are replies.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .diagram_steps import ICON, a_step
from .sequence_exchange import PEOPLE, Exchange
from .structural import Located, StructuralRelation
from .verbs import DEFAULT_VERBS, VerbTable

UNLABELLED = "flows-to"

_FENCE = re.compile(
    r"^[ \t]*(?:```|~~~)[ \t]*(mermaid|plantuml|puml|dot|graphviz)[^\n]*\n(.*?)^[ \t]*(?:```|~~~)",
    re.M | re.S | re.I,
)
# A site generator's shortcode holding a diagram (Hugo's `{{< mermaid >}}`, Grafana's docs).
_SHORTCODE = re.compile(
    r"\{\{[<%][ \t]*mermaid[^}\n]*[>%]\}\}[^\n]*\n(.*?)\{\{[<%][ \t]*/mermaid[ \t]*[>%]\}\}", re.S
)
_PLANTUML_BARE = re.compile(r"^@startuml[^\n]*\n(.*?)^@enduml", re.M | re.S)
_DOT_BARE = re.compile(r"^[ \t]*(?:strict[ \t]+)?digraph[^{\n]*\{(.*?)^\}", re.M | re.S)

# Mermaid: a node is an id with an optional shape holding its label.
_M_NODE = (
    r"(?P<{0}>[A-Za-z0-9_][\w.-]*)"
    r"(?:\s*(?:\(\(\(|\[\(|\(\[|\(\(|\[\[|\[/|\[\\|\{{\{{|[\[({{>])\s*"
    # a quoted label may hold brackets: `PP["productpage (BFF)"]`
    r"(?:\"(?P<{0}q>[^\"\n]+?)\"|(?P<{0}l>[^\]\)}}\"\n|]+?))\s*"
    r"(?:\)\)\)|\)\]|\]\)|\)\)|\]\]|/\]|\\\]|\}}\}}|[\])}}]))?"
    r"(?::::[\w-]+)?"  # a class given to it: `A["Writes"]:::highlight`
)
# A line break in a label: the name is the label's first line ("Argo EventBus<br/>kafka").
_BREAK = re.compile(r"<br\s*/?>|\\n", re.I)
_M_ARROW = (
    r"\s*(?:--\s*(?P<la>[^-|>\n][^|>\n]*?)\s*-->|-\.\s*(?P<lb>[^.>\n]+?)\s*\.->|"
    r"(?:-{2,}>|={2,}>|-\.+->|--[ox])\s*(?:\|\s*(?P<lc>[^|\n]*?)\s*\|)?)\s*"
)
_M_EDGE = re.compile(_M_NODE.format("a") + _M_ARROW + _M_NODE.format("b"))
_M_DEFINITION = re.compile(_M_NODE.format("n"))

# Mermaid sequence diagrams: participants (an id, and the label it is shown as) and messages.
_S_PARTICIPANT = re.compile(
    r"^[ \t]*(?:participant|actor)[ \t]+(?P<id>[^\s:;]+)(?:[ \t]+as[ \t]+(?P<label>[^\n]*?))?"
    r"[ \t]*$",
    re.M,
)
_S_MESSAGE = re.compile(
    r"^[ \t]*(?P<a>[^\s:;+\-<>][^\n:;]*?)[ \t]*"
    r"(?P<arrow><<-->>|<<->>|-->>|->>|--[x)]|-[x)]|-->|->)[ \t]*[+-]?[ \t]*"
    r"(?P<b>[^\s:;+\-][^\n:;]*?)[ \t]*:[ \t]*(?P<label>[^\n]*?)[ \t]*$",
    re.M,
)

_P_NAME = r"\[[^\]\n]+\]|\"[^\"\n]+\"|[\w.]+"
_P_EDGE = re.compile(
    rf"^[ \t]*(?P<a>{_P_NAME})\s*(?P<arrow><{{0,2}}[-.]+(?:\[[^\]\n]*\])?[-.]*>{{0,2}})\s*"
    rf"(?P<b>{_P_NAME})"
    r"[ \t]*(?::[ \t]*(?P<label>[^\n]*?))?[ \t]*$",
    re.M,
)
_P_ALIAS = re.compile(
    r"^[ \t]*(?:component|node|database|queue|actor|participant|rectangle|interface|cloud|"
    r"boundary|entity|control|collections|package|storage|usecase)[ \t]+"
    r"(?:\"(?P<l1>[^\"\n]+)\"|\[(?P<l2>[^\]\n]+)\])[ \t]+as[ \t]+(?P<id>[\w.]+)",
    re.M,
)
_P_ACTOR = re.compile(
    r"^[ \t]*actor[ \t]+(?:\"(?P<l>[^\"\n]+)\"|:(?P<c>[^:\n]+):|(?P<n>[\w.]+))"
    r"(?:[ \t]+as[ \t]+(?P<id>[\w.]+))?",
    re.M,
)
# What only a PlantUML sequence diagram says, and what only a component diagram declares.
_P_SEQUENCE = re.compile(
    r"^[ \t]*(?:participant|boundary|control|collections|activate|deactivate|autonumber|return|"
    r"alt|loop|opt|par)(?![\w.-])",
    re.M,
)
_P_COMPONENTS = re.compile(
    r"^[ \t]*(?:component|node|package|rectangle|interface|cloud|frame|usecase|class)(?![\w.-])|"
    r"^[ \t]*\[[^\]\n]+\]",
    re.M,
)
_D_ID = r"\"[^\"\n]+\"|[\w.]+"
_D_EDGE = re.compile(
    rf"(?P<a>{_D_ID})[ \t]*->[ \t]*(?P<b>{_D_ID})[ \t]*(?:\[(?P<attrs>[^\]\n]*)\])?"
)
_D_NODE = re.compile(rf"^[ \t]*(?P<id>{_D_ID})[ \t]*\[(?P<attrs>[^\]\n]*)\]", re.M)
_D_LABEL = re.compile(r"label\s*=\s*\"(?P<l>[^\"\n]*)\"|label\s*=\s*(?P<m>[\w.-]+)")


def _kind(label: str | None, verbs: VerbTable) -> str:
    """The relation an arrow's label states: its verb phrase when the label opens with it
    (after a step's number, an adverb or a protocol's name: "gRPC calls"); a verb's word
    after lowercase words is a noun ("traces & metrics queries" names what flows, and
    states no call)."""
    stated = verbs.stated_relation(f" {label} ") if label else None
    if stated is None or label is None:
        return UNLABELLED
    before = f" {label} "[: stated.start]
    # a protocol's name before it keeps the call ("gRPC calls", "HTTP requests to")
    words = [w for w in re.findall(r"[^\W\d_]+", before) if w.islower()]
    if any(w not in _LEADING_WORDS for w in words):
        return UNLABELLED
    return stated.type


_LEADING_WORDS = frozenset({"then", "also", "and", "later", "first", "finally", "async", "sync"})


def _at(text: str, offset: int, start: int, end: int) -> Located:
    return Located(text[offset + start : offset + end], offset + start, offset + end)


def _line(text: str, offset: int, start: int, end: int) -> Located:
    """The whole line around [start, end) of the block at `offset`, without its indent."""
    first = text.rfind("\n", 0, offset + start) + 1
    last = text.find("\n", offset + end)
    last = len(text) if last < 0 else last
    while first < last and text[first] in " \t":
        first += 1
    return Located(text[first:last].rstrip(), first, first + len(text[first:last].rstrip()))


def _sequence(text: str, offset: int, block: str, verbs: VerbTable) -> Iterator[StructuralRelation]:
    written: dict[str, Located] = {}
    people: set[str] = set()  # an actor, a person: no component
    for participant in _S_PARTICIPANT.finditer(block):
        group = "label" if participant.group("label") else "id"
        written.setdefault(participant.group("id"), _at(text, offset, *participant.span(group)))
        shown = (participant.group("label") or participant.group("id")).strip().lower()
        if participant.group().lstrip().startswith("actor") or shown in PEOPLE:
            people.add(participant.group("id"))
    ambiguous = _shared_first_lines(written)
    labels = {key: _shown_line(label, ambiguous) for key, label in written.items()}
    exchange = Exchange()
    for line in re.finditer(r"[^\n]+", block):
        match = None if exchange.block(line.group()) else _S_MESSAGE.match(block, *line.span())
        if match is None:
            continue
        arrow = match.group("arrow")
        if arrow.startswith("<<"):
            continue  # both ways: no direction of dependency
        if match.group("a") in people or match.group("b") in people:
            continue  # "User->>K8s: kubectl apply": a person acts, no component
        a, b = (labels.get(match.group(s), _at(text, offset, *match.span(s))) for s in "ab")
        if a.text == b.text:
            continue  # a message to itself ("M->>M: Update the index") relates nothing
        if exchange.answers(a.text, b.text, match.group("label")) or arrow.startswith("--"):
            continue  # a reply (dashed: to a request not drawn)
        stated = verbs.stated_relation(f" {match.group('label')} ")
        kind = stated.type if stated is not None else ("sends-to" if ")" in arrow else "calls")
        yield exchange.ask(kind, _line(text, offset, match.start("a"), match.end()), a, b)


def _mermaid(text: str, offset: int, block: str, verbs: VerbTable) -> Iterator[StructuralRelation]:
    if re.match(r"\s*sequenceDiagram\b", block):
        yield from _sequence(text, offset, block, verbs)
        return
    if not re.match(r"\s*(?:graph|flowchart)\b", block):
        return
    block = _one_line_labels(block)
    written: dict[str, Located] = {}
    block, unnamed = _shape_data(text, offset, block, written)
    decisions: set[str] = set()  # nodes drawn as a decision (`C{"Feature gate enabled?"}`)
    for definition in _M_DEFINITION.finditer(block):
        shown = _written_label(text, offset, definition, "n")
        if shown is not None and definition.group("n") not in written:
            written[definition.group("n")] = shown
        if re.match(r"\s*\{(?!\{)", block[definition.end("n") :]):
            decisions.add(definition.group("n"))
    ambiguous = _shared_first_lines(written)
    labels = {key: _shown_line(label, ambiguous) for key, label in written.items()}
    for line in re.finditer(r"[^\n]+", block):
        position = line.start()
        # A chain (a --> b --> c) is edges that share their middle node.
        while (edge := _M_EDGE.search(block, position, line.end())) is not None:
            match = edge
            if match.group("a") in unnamed:
                position = match.start("b")
                continue
            ends = [_node(text, offset, match, side, labels, ambiguous) for side in ("a", "b")]
            if any(
                match.group(s) in decisions or a_step(e.text)
                for s, e in zip("ab", ends, strict=True)
            ):
                # a decision ("Has more pages?") or a step ("Get next page") of a process,
                # drawn as a flowchart: no component, and its arrows relate none
                position = match.start("b")
                continue
            label = match.group("la") or match.group("lb") or match.group("lc")
            evidence = _line(text, offset, match.start(), match.end())
            # A branch ("-->|No|") is taken in some runs only: its answer is no negation.
            branch = (label or "").strip().lower() in _ANSWERS
            drawn_as = ("affirmed", "hypothetical") if branch else (None, None)
            kind = _kind(None if branch else label, verbs)
            targets = [(ends[1], match.end(), match.group("b"))]
            # "L --> M(Receiver) & N(Processor)": one arrow to each node after "&".
            while (more := _M_ALSO.match(block, targets[-1][1], line.end())) is not None:
                shown = _node(text, offset, more, "n", labels, ambiguous)
                targets.append((shown, more.end(), more.group("n")))
            targets = [t for t in targets if t[2] not in decisions and not a_step(t[0].text)]
            for target, end, key in targets:
                if key in unnamed:
                    continue
                quote = evidence if end == match.end() else _line(text, offset, match.start(), end)
                yield StructuralRelation(kind, quote, ends[0], target, drawn_as[1], drawn_as[0])
            position = match.start("b")


# Mermaid's shape data (`C@{ shape: procs, label: "Collectors" }`), a YAML map that may run
# over lines; its label, quoted or not.
_M_SHAPE_DATA = re.compile(r"(?<=[\w.-])@\{(?P<data>[^{}]*)\}")
_M_SHAPE_ID = re.compile(r"[A-Za-z0-9_][\w.-]*\Z")
_M_SHAPE_LABEL = re.compile(
    r"(?:^|[{,\s])label\s*:\s*(?:\"(?P<q>[^\"]*)\"|'(?P<s>[^']*)'|(?P<u>[^,\s'\"][^,\n]*?))\s*(?:,|\Z)"
)
_M_SHAPE_IMAGE = re.compile(r"(?:^|[{,\s])img\s*:")


def _shape_data(
    text: str, offset: int, block: str, written: dict[str, Located]
) -> tuple[str, frozenset[str]]:
    """The block with each node's shape data blanked out (offsets kept), the labels it
    gives put in `written`, and the ids of nodes shown as an image alone: they show no
    name, so no relation is read to or from them."""
    unnamed: set[str] = set()

    def blank(match: re.Match[str]) -> str:
        node = _M_SHAPE_ID.search(block, 0, match.start())
        if node is None:
            return match.group()
        data = match.group("data")
        label = _M_SHAPE_LABEL.search(data)
        if label is not None:
            group = next(g for g in ("q", "s", "u") if label.group(g) is not None)
            start = match.start("data") + label.start(group)
            end = match.start("data") + label.end(group)
            if end > start:
                written.setdefault(node.group(), _at(text, offset, start, end))
        elif _M_SHAPE_IMAGE.search(data):
            unnamed.add(node.group())
        return re.sub(r"[^\n]", " ", match.group())

    return _M_SHAPE_DATA.sub(blank, block), frozenset(unnamed)


# Branch answers on an arrow out of a decision.
_ANSWERS = frozenset({"yes", "no", "true", "false", "y", "n", "ok", "fail", "else", "otherwise"})
_M_ALSO = re.compile(r"\s*&\s*" + _M_NODE.format("n"))
# A Markdown string as a label (`A("`**Collector.Run**\n Starts the collector`")`) may run
# over several lines: read with its line breaks as spaces (offsets kept), named by its first.
_MARKDOWN_STRING = re.compile(r'"`[^`]*`"')


def _one_line_labels(block: str) -> str:
    return _MARKDOWN_STRING.sub(lambda m: m.group().replace("\n", " "), block)


def _node(
    text: str,
    offset: int,
    match: re.Match[str],
    side: str,
    labels: dict[str, Located],
    ambiguous: frozenset[str],
) -> Located:
    """A Mermaid node an edge draws: its label where the edge gives one, else the one its id
    was defined with, else its id."""
    drawn = _written_label(text, offset, match, side)
    if drawn is not None:
        return _shown_line(drawn, ambiguous)
    return labels.get(match.group(side), _at(text, offset, *match.span(side)))


def _written_label(text: str, offset: int, match: re.Match[str], side: str) -> Located | None:
    """The label a Mermaid node is drawn with, all its lines, if the match gives one."""
    for group in (side + "q", side + "l"):
        if match.group(group):
            return _at(text, offset, *match.span(group))
    return None


def _shared_first_lines(written: dict[str, Located]) -> frozenset[str]:
    """First lines several different labels of one diagram open with ("Flux<br><br>source-
    controller", "Flux<br><br>helm-controller"): a product's name over each of its parts."""
    seen: dict[str, set[str]] = {}
    for label in written.values():
        seen.setdefault(_first_line(label).text, set()).add(label.text)
    return frozenset(first for first, labels in seen.items() if len(labels) > 1)


def _shown_line(label: Located, ambiguous: frozenset[str]) -> Located:
    """The line naming a label: its first, unless other labels open with it too (then its
    last: "source-controller", not "Flux")."""
    first = _first_line(label)
    if first.text not in ambiguous:
        return first
    parts = [m.end() for m in _BREAK.finditer(label.text)] + [label.text.rfind("\n") + 1]
    last = _first_line(Located(label.text[max(parts) :], label.start + max(parts), label.end))
    return last if last.text else first


def _first_line(label: Located) -> Located:
    """A label up to its first line break (`<br/>`, `\\n`, a new line), without spaces or
    Markdown's marks around it (a Markdown string's "`**Service.Start**`")."""
    cut = _BREAK.search(label.text)
    kept = label.text if cut is None else label.text[: cut.start()]
    kept = kept.split("\n", 1)[0]
    lead = len(kept) - len(kept.lstrip(" \t`*_"))
    kept = kept.strip(" \t`*_")
    icon = ICON.match(kept)  # "fa:fa-server Replica 1": the icon shows no name
    if icon is not None and icon.end() < len(kept):
        lead, kept = lead + icon.end(), kept[icon.end() :]
    if not kept:
        return label
    return Located(kept, label.start + lead, label.start + lead + len(kept))


def _unquoted(text: str, offset: int, span: tuple[int, int]) -> Located:
    raw = text[offset + span[0] : offset + span[1]]
    if len(raw) > 2 and raw[0] in '"[' and raw[-1] in '"]':
        return Located(raw[1:-1], offset + span[0] + 1, offset + span[1] - 1)
    return Located(raw, offset + span[0], offset + span[1])


def _plantuml(text: str, offset: int, block: str, verbs: VerbTable) -> Iterator[StructuralRelation]:
    labels: dict[str, Located] = {}
    for alias in _P_ALIAS.finditer(block):
        group = "l1" if alias.group("l1") else "l2"
        labels[alias.group("id")] = _at(text, offset, *alias.span(group))
    sequence = bool(_P_SEQUENCE.search(block)) and not _P_COMPONENTS.search(block)
    people = {
        m.group("id") or m.group("n") or m.group("l") or m.group("c")
        for m in _P_ACTOR.finditer(block)
    }
    exchange = Exchange()
    for line in re.finditer(r"[^\n]+", block):
        if sequence and exchange.block(line.group()):
            continue
        match = _P_EDGE.match(block, *line.span())
        if match is None:
            continue
        arrow = match.group("arrow")
        if ">" not in arrow and "<" not in arrow:
            continue  # a plain link, no direction
        style = re.sub(r"\[[^\]\n]*\]", "", arrow)  # its colour or style: `-[#blue]->`
        if sequence and "<" in style and ">" in style:
            continue  # both ways: no direction of dependency
        a, b = (_unquoted(text, offset, match.span(s)) for s in ("a", "b"))
        if {a.text, b.text} & people:
            continue  # an actor is a person, no component
        a, b = labels.get(a.text, a), labels.get(b.text, b)
        if a.text.lower() in PEOPLE or b.text.lower() in PEOPLE:
            continue
        if a.text == b.text:
            continue  # a message to itself relates nothing
        if arrow.startswith("<"):
            a, b = b, a
        replied = sequence and exchange.answers(a.text, b.text, match.group("label"))
        if replied or (sequence and ("--" in style or ".." in style)):
            continue  # a reply (dashed: to a request not drawn)
        evidence = _line(text, offset, match.start("a"), match.end())
        kind = _kind(match.group("label"), verbs)
        if not sequence:
            yield StructuralRelation(kind, evidence, a, b)
            continue
        if kind == UNLABELLED:
            kind = "sends-to" if ">>" in arrow or "<<" in arrow else "calls"  # a request
        yield exchange.ask(kind, evidence, a, b)


def _dot(text: str, offset: int, block: str, verbs: VerbTable) -> Iterator[StructuralRelation]:
    labels: dict[str, Located] = {}
    for match in _D_NODE.finditer(block):
        label = _D_LABEL.search(match.group("attrs"))
        if label is not None:
            group = "l" if label.group("l") is not None else "m"
            start = match.start("attrs") + label.start(group)
            labels[match.group("id").strip('"')] = _at(
                text, offset, start, start + len(label.group(group))
            )
    for match in _D_EDGE.finditer(block):
        a, b = (_unquoted(text, offset, match.span(s)) for s in ("a", "b"))
        a, b = labels.get(a.text, a), labels.get(b.text, b)
        attrs = match.group("attrs") or ""
        label = _D_LABEL.search(attrs)
        words = (label.group("l") or label.group("m")) if label is not None else None
        evidence = _line(text, offset, match.start(), match.end())
        yield StructuralRelation(_kind(words, verbs), evidence, a, b)


def diagram_relations(text: str, verbs: VerbTable = DEFAULT_VERBS) -> list[StructuralRelation]:
    """The relations the diagrams written as code in `text` draw, typed by `verbs`."""
    found: list[StructuralRelation] = []
    fenced: list[tuple[int, int]] = []
    for match in _FENCE.finditer(text):
        language, offset = match.group(1).lower(), match.start(2)
        fenced.append(match.span())
        reader = {"mermaid": _mermaid, "plantuml": _plantuml, "puml": _plantuml}.get(language)
        found.extend((reader or _dot)(text, offset, match.group(2), verbs))
    for match in _SHORTCODE.finditer(text):
        if not any(s <= match.start() < e for s, e in fenced):
            fenced.append(match.span())
            found.extend(_mermaid(text, match.start(1), match.group(1), verbs))
    for pattern, reader in ((_PLANTUML_BARE, _plantuml), (_DOT_BARE, _dot)):
        for match in pattern.finditer(text):
            if not any(s <= match.start() < e for s, e in fenced):
                found.extend(reader(text, match.start(1), match.group(1), verbs))
    return found


def may_hold_diagrams(text: str) -> bool:
    """A cheap test before parsing: a diagram fence or opening is in the text."""
    return any(m in text for m in ("```", "~~~", "@startuml", "digraph", "mermaid"))
