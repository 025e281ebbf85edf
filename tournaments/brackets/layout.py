"""Where each box and line of a bracket drawing goes: plain geometry for a server-side SVG. Pure.

The input is one ``BracketSlot`` per match, whatever the format: the slots say where their sides
come from (a seed, the winner or the loser of another slot), and that is all the layout needs.
Each bracket section (main or winners, losers, grand final, consolation, last chance) becomes
one ``BracketDrawing``:

* rounds are columns, left to right; a round with no match at all is left out;
* the slots that a slot's sides come from as *winners within the same section* are its feeders:
  a slot with feeders sits vertically centred between them (level with a single one, as in the
  drop rounds of a losers bracket), and a line joins each feeder to it;
* a slot without feeders (a first-round match, or a round-2 match of two seeds who had byes)
  takes the next free row, so byes leave no empty boxes and the drawing stays compact;
* a side that comes from another section or as a loser (the drop into a losers or consolation
  bracket, the grand final's sides) is not a line: the box notes it (``home_drop``/``away_drop``).

The feeders form a tree (a winner goes to one place only), laid out so that each subtree has
rows of its own: two boxes of a column never overlap and lines never cross.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal, TypeAlias

__all__ = [
    "BOX_HEIGHT",
    "BOX_WIDTH",
    "SECTION_OF_BRACKET",
    "SECTION_ORDER",
    "Box",
    "BracketDrawing",
    "BracketSlot",
    "ColumnHeading",
    "Connector",
    "SideName",
    "Source",
    "layout_brackets",
]

SideName: TypeAlias = Literal["home", "away"]

#: The section each bracket name of ``tournaments.formats.elimination`` is drawn in: the
#: third-place match goes with the main bracket, next to its final.
SECTION_OF_BRACKET: Mapping[str, str] = {
    "main": "main",
    "third-place": "main",
    "winners": "winners",
    "losers": "losers",
    "final": "final",
    "consolation": "consolation",
    "last-chance": "last-chance",
}
#: Sections top to bottom on the page; an unknown bracket name is drawn after these.
SECTION_ORDER: tuple[str, ...] = (
    "main",
    "winners",
    "losers",
    "final",
    "consolation",
    "last-chance",
)

# Sizes in SVG user units; the SVG scales with its viewBox, so only the proportions matter.
ROW_HEIGHT = 22  # one side of a match: seed, name, score
BOX_WIDTH = 188
BOX_HEIGHT = 2 * ROW_HEIGHT
CAPTION_HEIGHT = 14  # the slot id above each box
ROW_GAP = 12  # between a box and the caption of the box below
ROW_PITCH = BOX_HEIGHT + CAPTION_HEIGHT + ROW_GAP
COLUMN_GAP = 44  # room for the connector elbows
MARGIN = 8
HEADING_HEIGHT = 20  # the round names above the columns
#: Names longer than this are cut with an ellipsis (SVG text does not wrap or clip); the full
#: name stays in the box's tooltip.
NAME_MAX_CHARS = 20


@dataclass(frozen=True, slots=True)
class Source:
    """Where one side of a slot comes from: seed ``seed``, or the winner or loser of ``slot``."""

    kind: Literal["seed", "winner", "loser"]
    seed: int | None = None
    slot: str | None = None

    @classmethod
    def seeded(cls, seed: int) -> Source:
        return cls("seed", seed=seed)

    @classmethod
    def winner_of(cls, slot: str) -> Source:
        return cls("winner", slot=slot)

    @classmethod
    def loser_of(cls, slot: str) -> Source:
        return cls("loser", slot=slot)


@dataclass(frozen=True, slots=True)
class BracketSlot:
    """One match as the drawing shows it; labels are ready to print (a name or a placeholder
    such as "Winner of W1-2", ``*_placeholder`` set), scores as stored, ``href`` its page."""

    slot: str
    bracket: str
    round: int
    home_label: str
    away_label: str
    home_source: Source | None = None
    away_source: Source | None = None
    home_placeholder: bool = False
    away_placeholder: bool = False
    home_seed: int | None = None
    away_seed: int | None = None
    home_score: Decimal | None = None
    away_score: Decimal | None = None
    #: A forfeit's marks in place of the scores: "+" for the side that came, "−" for one that
    #: did not (empty: not a forfeit).
    home_mark: str = ""
    away_mark: str = ""
    winner: SideName | None = None
    status: str = ""
    href: str | None = None
    if_needed: bool = False
    #: The slot as printed (a fixed slot's name in the reader's language); empty: the code.
    name: str = ""


@dataclass(frozen=True, slots=True)
class Box:
    """A slot's rectangle; the template draws inside ``translate(x y)``, so the offsets below
    are relative to the box's top left corner."""

    x: float
    y: float
    w: float
    h: float
    slot: BracketSlot
    column: int
    #: A side's source when it is not drawn as a line (a loser, or from another section).
    home_drop: Source | None = None
    away_drop: Source | None = None

    @property
    def mid_y(self) -> float:
        return self.y + self.h / 2

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    # Offsets inside the box, for the template.
    row_height = ROW_HEIGHT
    seed_x = 20  # seeds are right-aligned here
    name_x = 26
    caption_y = -4
    home_baseline = ROW_HEIGHT / 2 + 4.5
    away_baseline = ROW_HEIGHT + ROW_HEIGHT / 2 + 4.5

    @property
    def score_x(self) -> float:
        return self.w - 8

    @property
    def home_name(self) -> str:
        return _shorten(self.slot.home_label)

    @property
    def away_name(self) -> str:
        return _shorten(self.slot.away_label)


