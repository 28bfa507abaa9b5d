"""Answers as JSON documents, and checking them offline, without the database."""
