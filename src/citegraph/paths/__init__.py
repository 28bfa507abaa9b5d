"""Graph walks graded hop by hop against their source sentences: impact and paths."""
