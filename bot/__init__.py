"""Chaupal: board games in Discord channels."""
