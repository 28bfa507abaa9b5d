"""Model seams: embedders (chat models come with answers)."""
