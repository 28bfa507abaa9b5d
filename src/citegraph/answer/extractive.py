"""The offline answerer: quotes the evidence sentences that best answer the question.

It writes the same JSON a model is asked for, so its answers go through the same verification.
It declines unless the verdict is `grounded`.
"""

from __future__ import annotations

import json

from ..text.sentences import sentence_spans
from ..text.words import content_words, stem, stems
from ..values.evidence import Evidence, VerdictState

MAX_SENTENCES = 2


class ExtractiveAnswerer:
    name = "extractive"

    def reply(self, question: str, evidence: Evidence) -> str:
        verdict = evidence.verdict
        if verdict.state is not VerdictState.GROUNDED:
            why = f"the evidence is {verdict.state.value}"
            if verdict.uncovered:
                why += f"; nothing stored covers: {', '.join(verdict.uncovered)}"
            return json.dumps({"declined": why})
        wanted = {stem(w) for w in content_words(question)}
        names = [n.casefold() for n in verdict.matched_names]
        scored: list[tuple[float, int, str, str]] = []
        for rank, item in enumerate(evidence.items):
            if not item.citable:
                continue
            for start, end in sentence_spans(item.text):
                sentence = item.text[start:end]
                overlap = len(wanted & stems(sentence))
                if overlap == 0:
                    continue
                named = sum(name in sentence.casefold() for name in names)
                score = overlap + 0.5 * named - 0.05 * rank
                scored.append((score, -rank, item.id, sentence))
        if not scored:
            return json.dumps(
                {"declined": "no sentence of the evidence shares the question's words"}
            )
        best = sorted(scored, key=lambda s: (-s[0], -s[1]))[:MAX_SENTENCES]
        claims = [
            {"text": sentence, "citations": [{"evidence": item_id, "quote": sentence}]}
            for _, _, item_id, sentence in best
        ]
        answer = " ".join(" ".join(sentence.split()) for _, _, _, sentence in best)
        return json.dumps({"answer": answer, "claims": claims})
