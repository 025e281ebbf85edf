"""README.md's table "Who may do what" is the policy's own (``tournaments.policy.RULES``): a rule
added or changed in the code is a row of the table in the same change."""

from pathlib import Path

from tournaments.policy import RULES, table_markdown

README = Path(__file__).resolve().parents[1] / "README.md"
START = "<!-- policy table: made from tournaments.policy.table_markdown() -->\n"
END = "\n<!-- end of the policy table -->"


def test_the_readme_table_is_the_policys():
    text = README.read_text()
    table = text.split(START, 1)[1].split(END, 1)[0]
    assert table == table_markdown()


def test_every_rule_has_a_reason_to_give_and_a_record():
    for action, rule in RULES.items():
        assert rule.action == action and rule.record and rule.who
        assert str(rule.refusal).endswith("."), action
