"""One game of nardy: the pure rules engine (``rules``), the replay frames the board viewer draws
(``viewer``), a stored game (``models.Game``), records turned into validated games
(``services``), the engine's API endpoints (``api``) and GNU Backgammon run as a separate program
(``analysis``). It imports nothing of ``tournaments``: a game does not know the tournament it is
played in (docs/architecture.md; an import-linter contract keeps it so)."""
