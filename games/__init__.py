"""Everything about a single game of nardy; the pure rules engine lives in games.rules."""
