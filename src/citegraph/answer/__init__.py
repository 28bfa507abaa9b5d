"""Answers: a model (or the offline extractive answerer) writes claims with quotes; code
verifies every quote against the evidence item it names, or the answer is refused."""
