"""``tests.support.schema.undeclared_fields``: the keys of an answer its schema does not
declare, through references, allOf, oneOf, nullable values, lists and maps."""

from __future__ import annotations

import pytest

from tests.support.schema import undeclared_fields

COMPONENTS = {
    "Counts": {
        "type": "object",
        "properties": {"white": {"type": "integer"}, "black": {"type": "integer"}},
    },
    "ColourEnum": {"type": "string", "enum": ["white", "black"]},
    "NullEnum": {"enum": [None]},
    "Board": {
        "type": "object",
        "properties": {
            "bar": {"$ref": "#/components/schemas/Counts"},
            "turn": {"allOf": [{"$ref": "#/components/schemas/ColourEnum"}], "description": "x"},
            "owner": {
                "nullable": True,
                "oneOf": [
                    {"$ref": "#/components/schemas/ColourEnum"},
                    {"$ref": "#/components/schemas/NullEnum"},
                ],
            },
            "clock": {"allOf": [{"$ref": "#/components/schemas/Counts"}], "nullable": True},
            "frames": {"type": "array", "items": {"$ref": "#/components/schemas/Counts"}},
            "extra": {"type": "object", "additionalProperties": {}},
            "named": {
                "type": "object",
                "additionalProperties": {"$ref": "#/components/schemas/Counts"},
            },
            "free": {"type": "object"},
            "anything": {},
        },
    },
    "Play": {
        "type": "object",
        "properties": {"dice": {"type": "string"}, "play": {"type": "string"}},
        "additionalProperties": False,
    },
    "Double": {
        "type": "object",
        "properties": {"double": {"type": "boolean"}},
        "additionalProperties": False,
    },
    "Action": {
        "oneOf": [{"$ref": "#/components/schemas/Play"}, {"$ref": "#/components/schemas/Double"}]
    },
}
BOARD = {"$ref": "#/components/schemas/Board"}


def test_an_answer_with_only_declared_keys_has_none_undeclared():
    answer = {
        "bar": {"white": 0, "black": 1},
        "turn": "white",
        "owner": None,
        "clock": None,
        "frames": [{"white": 1, "black": 2}],
        "extra": {"any": {"thing": 1}},
        "named": {"a": {"white": 1}},
        "free": {"x": [1]},
        "anything": {"y": {"z": 2}},
    }
    assert undeclared_fields(answer, BOARD, COMPONENTS) == []


@pytest.mark.parametrize(
    ("answer", "found"),
    [
        ({"colour": "white"}, ["$.colour"]),
        ({"bar": {"white": 0, "grey": 1}}, ["$.bar.grey"]),
        ({"clock": {"white": 3, "home": 1}}, ["$.clock.home"]),  # through allOf, nullable
        ({"frames": [{}, {"white": 1, "x": 2}]}, ["$.frames[1].x"]),
        ({"named": {"a": {"y": 1}}}, ["$.named.a.y"]),  # a map's values are declared
        ({"owner": {"side": "white"}}, ["$.owner.side"]),  # an object where none is declared
        ({"turn": {"side": "white"}}, ["$.turn.side"]),
    ],
)
def test_each_undeclared_key_is_named_by_its_path(answer, found):
    assert undeclared_fields(answer, BOARD, COMPONENTS) == found


def test_a_union_takes_the_alternative_that_declares_the_keys():
    action = {"$ref": "#/components/schemas/Action"}
    assert undeclared_fields({"dice": "64", "play": "24/18"}, action, COMPONENTS) == []
    assert undeclared_fields({"double": True}, action, COMPONENTS) == []
    assert undeclared_fields({"double": True, "value": 2}, action, COMPONENTS) == ["$.value"]
    assert undeclared_fields({"resign": "white"}, action, COMPONENTS) == ["$.resign"]


def test_scalars_and_lists_without_items_have_no_keys():
    assert undeclared_fields(3, {"type": "integer"}, COMPONENTS) == []
    assert undeclared_fields([{"a": 1}], {"type": "array"}, COMPONENTS) == []
    assert undeclared_fields(None, BOARD, COMPONENTS) == []
