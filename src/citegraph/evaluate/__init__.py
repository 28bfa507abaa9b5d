"""`citegraph eval`: questions with gold answers and documents, run through retrieval and the
answerer, measured and reported."""
