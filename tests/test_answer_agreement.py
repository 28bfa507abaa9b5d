"""The offline answerer's agreement rules (issue 15): a near miss is another question. A
negated question needs a negated sentence; each name and number the question states must be
in the sentence (close spellings and accents forgiven); a question that puts one ordinary word
in its own words is still answered, an uncovered name never."""

from __future__ import annotations

import pytest

from citegraph import Scope, Workspace
from citegraph.values.answers import Disposition

from helpers import cli

REBUILT = "When was the harbour wall at Kettleness reconstructed after the great storm?"
NOTES = """\
For instance, P is strictly contained in EXPTIME, and L is strictly contained in PSPACE.

The Royal University of Warsaw was established in 1816 by the Polish government.

A method to lessen the heating was invented in 1804 by the engineer Arthur Woolf, who
patented his compound engine in 1805.

Erwin Schrödinger published his wave equation in 1926, while he worked in Zurich.

The harbour wall at Kettleness was rebuilt in 1884 after the great storm.
"""


@pytest.fixture
def notes(workspace: Workspace) -> Scope:
    scope = workspace.scope("agreement")
    scope.ingest(NOTES.encode(), name="notes.md")
    return scope


def _answered(scope: Scope, question: str) -> str:
    answer = scope.ask(question)
    assert answer.disposition is Disposition.ANSWERED, (question, answer.detail)
    return " ".join(c.quote for c in answer.citations)


def _refused(scope: Scope, question: str) -> None:
    answer = scope.ask(question)
    assert answer.disposition is Disposition.REFUSED, (question, answer.text)


def test_a_negated_question_needs_a_negated_sentence(notes: Scope) -> None:
    assert "P is strictly contained in EXPTIME" in _answered(
        notes, "What is strictly contained in EXPTIME?"
    )
    _refused(notes, "What is not strictly contained in EXPTIME?")


def test_each_name_and_number_of_the_question_is_in_the_sentence(notes: Scope) -> None:
    assert "1816" in _answered(notes, "When was the Royal University of Warsaw established?")
    _refused(notes, "When was the Royal University of Prussia established?")
    assert "Arthur Woolf" in _answered(notes, "Who patented a compound engine in 1805?")
    _refused(notes, "Who patented a compound engine in 1807?")
    # Accents aside, and a close spelling of a long name, it is the same name.
    assert "1926" in _answered(notes, "When did Schrodinger publish his wave equation?")
    assert "1926" in _answered(notes, "When did Schroedinger publish his wave equation?")


def test_an_ordinary_word_in_the_question_s_own_words_is_forgiven(notes: Scope) -> None:
    answer = notes.ask(REBUILT)
    assert answer.evidence.verdict.uncovered == ("reconstructed",)
    assert answer.disposition is Disposition.ANSWERED, answer.detail
    assert "1884" in answer.citations[0].quote
    # Forgiven, but not covered: a question the sentences do not cover well enough is refused,
    # saying both what was short and which word nothing stored has.
    storm = notes.ask("When was the wall reconstructed?")
    assert storm.disposition is Disposition.REFUSED
    assert "nothing stored covers: reconstructed" in storm.detail
    # A name nothing stored holds is what the question is about: refused.
    dover = notes.ask("When was the harbour wall at Dover rebuilt?")
    assert dover.disposition is Disposition.REFUSED and "Dover" in dover.evidence.verdict.uncovered


def test_the_cli_says_which_words_nothing_stored_has(tmp_path: object) -> None:
    home = str(tmp_path / "home")  # type: ignore[operator]
    notes = tmp_path / "notes.md"  # type: ignore[operator]
    notes.write_text(NOTES)
    assert cli("ingest", str(notes), "--home", home).returncode == 0
    shown = cli("ask", REBUILT, "--home", home)
    assert shown.returncode == 0, shown.stderr
    assert "answered" in shown.stdout and "reconstructed" in shown.stdout
    assert "1884" in shown.stdout


INSTITUTE = """\
The Ashby Institute was founded in 1771 by the merchant Thomas Ashby.

Under Mary Hale the institute built its observatory; the observatory was designed in 1820.

Under Owen Price the institute built its library; the library was designed by Ada Lunt.
"""


@pytest.fixture
def institute(workspace: Workspace) -> Scope:
    scope = workspace.scope("agreement_institute")
    # One document a paragraph: a sentence is read with the one before it in its passage.
    for index, paragraph in enumerate(INSTITUTE.split("\n\n")):
        scope.ingest(paragraph.encode(), name=f"institute-{index}.md")
    return scope


def test_the_answer_is_taken_from_the_statement_that_says_what_is_asked(
    institute: Scope,
) -> None:
    # Mary Hale is a person of the sentence, but of the statement that does not say who
    # designed the observatory.
    _refused(institute, "Who designed the observatory?")
    assert "Ada Lunt" in _answered(institute, "Who designed the library?")
    assert "Thomas Ashby" in _answered(institute, "Who founded the Ashby Institute?")
