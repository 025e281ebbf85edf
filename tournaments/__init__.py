"""Players, tournaments and entries; rounds, matches, standings and ratings come later."""
