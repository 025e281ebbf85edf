"""Pairing and bracket generators: pure Python on plain values, no Django, no database.

Each module turns entrant numbers or plain records into pairings; the services turn those into
rows. Keeping them pure lets the tests check them exhaustively against published tables and
brute force.
"""
