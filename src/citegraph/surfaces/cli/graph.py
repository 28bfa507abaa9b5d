"""`citegraph impact` and `citegraph paths`: graded walks, printed as a tree of hops with
their grades and quotes (or, with --json, the citegraph-impact/1 and -paths/1 shapes)."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from ...errors import CitegraphError
from ...limits import DEFAULT_WALK_HOPS, MAX_WALK_HOPS
from ...service.shapes import wire
from ...service.walk_shapes import impact_shape, paths_shape
from ...values.paths import DEFAULT_WALK_POLICY, GradedPath, Unresolved, WalkPolicy
from .common import (
    HomeOpt,
    JsonOpt,
    ScopeOpt,
    UrlOpt,
    app,
    err,
    escape,
    fail,
    open_workspace,
    out,
    say_coverage,
)

# The name meant several entities, or none: nothing was walked.
EXIT_NOT_WALKED = 1

WalkHopsOpt = Annotated[
    int,
    typer.Option(
        "--hops", min=1, max=MAX_WALK_HOPS, help=f"Hops from the entity (1 to {MAX_WALK_HOPS})."
    ),
]
CoMentionsOpt = Annotated[
    bool,
    typer.Option(
        "--co-mentions",
        help="Also walk links that only share a sentence (graded inferred); results are "
        "marked evaluation mode.",
    ),
]
NoAliasesOpt = Annotated[
    bool,
    typer.Option(
        "--no-aliases",
        help="Do not walk names a source says are one thing (an acronym's definition) as one; "
        "results are marked evaluation mode.",
    ),
]
_MARKS = {"supported": "[green]supported[/]", "inferred": "[yellow]inferred[/]",
          "insufficient": "[red]insufficient[/]"}  # fmt: skip


def _policy(co_mentions: bool, no_aliases: bool = False) -> WalkPolicy:
    if not co_mentions and not no_aliases:
        return DEFAULT_WALK_POLICY
    name = "engineering-default" + ("+co-mentions" if co_mentions else "")
    name += "+no-aliases" if no_aliases else ""
    return WalkPolicy(co_mentions=co_mentions, aliases=not no_aliases, name=name)


def _print_policy(policy: WalkPolicy) -> None:
    mode = "" if policy.is_default else " [yellow](evaluation mode: not the default policy)[/]"
    types = ", ".join(policy.types) + (", co-mentions" if policy.co_mentions else "")
    types += ", through aliases" if policy.aliases else ""
    out.print(f"policy {escape(policy.name)}: follows {escape(types)}{mode}")


def _print_path(path: GradedPath, indent: str) -> None:
    for hop in path.hops:
        out.print(
            f"{indent}{escape(hop.subject)} [bold]{escape(hop.relation)}[/] "
            f"{escape(hop.object)}  {_MARKS[hop.grade.value]}"
        )
        if hop.evidence is not None:
            e = hop.evidence
            page = f", page {e.page}" if e.page else ""
            out.print(
                f'{indent}  "{escape(e.quote)}"  ({escape(hop.document_name or e.document_id)}'
                f" bytes {e.start_byte}-{e.end_byte}{page})"
            )
        if hop.reason is not None:
            out.print(f"{indent}  [dim]{escape(hop.reason)}[/]")


def _print_unresolved(unresolved: Unresolved) -> None:
    if unresolved.candidates:
        out.print(
            f"{escape(unresolved.name)!r} names {len(unresolved.candidates)} entities; "
            "nothing was walked. Pick one by its key:"
        )
        for c in unresolved.candidates:
            documents = ", ".join(c.documents[:3]) + (" ..." if len(c.documents) > 3 else "")
            out.print(
                f"  {escape(c.key)}  ({escape(c.type)}, {c.mentions} mention(s): "
                f"{escape(documents)})"
            )
        return
    close = ", ".join(unresolved.suggestions)
    hint = f"; stored names spelled close to it: {escape(close)}" if close else ""
    out.print(f"no entity named {escape(unresolved.name)!r} is stored{hint}")


@app.command()
def impact(
    name: Annotated[str, typer.Argument(help="An entity name, or its key (type:name).")],
    scope: ScopeOpt = "default",
    home: HomeOpt = None,
    url: UrlOpt = None,
    as_json: JsonOpt = False,
    hops: WalkHopsOpt = DEFAULT_WALK_HOPS,
    direction: Annotated[
        str,
        typer.Option(
            "--direction",
            help="dependents: who is affected if NAME changes; dependencies: what NAME needs.",
        ),
    ] = "dependents",
    co_mentions: CoMentionsOpt = False,
    no_aliases: NoAliasesOpt = False,
) -> None:
    """If NAME changes, what breaks: every entity that depends on it (calls, depends on,
    reads, writes, sends to it...) within --hops, each with its best path, every hop graded
    against its own sentence: supported (a located sentence says it), inferred (linked, but no
    sentence says it), insufficient (the sentence is negated, hypothetical or planned, or a
    name means several things). A name that means several entities lists them and walks
    nothing (exit 1): run again with the key of the one you mean."""
    with open_workspace(home, url) as ws:
        try:
            result = ws.scope(scope).impact(name, direction, hops, _policy(co_mentions, no_aliases))
        except CitegraphError as exc:
            fail(str(exc), 3)
    say_coverage(result.extraction, scope)
    if as_json:
        print(json.dumps(wire(impact_shape(result, scope))))
    elif result.unresolved is not None:
        _print_unresolved(result.unresolved)
    else:
        assert result.entity is not None
        out.print(
            f"[bold]{escape(result.entity.name)}[/] ({escape(result.entity.type)}): "
            f"{result.direction.value}, up to {result.max_hops} hop(s)"
        )
        _print_policy(result.policy)
        if not result.affected:
            out.print("nothing found that the followed relations link to it")
        for affected in result.affected:
            out.print(
                f"\n{escape(affected.entity.name)}  {affected.hops} hop(s)  "
                f"{_MARKS[affected.grade.value]}"
            )
            _print_path(affected.paths[0], "  ")
        if result.truncated:
            out.print(
                f"\n[yellow]showing {len(result.affected)} of {result.found}[/] "
                f"(cut by: {escape(', '.join(result.limits))})"
            )
    if result.status != "ok":
        raise typer.Exit(EXIT_NOT_WALKED)


@app.command()
def paths(
    source: Annotated[str, typer.Argument(help="An entity name or key.")],
    target: Annotated[str, typer.Argument(help="Another entity name or key.")],
    scope: ScopeOpt = "default",
    home: HomeOpt = None,
    url: UrlOpt = None,
    as_json: JsonOpt = False,
    hops: WalkHopsOpt = DEFAULT_WALK_HOPS,
    co_mentions: CoMentionsOpt = False,
    no_aliases: NoAliasesOpt = False,
) -> None:
    """How SOURCE is connected to TARGET: the best paths of at most --hops hops, either way
    along the followed relations, each hop graded with its quote or the reason it has none."""
    with open_workspace(home, url) as ws:
        try:
            result = ws.scope(scope).paths(source, target, hops, _policy(co_mentions, no_aliases))
        except CitegraphError as exc:
            fail(str(exc), 3)
    say_coverage(result.extraction, scope)
    if as_json:
        print(json.dumps(wire(paths_shape(result, scope))))
    elif result.unresolved:
        for unresolved in result.unresolved:
            _print_unresolved(unresolved)
    else:
        _print_policy(result.policy)
        if not result.paths:
            out.print(f"no path of at most {result.max_hops} hop(s) under this policy")
        for n, path in enumerate(result.paths, start=1):
            out.print(f"\npath {n}: {path.steps} hop(s)  {_MARKS[path.grade.value]}")
            _print_path(path, "  ")
    if result.status != "ok":
        raise typer.Exit(EXIT_NOT_WALKED)


@app.command()
def entities(
    name: Annotated[str, typer.Argument(help="A name, as written in the documents.")],
    scope: ScopeOpt = "default",
    home: HomeOpt = None,
    url: UrlOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Every entity NAME can mean (case and spacing aside): its key (type:name, to pass to
    impact or paths), type, mention count and aliases (its spellings, and the names a source
    says it is also called: an acronym's definition, a remembered alias-of fact). Entities
    are never merged on spelling: same name, another type is another entity."""
    from ...service.knowledge_shapes import entities_shape

    with open_workspace(home, url) as ws:
        target = ws.scope(scope)
        found = target.entities(name)
        coverage = target.extraction_coverage()
    say_coverage(coverage, scope)
    if as_json:
        print(json.dumps(wire(entities_shape(name, found, coverage, scope))))
        return
    if not found:  # said as what it is, with the exit code of an unknown name in impact
        err.print(f"no entity named {escape(repr(name))} in scope {escape(repr(scope))}")
        raise typer.Exit(EXIT_NOT_WALKED)
    for e in found:
        others = [a for a in e.aliases if a != e.name]
        also = f"  also: {escape(', '.join(others))}" if others else ""
        out.print(f"{escape(e.key)}  {escape(e.type)}  {e.mentions} mention(s){also}")
