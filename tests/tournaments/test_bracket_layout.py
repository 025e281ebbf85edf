"""The bracket drawing's geometry, on every bracket the elimination formats draw: one box per
match, no overlaps, each box between its feeders, lines from a feeder's edge to the box it feeds,
and drops noted instead of drawn."""

import pytest

from tournaments.brackets.layout import (
    CAPTION_HEIGHT,
    NAME_MAX_CHARS,
    Box,
    BracketDrawing,
    BracketSlot,
    Source,
    layout_brackets,
)
from tournaments.formats import elimination
from tournaments.formats.elimination import BracketMatch, LoserOf, Seed, WinnerOf


def source(side: elimination.Side) -> Source:
    if isinstance(side, Seed):
        return Source.seeded(side.k)
    if isinstance(side, WinnerOf):
        return Source.winner_of(side.match_id)
    assert isinstance(side, LoserOf)
    return Source.loser_of(side.match_id)


def slots_of(bracket: list[BracketMatch]) -> list[BracketSlot]:
    """The pure bracket as the adapter would pass it, before any match is played."""
    return [
        BracketSlot(
            slot=match.id,
            bracket=match.bracket,
            round=match.round,
            home_label=f"home of {match.id}",
            away_label=f"away of {match.id}",
            home_source=source(match.home),
            away_source=source(match.away),
            if_needed=match.if_needed,
        )
        for match in bracket
    ]


SIZES = range(2, 18)
BRACKETS = [
    *[(f"single-{n}", elimination.single(n)) for n in SIZES],
    *[(f"single-3p-{n}", elimination.single(n, third_place=True)) for n in SIZES if n >= 4],
    *[
        (f"double-{final}-{n}", elimination.double(n, grand_final=final))
        for n in SIZES
        for final in elimination.GRAND_FINALS
    ],
    *[
        (f"consolation-{kind}-{'lc-' if last else ''}{n}", elimination.consolation(n, kind, last))
        for n in SIZES
        for kind in elimination.CONSOLATION_KINDS
        for last in (False, True)
    ],
]


def boxes_by_slot(drawings: list[BracketDrawing]) -> dict[str, tuple[BracketDrawing, Box]]:
    return {box.slot.slot: (drawing, box) for drawing in drawings for box in drawing.boxes}


def line_feeders(box: Box, drawing: BracketDrawing) -> list[str]:
    """The slots feeding ``box`` as winners from its own section: the ones drawn as lines."""
    here = {other.slot.slot for other in drawing.boxes}
    return [
        side.slot
        for side in (box.slot.home_source, box.slot.away_source)
        if side is not None and side.kind == "winner" and side.slot in here
    ]


@pytest.fixture(params=BRACKETS, ids=[name for name, _ in BRACKETS])
def drawn(request) -> tuple[list[BracketMatch], list[BracketDrawing]]:
    _, bracket = request.param
    return bracket, layout_brackets(slots_of(bracket))


def test_every_match_has_exactly_one_box(drawn):
    bracket, drawings = drawn
    slots = [box.slot.slot for drawing in drawings for box in drawing.boxes]
    assert sorted(slots) == sorted(match.id for match in bracket)


def test_no_two_boxes_overlap_and_all_fit_in_the_drawing(drawn):
    _, drawings = drawn
    for drawing in drawings:
        # The caption above a box belongs to it: nothing may cover it either.
        areas = [(box.x, box.y - CAPTION_HEIGHT, box.right, box.bottom) for box in drawing.boxes]
        for index, (left, top, right, bottom) in enumerate(areas):
            assert left >= 0 and right <= drawing.width
            assert top >= 0 and bottom <= drawing.height
            for other_left, other_top, other_right, other_bottom in areas[index + 1 :]:
                apart = (
                    right <= other_left
                    or other_right <= left
                    or bottom <= other_top
                    or other_bottom <= top
                )
                assert apart, f"boxes overlap in {drawing.section}"


def test_a_later_box_lies_between_its_feeders_and_to_their_right(drawn):
    _, drawings = drawn
    everywhere = boxes_by_slot(drawings)
    for drawing in drawings:
        for box in drawing.boxes:
            feeders = [everywhere[name][1] for name in line_feeders(box, drawing)]
            if not feeders:
                continue
            mids = [feeder.mid_y for feeder in feeders]
            assert min(mids) <= box.mid_y <= max(mids)
            assert all(feeder.right < box.x for feeder in feeders)


def test_lines_run_from_a_feeders_right_edge_to_the_fed_boxs_left_edge(drawn):
    _, drawings = drawn
    for drawing in drawings:
        boxes = {box.slot.slot: box for box in drawing.boxes}
        expected = sorted(
            (feeder, box.slot.slot)
            for box in drawing.boxes
            for feeder in line_feeders(box, drawing)
        )
        assert sorted((c.source_slot, c.target_slot) for c in drawing.connectors) == expected
        for connector in drawing.connectors:
            source_box, target_box = boxes[connector.source_slot], boxes[connector.target_slot]
            (start_x, start_y), (end_x, end_y) = connector.points[0], connector.points[-1]
            assert (start_x, start_y) == (source_box.right, source_box.mid_y)
            assert end_x == target_box.x and target_box.y <= end_y <= target_box.bottom
            xs = [x for x, _ in connector.points]
            assert xs == sorted(xs), "a line never runs backwards"
            # Only horizontal and vertical segments: the usual bracket elbows.
            for (x1, y1), (x2, y2) in zip(connector.points, connector.points[1:], strict=False):
                assert x1 == x2 or y1 == y2


