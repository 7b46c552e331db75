"""Tournaments, pairings, standings and ratings (issue 11): pure logic, no Discord, no I/O."""
