"""Short Nardy plays as records write them (the full rules are tested with issue 4's corpus)."""

from games.rules import Position, ShortNardy, check_play


def test_a_repeated_hitting_move_hits_once():
    # The blot on the opponent's 24 stands on the mover's 1: "6/1*(2)" hits it once.
    position = Position.from_points(ShortNardy(), {8: 2, 6: 2, 24: 11}, {24: 1, 13: 14})
    after = check_play(position, (5, 5), "8/3(2) 6/1*(2)").position
    assert after.opponent[1] == 2 and after.opponent[3] == 2
    assert after.mover[25] == 1  # the hit checker is on the bar, and it is the opponent's turn
