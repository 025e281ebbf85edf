"""A rating list in the API, a page at a time (``RATING_LIST_PAGE`` rows; REST framework's
``?page=N`` and its ``count``, ``next``, ``previous``, ``results``): the site's list and a club's
list read it alike. A search (``?search=``) or a player (``?player=<id>``) narrows the rows, each
keeping its rank in the whole list."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request

from nardy_site import throttle
from nardy_site.api_errors import error_responses
from tournaments.api.serializers import RatingRowSerializer
from tournaments.players.selectors import players_found
from tournaments.ratings.models import Rating
from tournaments.ratings.selectors import RATING_LIST_PAGE, ordered_ratings, ranked, rating_rows


class RatingPages(PageNumberPagination):
    """A rating list's pages: ``RATING_LIST_PAGE`` rows each."""

    page_size = RATING_LIST_PAGE


#: The schema of a page of a rating list, and the errors it may answer.
RATING_PAGE_RESPONSES = {
    200: inline_serializer(
        "PaginatedRatingRowList",
        {
            "count": serializers.IntegerField(),
            "next": serializers.URLField(allow_null=True),
            "previous": serializers.URLField(allow_null=True),
            "results": RatingRowSerializer(many=True),
        },
    ),
    **error_responses(400, 404, 429),
}
RATING_PAGE_PARAMETERS = [
    OpenApiParameter(
        "search",
        str,
        description="Only the players whose name has every word of this (Cyrillic or Latin "
        "letters), each with their rank in the whole list; counted against the client's rate "
        "of searches",
    ),
    OpenApiParameter("player", int, description="Only this player's row, with their rank"),
]


def rating_page(request: Request, view: Any, ratings: QuerySet[Rating]) -> dict[str, Any]:
    """The page the request asks for of the list ``ratings`` (``list_ratings``), as the API
    answers it: a fixed number of queries however long the list."""
    chosen = ratings
    query = request.query_params.get("search", "").strip()
    if query:
        throttle.check(request, kinds=[throttle.DRAWINGS])
        chosen = chosen.filter(player__in=players_found(query=query).values("pk"))
    player = request.query_params.get("player", "")
    if player:
        if not player.isdigit():
            raise ValidationError({"player": [_("A player is given by their id.")]})
        chosen = chosen.filter(player_id=int(player))
    paginator = RatingPages()
    page = paginator.paginate_queryset(ordered_ratings(chosen), request, view=view) or []
    if chosen is ratings:
        assert paginator.page is not None
        offset = (paginator.page.number - 1) * paginator.page_size
        rows = ranked(list(page), offset=offset, of=ratings)
    else:
        rows = rating_rows(list(page), of=ratings)
    data = RatingRowSerializer(rows, many=True).data
    return dict(paginator.get_paginated_response(data).data)