def test_losers_and_other_sections_winners_are_noted_not_drawn(drawn):
    _, drawings = drawn
    for drawing in drawings:
        here = {box.slot.slot for box in drawing.boxes}
        for box in drawing.boxes:
            for side, drop in (
                (box.slot.home_source, box.home_drop),
                (box.slot.away_source, box.away_drop),
            ):
                assert side is not None
                drawn_as_line = side.kind == "winner" and side.slot in here
                expected = None if side.kind == "seed" or drawn_as_line else side
                assert drop == expected


def test_rounds_are_columns_left_to_right(drawn):
    _, drawings = drawn
    for drawing in drawings:
        for box in drawing.boxes:
            for other in drawing.boxes:
                if box.slot.round < other.slot.round:
                    assert box.x < other.x
                if box.slot.round == other.slot.round:
                    assert box.x == other.x
        assert [column.round for column in drawing.columns] == sorted(
            {box.slot.round for box in drawing.boxes}
        )
        assert [column.last for column in drawing.columns][-1]


def test_sections_come_in_page_order():
    drawings = layout_brackets(slots_of(elimination.double(8, grand_final="reset")))
    assert [drawing.section for drawing in drawings] == ["winners", "losers", "final"]
    drawings = layout_brackets(slots_of(elimination.consolation(16, "progressive", True)))
    assert [drawing.section for drawing in drawings] == ["main", "consolation", "last-chance"]


def test_the_reset_sits_level_with_the_grand_final_and_notes_the_loser():
    drawings = layout_brackets(slots_of(elimination.double(8, grand_final="reset")))
    final = drawings[-1]
    grand_final, reset = final.boxes
    assert (grand_final.slot.slot, reset.slot.slot) == ("GF", "GF-reset")
    assert grand_final.y == reset.y and grand_final.right < reset.x
    assert reset.home_drop == Source.loser_of("GF") and reset.away_drop is None
    # Both sides of the grand final come from other sections: notes, no lines.
    assert grand_final.home_drop == Source.winner_of("W3-1")
    assert grand_final.away_drop == Source.winner_of("L4-1")
    assert [(c.source_slot, c.target_slot) for c in final.connectors] == [("GF", "GF-reset")]


def test_the_third_place_match_is_drawn_below_the_main_final():
    (main,) = layout_brackets(slots_of(elimination.single(8, third_place=True)))
    boxes = {box.slot.slot: box for box in main.boxes}
    final, third = boxes["M3-1"], boxes["3P"]
    assert third.x == final.x and third.y > max(box.y for box in main.boxes if box is not third)


def test_byes_leave_no_empty_box_and_keep_the_drawing_compact():
    # 5 entrants in an 8-line draw: one round-1 match, and seeds 2 and 3 wait in round 2.
    (main,) = layout_brackets(slots_of(elimination.single(5)))
    boxes = {box.slot.slot: box for box in main.boxes}
    assert set(boxes) == {"M1-1", "M2-1", "M2-2", "M3-1"}
    assert boxes["M2-1"].mid_y == boxes["M1-1"].mid_y  # a single feeder: level with it
    assert boxes["M2-2"].y > boxes["M2-1"].y
    rows = {box.y for box in main.boxes}
    assert len(rows) == 3  # M1-1/M2-1, M2-2, and the final between them


def test_a_bracket_of_sixteen_is_the_textbook_picture():
    (main,) = layout_brackets(slots_of(elimination.single(16)))
    columns: dict[int, list[Box]] = {}
    for box in main.boxes:
        columns.setdefault(box.slot.round, []).append(box)
    assert [len(columns[round_]) for round_ in sorted(columns)] == [8, 4, 2, 1]
    first = sorted(box.y for box in columns[1])
    pitches = {later - earlier for earlier, later in zip(first, first[1:], strict=False)}
    assert len(pitches) == 1  # evenly spaced first round
    (final,) = columns[4]
    assert final.mid_y == pytest.approx((first[0] + first[-1]) / 2 + final.h / 2)


def test_feeders_are_drawn_in_their_match_numbers_order():
    winners = layout_brackets(slots_of(elimination.double(16)))[0]
    for round_ in (1, 2, 3):
        column = sorted(
            (box for box in winners.boxes if box.slot.round == round_), key=lambda box: box.y
        )
        assert [box.slot.slot for box in column] == [
            f"W{round_}-{n}" for n in range(1, len(column) + 1)
        ]


def test_titles_are_taken_from_the_mapping_or_default_to_the_section():
    slots = slots_of(elimination.double(4))
    drawings = layout_brackets(slots, titles={"winners": "Winners bracket"})
    assert [drawing.title for drawing in drawings] == ["Winners bracket", "losers", "final"]


def test_two_matches_with_one_slot_are_refused():
    slot = BracketSlot("M1-1", "main", 1, "A", "B")
    with pytest.raises(ValueError, match="M1-1"):
        layout_brackets([slot, slot])


def test_long_names_are_cut_and_lines_print_without_localization():
    long_name = "Maximilian Alexander von Wittelsbach-Hohenzollern"
    (main,) = layout_brackets(
        [
            BracketSlot("M1-1", "main", 1, long_name, "Bo", Source.seeded(1), Source.seeded(4)),
            BracketSlot("M1-2", "main", 1, "Cy", "Di", Source.seeded(2), Source.seeded(3)),
            BracketSlot(
                "M2-1", "main", 2, "W", "W", Source.winner_of("M1-1"), Source.winner_of("M1-2")
            ),
        ]
    )
    first = next(box for box in main.boxes if box.slot.slot == "M1-1")
    assert len(first.home_name) == NAME_MAX_CHARS and first.home_name.endswith("…")
    assert first.away_name == "Bo"
    for connector in main.connectors:
        for pair in connector.points_attr.split(" "):
            x, y = pair.split(",")
            float(x), float(y)  # plain numbers with a dot


def test_an_empty_bracket_draws_nothing():
    assert layout_brackets([]) == []
