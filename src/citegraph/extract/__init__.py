"""Entities in chunks: proposed by an extractor, located by the quote matcher, then stored."""
