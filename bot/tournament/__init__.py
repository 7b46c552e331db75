"""Tournaments (issue 11): pairings (Swiss, round robin, single elimination,
pods), standings and ratings.

Pure logic only: no Discord, no storage, no clocks.  The service stores
rounds, results and ratings and feeds them back in.
"""