@dataclass(frozen=True, slots=True)
class Connector:
    """A line from ``source_slot``'s right edge to the left edge of the box it feeds: right,
    down or up, right again, so that two feeders of a box meet at one elbow."""

    source_slot: str
    target_slot: str
    points: tuple[tuple[float, float], ...]

    @property
    def points_attr(self) -> str:
        """The ``points`` attribute of an SVG polyline (never localized: plain ``1.5``)."""
        return " ".join(f"{_number(x)},{_number(y)}" for x, y in self.points)


@dataclass(frozen=True, slots=True)
class ColumnHeading:
    """The heading of a column: its round within the bracket, and whether it is the last."""

    x: float  # the column's centre
    round: int
    last: bool


@dataclass(frozen=True, slots=True)
class BracketDrawing:
    """One section of a bracket, ready to draw in a ``0 0 width height`` viewBox."""

    section: str
    title: str
    width: float
    height: float
    boxes: tuple[Box, ...]
    connectors: tuple[Connector, ...]
    columns: tuple[ColumnHeading, ...]
    heading_y: float = HEADING_HEIGHT - 6


def layout_brackets(
    slots: Sequence[BracketSlot], *, titles: Mapping[str, str] | None = None
) -> list[BracketDrawing]:
    """One drawing per section that has matches, in ``SECTION_ORDER``; ``titles`` maps a
    section to its heading (the section name when missing)."""
    by_slot: dict[str, BracketSlot] = {}
    for slot in slots:
        if slot.slot in by_slot:
            raise ValueError(f"two matches have the slot {slot.slot!r}")
        by_slot[slot.slot] = slot
    sections: dict[str, list[BracketSlot]] = {}
    for slot in slots:
        sections.setdefault(_section(slot.bracket), []).append(slot)
    order = sorted(sections, key=_section_rank)
    titles = titles or {}
    return [
        _layout_section(name, titles.get(name, name), sections[name], by_slot) for name in order
    ]


def _section(bracket: str) -> str:
    return SECTION_OF_BRACKET.get(bracket, bracket)


def _section_rank(section: str) -> tuple[int, str]:
    known = section in SECTION_ORDER
    return (SECTION_ORDER.index(section) if known else len(SECTION_ORDER), section)


