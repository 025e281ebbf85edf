"""The evaluator's network: features → one hidden layer → three probabilities, numpy only.

The outputs are, for the side on roll, the probabilities of winning, of winning a mars and of
losing a mars (``Probabilities``). The weights ship in the repository as a small ``.npz`` file
with the network's version and the size of its inputs, so that weights made for other features
are refused when loaded rather than read wrong.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from games.engine.features import SIZE, Features

#: The format of the weights file; a file of another version is refused.
VERSION = 1
OUTPUTS = 3
WEIGHTS = Path(__file__).with_name("weights") / "long.npz"
Array = npt.NDArray[np.floating[Any]]


@dataclass(slots=True)
class Network:
    """``hidden = sigmoid(x W1 + b1)``, ``outputs = sigmoid(hidden W2 + b2)``."""

    w1: Array
    b1: Array
    w2: Array
    b2: Array
    #: How the weights were made (games of self-play, seed, ...), for the README and the page.
    info: dict[str, Any]

    @classmethod
    def initial(cls, hidden: int, seed: int) -> Network:
        """Small random weights, as training starts from."""
        rng = np.random.default_rng(seed)
        return cls(
            (rng.standard_normal((SIZE, hidden)) * np.sqrt(1.0 / SIZE)).astype(np.float32),
            np.zeros(hidden, np.float32),
            (rng.standard_normal((hidden, OUTPUTS)) * np.sqrt(1.0 / hidden)).astype(np.float32),
            np.zeros(OUTPUTS, np.float32),
            {"games": 0, "seed": seed},
        )

    @property
    def hidden(self) -> int:
        return int(self.w1.shape[1])

    def forward(self, x: Features) -> Array:
        """The raw outputs, one row of three a position (not yet made coherent)."""
        return _sigmoid(_sigmoid(x @ self.w1 + self.b1) @ self.w2 + self.b2)

    def learn(self, x: Features, targets: Array, rate: float) -> float:
        """One step of gradient descent on the cross-entropy between the outputs and
        ``targets`` (soft, in [0, 1]) over the rows of ``x``; returns the mean squared error
        before the step."""
        hidden = _sigmoid(x @ self.w1 + self.b1)
        out = _sigmoid(hidden @ self.w2 + self.b2)
        delta_out = out - targets
        delta_hidden = (delta_out @ self.w2.T) * hidden * (1.0 - hidden)
        self.w2 -= rate * (hidden.T @ delta_out)
        self.b2 -= rate * delta_out.sum(axis=0)
        self.w1 -= rate * (x.T @ delta_hidden)
        self.b1 -= rate * delta_hidden.sum(axis=0)
        return float((delta_out**2).mean())

    def save(self, path: Path) -> None:
        """Write the weights as float32 in a compressed ``.npz``, atomically."""
        buffer = io.BytesIO()
        np.savez_compressed(
            buffer,
            w1=self.w1,
            b1=self.b1,
            w2=self.w2,
            b2=self.b2,
            meta=np.array(json.dumps({"version": VERSION, "inputs": SIZE, **self.info})),
        )
        path.parent.mkdir(parents=True, exist_ok=True)
        scratch = path.with_suffix(".tmp")
        scratch.write_bytes(buffer.getvalue())
        scratch.replace(path)

    @classmethod
    def load(cls, path: Path = WEIGHTS) -> Network:
        """Read a weights file; ``WeightsError`` if it is of another version or shape."""
        with np.load(path) as found:
            meta = json.loads(str(found["meta"]))
            if meta.get("version") != VERSION or meta.get("inputs") != SIZE:
                raise WeightsError(
                    f"{path}: weights of version {meta.get('version')} for "
                    f"{meta.get('inputs')} inputs; this engine reads version {VERSION}, "
                    f"{SIZE} inputs"
                )
            arrays = [found[name].astype(np.float32) for name in ("w1", "b1", "w2", "b2")]
        w1, b1, w2, b2 = arrays
        if w1.shape[0] != SIZE or w2.shape != (w1.shape[1], OUTPUTS) or b1.shape != (w1.shape[1],):
            raise WeightsError(f"{path}: the arrays do not fit together")
        info = {k: v for k, v in meta.items() if k not in ("version", "inputs")}
        return cls(w1, b1, w2, b2, info)


class WeightsError(Exception):
    """A weights file this engine cannot read."""


def _sigmoid(z: Array) -> Array:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -40.0, 40.0)))
