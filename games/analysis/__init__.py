"""Match analysis by GNU Backgammon, run as a separate program.

gnubg is GPL: the project never imports it. ``runner`` starts ``gnubg -t -q -p`` on
``gnubg_script.py`` (a script gnubg's own Python runs), which imports the .mat file, analyses
it and prints the analysis as JSON; ``runner`` reads that back into plain dataclasses. No
Django here.
"""
