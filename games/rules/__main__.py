"""``python -m games.rules``: the rules' commands (``games.rules.cli``: plays, check) and the
Long Nardy engine's (``games.engine.cli``: best, eval, cube, rollout), which their contract
names under this program. The rules import nothing of the engine: this entry point, which no
module imports, hands the engine its commands."""

import sys

if sys.argv[1:2] in (["best"], ["eval"], ["cube"], ["rollout"]):
    from games.engine import cli as engine_cli

    sys.exit(engine_cli.main())

from games.rules.cli import main

sys.exit(main())
