"""Turning files and bytes into stored text and chunks with exact byte spans."""
