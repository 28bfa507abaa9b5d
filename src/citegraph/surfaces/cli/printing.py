"""How an answer reads on a terminal: the text, then its sources in text order, each named by
its document (not its id), with bytes and pages, and the quote on a line of its own (no quote
marks added around a quote that has its own)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Console

from .common import escape, page_label

if TYPE_CHECKING:
    from ...values.answers import Answer
    from ...values.documents import Citation


def _sources(answer: Answer) -> list[tuple[str, str, Citation]]:
    """(document name, evidence id, citation) once each, in the order of the stored text."""
    names = {item.id: item.document_name for item in answer.evidence.items}
    seen: dict[tuple[str, int, int], tuple[str, str, Citation]] = {}
    for claim in answer.claims:
        for citation, evidence_id in zip(claim.citations, claim.evidence_ids, strict=True):
            key = (citation.document_id, citation.start_byte, citation.end_byte)
            name = names.get(evidence_id, citation.document_id)
            seen.setdefault(key, (name, evidence_id, citation))
    return sorted(seen.values(), key=lambda s: (s[0], s[2].start_byte))


def print_answer(answer: Answer, console: Console) -> None:
    if answer.disposition.value != "answered":
        reason = answer.reason.value if answer.reason else "refused"
        console.print(f"[bold red]refused[/] ({reason}): {escape(answer.detail)}")
        return
    console.print(
        f"[bold green]answered[/] by {escape(answer.receipt.answerer)}: {escape(answer.text or '')}"
    )
    uncovered = answer.evidence.verdict.uncovered
    if uncovered:
        console.print(
            f"[dim](no stored text has the word(s) {escape(', '.join(uncovered))}: read the "
            "quotes for what they say in their own words)[/]"
        )
    model_words = sum(claim.wording.value == "model" for claim in answer.claims)
    if model_words:
        console.print(
            f"[dim]({model_words} claim(s) in the model's own words; every quote below is "
            "verified)[/]"
        )
    for name, evidence_id, c in _sources(answer):
        pages = page_label(c.page, c.end_page)
        console.print(
            f"  [cyan]{escape(name)}[/], bytes [{c.start_byte}, {c.end_byte}){pages} "
            f"[dim]({evidence_id}, verified)[/]"
        )
        console.print(f"    [italic]{escape(' '.join(c.quote.split()))}[/]", soft_wrap=False)
