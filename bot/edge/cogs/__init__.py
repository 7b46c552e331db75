"""Slash-command groups, one module each."""
