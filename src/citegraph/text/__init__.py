"""Text primitives: quote matching against stored text."""