def _layout_section(
    section: str,
    title: str,
    slots: Sequence[BracketSlot],
    everywhere: Mapping[str, BracketSlot],
) -> BracketDrawing:
    here = {slot.slot: slot for slot in slots}

    def is_line(source: Source | None) -> bool:
        """Drawn as a line: the winner of a slot of this section."""
        return source is not None and source.kind == "winner" and source.slot in here

    def is_drop(source: Source | None) -> bool:
        return source is not None and source.kind != "seed" and not is_line(source)

    feeders: dict[str, list[str]] = {slot.slot: [] for slot in slots}
    fed: set[str] = set()
    for slot in slots:
        for source in (slot.home_source, slot.away_source):
            if is_line(source):
                assert source is not None and source.slot is not None
                feeders[slot.slot].append(source.slot)
                fed.add(source.slot)
    for names in feeders.values():
        names.sort(key=lambda name: _top_to_bottom(here[name]))

    rounds = sorted({slot.round for slot in slots})
    column_of_round = {round_: index for index, round_ in enumerate(rounds)}
    roots = [slot for slot in slots if slot.slot not in fed]
    # The section's own final first; a lone third-place match then sits below the bracket.
    sizes = {root.slot: _subtree_size(root.slot, feeders) for root in roots}
    roots.sort(key=lambda root: (-sizes[root.slot], _top_to_bottom(root)))

    rows: dict[str, float] = {}
    next_row = 0

    def place(name: str) -> float:
        """The row of ``name``, after its feeders': their mean, or the next free row."""
        nonlocal next_row
        children = feeders[name]
        if children:
            child_rows = [place(child) for child in children]
            row = sum(child_rows) / len(child_rows)
        else:
            row = float(next_row)
            next_row += 1
        rows[name] = row
        return row

    for root in roots:
        place(root.slot)

    top = HEADING_HEIGHT + CAPTION_HEIGHT
    boxes: dict[str, Box] = {}
    for slot in slots:
        column = column_of_round[slot.round]
        boxes[slot.slot] = Box(
            x=MARGIN + column * (BOX_WIDTH + COLUMN_GAP),
            y=top + rows[slot.slot] * ROW_PITCH,
            w=BOX_WIDTH,
            h=BOX_HEIGHT,
            slot=slot,
            column=column,
            home_drop=slot.home_source if is_drop(slot.home_source) else None,
            away_drop=slot.away_source if is_drop(slot.away_source) else None,
        )
    connectors = tuple(
        _connector(boxes[feeder], boxes[name]) for name in here for feeder in feeders[name]
    )
    width = 2 * MARGIN + len(rounds) * BOX_WIDTH + (len(rounds) - 1) * COLUMN_GAP
    height = top + (next_row - 1) * ROW_PITCH + BOX_HEIGHT + MARGIN
    columns = tuple(
        ColumnHeading(
            x=MARGIN + index * (BOX_WIDTH + COLUMN_GAP) + BOX_WIDTH / 2,
            round=round_,
            last=index == len(rounds) - 1,
        )
        for index, round_ in enumerate(rounds)
    )
    ordered = sorted(boxes.values(), key=lambda box: (box.column, box.y))
    return BracketDrawing(section, title, width, height, tuple(ordered), connectors, columns)


def _connector(source: Box, target: Box) -> Connector:
    elbow_x = target.x - COLUMN_GAP / 2
    points: tuple[tuple[float, float], ...] = (
        (source.right, source.mid_y),
        (elbow_x, source.mid_y),
        (elbow_x, target.mid_y),
        (target.x, target.mid_y),
    )
    # Level boxes (a drop round fed by one survivor) need no elbow: a straight line.
    if source.mid_y == target.mid_y:
        points = (points[0], points[-1])
    return Connector(source.slot.slot, target.slot.slot, points)


_SLOT_NUMBER = re.compile(r"-(\d+)$")


def _top_to_bottom(slot: BracketSlot) -> tuple[int, int, str]:
    """Matches of a round are numbered from the top of the bracket (``W2-3``: third from the
    top); that number puts feeders in their drawn order. Ids without one keep a stable order."""
    match = _SLOT_NUMBER.search(slot.slot)
    return (int(match.group(1)) if match else 0, slot.round, slot.slot)


def _subtree_size(name: str, feeders: Mapping[str, Sequence[str]]) -> int:
    return 1 + sum(_subtree_size(child, feeders) for child in feeders[name])


def _shorten(name: str) -> str:
    if len(name) <= NAME_MAX_CHARS:
        return name
    return name[: NAME_MAX_CHARS - 1].rstrip() + "…"


def _number(value: float) -> str:
    """A coordinate as SVG wants it: at most one decimal, a dot, no trailing ``.0``."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text
