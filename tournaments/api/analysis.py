"""A match's analysis in the API: ``GET /api/v1/matches/<id>/analysis``."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from nardy_site.api_errors import ApiSchema
from tournaments.analysis.models import ROLL_MARKS, Mistake, PlayerFigures
from tournaments.analysis.reading import LONG, SHORT
from tournaments.analysis.selectors import match_analysis, pr_table
from tournaments.api.views import visible_tournaments
from tournaments.models import Match


class FiguresSerializer(serializers.ModelSerializer[PlayerFigures]):
    side = serializers.ChoiceField(choices=[1, 2], help_text="1 home, 2 away")
    pr = serializers.FloatField(allow_null=True, help_text="Equity lost per decision × 500")
    error_rate = serializers.FloatField(allow_null=True, help_text="gnubg's mEMG")
    luck = serializers.FloatField(
        help_text="The luck of the side's rolls: each roll's best play less the average of the "
        "rolls' best plays, in points of a game (Long Nardy: at 0-ply)"
    )
    result = serializers.FloatField(
        allow_null=True,
        help_text="The points the side won (a loss negative); null: not given (gnubg, or a Long "
        "Nardy analysis made before luck was measured)",
    )
    luck_adjusted = serializers.FloatField(
        allow_null=True,
        help_text="The result with luck taken out: the points won less the side's luck and plus "
        "the opponent's, each roll's at its stake (gnubg's luck-adjusted result)",
    )

    rolls_marked = inline_serializer(
        "RollsMarked",
        {mark: serializers.IntegerField() for mark in ROLL_MARKS},
        allow_null=True,
        help_text="The side's rolls by GNU Backgammon's luck marks: very lucky (luck above "
        "0.6), lucky (above 0.3), unlucky (below -0.3), very unlucky (below -0.6); null: not "
        "given (gnubg, or an analysis made before luck was measured)",
    )

    class Meta:
        model = PlayerFigures
        fields = ["game", "side", "pr", "error_rate", "checker_error", "cube_error", "luck",
                  "unforced_moves", "close_cube_decisions", "blunders", "errors", "result",
                  "luck_adjusted", "rolls_marked"]  # fmt: skip


class MistakeSerializer(serializers.ModelSerializer[Mistake]):
    mark = serializers.SerializerMethodField(
        help_text=f'"blunder" (lost more than {LONG.blunder} in Long Nardy, {SHORT.blunder} in '
        f'Short Nardy), "error" (more than {LONG.error}; {SHORT.error}) or ""',
    )

    def get_mark(self, mistake: Mistake) -> str:
        """What the play is called, with the thresholds of the analysis' engine."""
        return str(self.context["thresholds"].mark(mistake.loss))

    kind = serializers.ChoiceField(
        choices=Mistake.Kind.values,
        help_text='"move": a checker play; "cube": a dave decision, whose played and best are '
        '"double", "no double", "take" or "drop" (dice "00")',
    )

    class Meta:
        model = Mistake
        fields = ["game", "ply", "move", "side", "dice", "played", "best", "loss", "mark", "kind"]


AnalysisOut = inline_serializer(
    "MatchAnalysis",
    {
        "state": serializers.ChoiceField(
            choices=["unavailable", "none", "running", "done", "failed"],
            help_text="unavailable: this server does not analyse the match's variant",
        ),
        "engine": serializers.CharField(
            allow_null=True,
            help_text='"gnubg" (Short Nardy) or "nardy-long <weights>" (Long Nardy)',
        ),
        "plies": serializers.IntegerField(allow_null=True),
        "games": serializers.IntegerField(allow_null=True),
        "totals": FiguresSerializer(many=True, help_text="The whole match, by side"),
        "per_game": FiguresSerializer(many=True),
        "mistakes": MistakeSerializer(
            many=True, help_text="Every play and dave decision that lost equity"
        ),
        "luck_measured": serializers.BooleanField(
            allow_null=True,
            help_text="Whether the figures' luck is measured (false: a Long Nardy analysis made "
            "before it was); null: not analysed",
        ),
        "cube_analysed": serializers.BooleanField(
            allow_null=True,
            help_text="Whether dave (cube) decisions are judged; null: not analysed",
        ),
        "crawford_game": serializers.IntegerField(
            allow_null=True,
            help_text="The number of the Crawford game, where nobody may offer dave (so it has "
            "no dave decision); null: none was played, or not analysed",
        ),
        "cube_note": serializers.CharField(
            help_text='Why dave decisions are not judged ("" when they are): no dave in this '
            "match, or an analysis made before they were",
        ),
    },
)


class MatchAnalysisView(APIView):
    schema = ApiSchema()

    @extend_schema(
        responses=AnalysisOut,
        summary="The match's analysis: by GNU Backgammon (Short Nardy) or the Nardy engine (Long)",
    )
    def get(self, request: Request, pk: int) -> Response:
        match = get_object_or_404(
            Match.objects.filter(tournament__in=visible_tournaments(request)).select_related(
                "tournament"
            ),
            pk=pk,
        )
        view = match_analysis(match=match)
        found: Any = view.analysis
        done = view.state == "done"
        return Response(
            {
                "state": view.state,
                "engine": found.engine if found else None,
                "plies": found.plies if found else None,
                "games": found.games if found else None,
                "totals": FiguresSerializer(list((view.totals or {}).values()), many=True).data,
                "per_game": FiguresSerializer(
                    [row for _, sides in view.games or [] for row in sides.values()], many=True
                ).data,
                "mistakes": MistakeSerializer(
                    view.mistakes or [], many=True, context={"thresholds": view.thresholds}
                ).data,
                "luck_measured": view.luck_measured if done else None,
                "cube_analysed": view.cube_analysed if done else None,
                "crawford_game": view.crawford_game,
                "cube_note": str(view.cube_note) if done else "",
            }
        )


class PrRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    entry_id = serializers.IntegerField(source="entry.pk")
    player_id = serializers.IntegerField(source="entry.player.pk")
    player = serializers.CharField(source="entry.player.display_name")
    pr = serializers.FloatField(source="figures.pr")
    error_rate = serializers.FloatField(source="figures.error_rate")
    matches = serializers.IntegerField(help_text="Analysed matches")
    decisions = serializers.IntegerField(source="figures.decisions")
    checker_error = serializers.FloatField(source="figures.checker_error")
    cube_error = serializers.FloatField(source="figures.cube_error")
    luck = serializers.FloatField(source="figures.luck")
    blunders = serializers.IntegerField(source="figures.blunders")
    errors = serializers.IntegerField(source="figures.errors")


class PrTable(APIView):
    schema = ApiSchema()

    @extend_schema(
        responses=PrRowSerializer(many=True),
        summary="The entrants by PR over their analysed matches, best first",
    )
    def get(self, request: Request, slug: str) -> Response:
        tournament = get_object_or_404(visible_tournaments(request), slug=slug)
        return Response(PrRowSerializer(pr_table(tournament=tournament), many=True).data)
