"""Run by gnubg's embedded Python (``gnubg -t -q -p gnubg_script.py``), never imported by the
project: it imports the match file named by ``NARDY_ANALYSIS_MAT``, analyses it game by
game at ``NARDY_ANALYSIS_PLIES`` plies (a progress line after each game) and prints
``gnubg.match(...)`` as JSON between two marker lines (gnubg writes its own chatter around it)."""

import json
import os

import gnubg  # type: ignore[import-not-found]  # gnubg's own module, inside gnubg only

MARK = "=====NARDY-ANALYSIS====="
PROGRESS = "=====NARDY-PROGRESS====="
plies = int(os.environ.get("NARDY_ANALYSIS_PLIES", "0"))
gnubg.command('import mat "{}"'.format(os.environ["NARDY_ANALYSIS_MAT"].replace('"', "")))
gnubg.command(f"set analysis chequerplay evaluation plies {plies}")
gnubg.command(f"set analysis cubedecision evaluation plies {plies}")
gnubg.command("set analysis threshold 0.0")
# Game by game, saying how far it is (the match page shows "game 3 of 9").
total = len((gnubg.match(analysis=0, boards=0, statistics=0, verbose=0) or {}).get("games", []))
if total:
    gnubg.command("first game")
for number in range(1, total + 1):
    gnubg.command("analyse game")
    print(f"{PROGRESS} {number} {total}", flush=True)
    if number < total:
        gnubg.command("next game")
print(MARK)
print(json.dumps(gnubg.match(analysis=1, boards=0, statistics=1, verbose=0)))
print(MARK)
