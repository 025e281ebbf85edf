"""Run by gnubg's embedded Python (``gnubg -t -q -p gnubg_script.py``), never imported by the
project: it imports the match file named by ``NARDY_ANALYSIS_MAT``, analyses it at
``NARDY_ANALYSIS_PLIES`` plies and prints ``gnubg.match(...)`` as JSON between two marker lines
(gnubg writes its own chatter around it)."""

import json
import os

import gnubg  # type: ignore[import-not-found]  # gnubg's own module, inside gnubg only

MARK = "=====NARDY-ANALYSIS====="
plies = int(os.environ.get("NARDY_ANALYSIS_PLIES", "0"))
gnubg.command('import mat "{}"'.format(os.environ["NARDY_ANALYSIS_MAT"].replace('"', "")))
gnubg.command(f"set analysis chequerplay evaluation plies {plies}")
gnubg.command(f"set analysis cubedecision evaluation plies {plies}")
gnubg.command("set analysis threshold 0.0")
gnubg.command("analyse match")
print(MARK)
print(json.dumps(gnubg.match(analysis=1, boards=0, statistics=1, verbose=0)))
print(MARK)
