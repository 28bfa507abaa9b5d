"""Evidence for a question: seeds, graph walk, ranking, budget and a grounding verdict."""
