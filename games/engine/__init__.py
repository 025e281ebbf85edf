"""The Long Nardy engine: a network trained by self-play that rates positions and plays
(``games.engine.search``), the bear-off database (``games.engine.bearoff``), the analysis of
recorded matches (``games.engine.analysis``) and its training (``games.engine.train``).

Pure Python and numpy. Its matrix products are small (a few hundred positions by a few hundred
inputs): BLAS threads only wait on each other there, and one of them spinning took a whole core
from the other work of the machine, so numpy is kept to one thread when the engine imports it
first.
"""

import os

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")
