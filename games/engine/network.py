"""The evaluator's networks: features → one hidden layer → three probabilities, numpy only.

The outputs are, for the side on roll, the probabilities of winning, of winning a mars and of
losing a mars. As gnubg does, positions of contact and of the race may have networks of their
own (``Network.race``): a race is a simpler game, and a network of its own spends none of the
contact network's units on it. Each row goes to one of them by its race input
(``features.RACE``).

The weights ship in the repository as a small ``.npz`` file with their version and the size of
their inputs, so that weights made for other features are refused when loaded rather than read
wrong. Version 1 files (``v1-60k``) hold one network for every position; version 2 files may add
the race network's arrays (``race_w1`` …). Weights made before the mobility inputs (``v1-60k``,
``v2-230k``: ``features.FIRST_SIZE`` inputs) read the prefix of the features they were made for.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from games.engine.features import FIRST_SIZE, RACE, SIZE, Features

#: The format this engine writes; it reads ``READS``.
VERSION = 2
READS = (1, 2)
OUTPUTS = 3
WEIGHTS = Path(__file__).with_name("weights") / "long.npz"
Array = npt.NDArray[np.floating[Any]]
_ARRAYS = ("w1", "b1", "w2", "b2")
#: The sizes of input a weights file may have been made for: the features' prefixes.
INPUTS = (FIRST_SIZE, SIZE)


@dataclass(slots=True)
class Layers:
    """``hidden = sigmoid(x W1 + b1)``, ``outputs = sigmoid(hidden W2 + b2)``."""

    w1: Array
    b1: Array
    w2: Array
    b2: Array

    @classmethod
    def initial(cls, hidden: int, rng: np.random.Generator) -> Layers:
        """Small random weights, as training starts from."""
        return cls(
            (rng.standard_normal((SIZE, hidden)) * np.sqrt(1.0 / SIZE)).astype(np.float32),
            np.zeros(hidden, np.float32),
            (rng.standard_normal((hidden, OUTPUTS)) * np.sqrt(1.0 / hidden)).astype(np.float32),
            np.zeros(OUTPUTS, np.float32),
        )

    @property
    def hidden(self) -> int:
        return int(self.w1.shape[1])

    @property
    def inputs(self) -> int:
        return int(self.w1.shape[0])

    def forward(self, x: Features) -> Array:
        return _sigmoid(_sigmoid(self._seen(x) @ self.w1 + self.b1) @ self.w2 + self.b2)

    def _seen(self, x: Features) -> Features:
        """The columns of the features these weights were made for (a prefix of them)."""
        return x if x.shape[1] == self.inputs else x[:, : self.inputs]

    def learn(self, x: Features, targets: Array, rate: float) -> float:
        """One step of gradient descent on the cross-entropy between the outputs and
        ``targets`` (soft, in [0, 1]) over the rows of ``x``, in place (so that workers sharing
        the arrays learn together); returns the mean squared error before the step."""
        x = self._seen(x)
        hidden = _sigmoid(x @ self.w1 + self.b1)
        out = _sigmoid(hidden @ self.w2 + self.b2)
        delta_out = out - targets
        delta_hidden = (delta_out @ self.w2.T) * hidden * (1.0 - hidden)
        self.w2 -= rate * (hidden.T @ delta_out)
        self.b2 -= rate * delta_out.sum(axis=0)
        self.w1 -= rate * (x.T @ delta_hidden)
        self.b1 -= rate * delta_hidden.sum(axis=0)
        return float((delta_out**2).mean())

    def widened(self, hidden: int, rng: np.random.Generator) -> Layers:
        """The same function with ``hidden`` units and every input of today's features: the
        new units' outputs and the new inputs weigh nothing yet, so training goes on from what
        the network knows (Net2Net's widening)."""
        more = hidden - self.hidden
        if more < 0:
            raise ValueError(f"cannot narrow {self.hidden} hidden units to {hidden}")
        fresh = (rng.standard_normal((SIZE, more)) * np.sqrt(1.0 / SIZE)).astype(np.float32)
        unseen = np.zeros((SIZE - self.inputs, self.hidden), np.float32)
        return Layers(
            np.concatenate([np.concatenate([self.w1, unseen]), fresh], axis=1),
            np.concatenate([self.b1, np.zeros(more, np.float32)]),
            np.concatenate([self.w2, np.zeros((more, OUTPUTS), np.float32)]),
            self.b2.copy(),
        )

    def arrays(self) -> tuple[Array, Array, Array, Array]:
        return self.w1, self.b1, self.w2, self.b2


@dataclass(slots=True)
class Network:
    """The contact network, and the race network if the weights have one (else the contact
    network answers races too)."""

    contact: Layers
    race: Layers | None
    #: How the weights were made (games of self-play, seed, ...), for the README and the page.
    info: dict[str, Any]

    @classmethod
    def initial(cls, hidden: int, seed: int, *, race: bool = False) -> Network:
        rng = np.random.default_rng(seed)
        contact = Layers.initial(hidden, rng)
        return cls(
            contact, Layers.initial(hidden, rng) if race else None, {"games": 0, "seed": seed}
        )

    @property
    def hidden(self) -> int:
        return self.contact.hidden

    @property
    def inputs(self) -> int:
        """The features these weights read (``features.encode``'s ``size``)."""
        return self.contact.inputs

    def layers(self) -> tuple[Layers, ...]:
        return (self.contact,) if self.race is None else (self.contact, self.race)

    def forward(self, x: Features) -> Array:
        """The raw outputs, one row of three a position (not yet made coherent)."""
        if self.race is None:
            return self.contact.forward(x)
        race = x[:, RACE] > 0.5
        if race.all():
            return self.race.forward(x)
        if not race.any():
            return self.contact.forward(x)
        out = np.empty((len(x), OUTPUTS), np.float32)
        out[race] = self.race.forward(x[race])
        out[~race] = self.contact.forward(x[~race])
        return out

    def learn(self, x: Features, targets: Array, rate: float) -> float:
        """One step toward ``targets`` for each row, by the network that answers it."""
        if self.race is None:
            return self.contact.learn(x, targets, rate)
        race = x[:, RACE] > 0.5
        errors = [
            layers.learn(x[rows], targets[rows], rate) * int(rows.sum())
            for layers, rows in ((self.race, race), (self.contact, ~race))
            if rows.any()
        ]
        return sum(errors) / max(len(x), 1)

    def widened(self, hidden: int, seed: int, *, race: bool) -> Network:
        """These weights with ``hidden`` units a network, and a race network (a copy of the
        contact one, to begin with) when ``race``: the same answers, more room to learn."""
        rng = np.random.default_rng(seed)
        contact = self.contact.widened(hidden, rng)
        raced = self.race or (self.contact if race else None)
        return Network(
            contact, None if raced is None else raced.widened(hidden, rng), dict(self.info)
        )

    def save(self, path: Path) -> None:
        """Write the weights as float32 in a compressed ``.npz``, atomically."""
        arrays = dict(zip(_ARRAYS, self.contact.arrays(), strict=True))
        if self.race is not None:
            arrays |= {
                f"race_{name}": a for name, a in zip(_ARRAYS, self.race.arrays(), strict=True)
            }
        meta = {"version": VERSION, "inputs": self.inputs, **self.info}
        arrays["meta"] = np.array(json.dumps(meta))
        buffer = io.BytesIO()
        np.savez_compressed(buffer, **arrays)  # type: ignore[arg-type]  # numpy's stub: allow_pickle
        path.parent.mkdir(parents=True, exist_ok=True)
        scratch = path.with_suffix(".tmp")
        scratch.write_bytes(buffer.getvalue())
        scratch.replace(path)

    @classmethod
    def load(cls, path: Path = WEIGHTS) -> Network:
        """Read a weights file; ``WeightsError`` if it is of another version or shape."""
        with np.load(path) as found:
            meta = json.loads(str(found["meta"]))
            inputs = meta.get("inputs")
            if meta.get("version") not in READS or inputs not in INPUTS:
                raise WeightsError(
                    f"{path}: weights of version {meta.get('version')} for {inputs} inputs; "
                    f"this engine reads versions {', '.join(map(str, READS))}, "
                    f"{' or '.join(map(str, INPUTS))} inputs"
                )
            contact = _layers(found, "", inputs, path)
            race = _layers(found, "race_", inputs, path) if "race_w1" in found.files else None
        info = {k: v for k, v in meta.items() if k not in ("version", "inputs")}
        return cls(contact, race, info)


def _layers(found: Any, prefix: str, inputs: int, path: Path) -> Layers:
    w1, b1, w2, b2 = (found[prefix + name].astype(np.float32) for name in _ARRAYS)
    if w1.shape[0] != inputs or w2.shape != (w1.shape[1], OUTPUTS) or b1.shape != (w1.shape[1],):
        raise WeightsError(f"{path}: the arrays do not fit together")
    return Layers(w1, b1, w2, b2)


class WeightsError(Exception):
    """A weights file this engine cannot read."""


def _sigmoid(z: Array) -> Array:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -40.0, 40.0)))
