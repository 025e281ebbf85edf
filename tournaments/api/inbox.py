"""``GET me/inbox``: the organizer's inbox (``tournaments.inbox``) as JSON, each item with the
page and the API action where it is decided."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from nardy_site.api_errors import ApiSchema
from tournaments.inbox.selectors import InboxItem, Kind, decisions_among, inbox_items


class InboxTournamentSerializer(serializers.Serializer[Any]):
    slug = serializers.SlugField()
    name = serializers.CharField()


#: The kinds of an inbox item (the schema's ``KindEnum``).
KINDS = [kind.value for kind in Kind]


class InboxItemSerializer(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(
        choices=KINDS,
        help_text="reported: a result to confirm; disputed: a dispute to resolve; signup: a "
        "sign-up to approve; claim: a player claim to decide; to-play: a match of the current "
        "round not played yet (not counted: it waits for its players)",
    )
    id = serializers.IntegerField(help_text="The id of the match, sign-up or claim")
    tournament = InboxTournamentSerializer(allow_null=True, help_text="None for a claim")
    about = serializers.CharField(help_text="What it is about, in the reader's language")
    since = serializers.DateTimeField(allow_null=True, help_text="When it started waiting")
    decision = serializers.BooleanField(help_text="Whether it waits for the organizer's decision")
    url = serializers.CharField(help_text="The site's page where it is decided")
    api_url = serializers.CharField(help_text="The API action that decides it (POST)")


class InboxSerializer(serializers.Serializer[Any]):
    count = serializers.IntegerField(help_text="How many items wait for the organizer's decision")
    items = InboxItemSerializer(many=True)


class MyInbox(APIView):
    """What waits for the signed-in organizer in the tournaments they run, and the player
    claims they decide."""

    schema = ApiSchema()
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: InboxSerializer}, summary="My inbox")
    def get(self, request: Request) -> Response:
        items = inbox_items(user=request.user)
        data = {
            "count": decisions_among(items),
            "items": [_item(request, item) for item in items],
        }
        return Response(InboxSerializer(data).data)


def _item(request: Request, item: InboxItem) -> dict[str, Any]:
    site, api = _decided_at(item)
    tournament = item.tournament
    return {
        "kind": item.kind.value,
        "id": item.pk,
        "tournament": None
        if tournament is None
        else {"slug": tournament.slug, "name": tournament.name},
        "about": _about(item),
        "since": item.since,
        "decision": item.kind.decision,
        "url": request.build_absolute_uri(site),
        "api_url": request.build_absolute_uri(api),
    }


def _decided_at(item: InboxItem) -> tuple[str, str]:
    """The site's page and the API action where the item is decided."""
    pk = item.pk
    if item.kind is Kind.REPORTED:
        return reverse("match", args=[pk]), reverse("api-confirm", args=[pk])
    if item.kind is Kind.DISPUTED:
        return reverse("match-resolve", args=[pk]), reverse("api-resolve", args=[pk])
    if item.kind is Kind.TO_PLAY:
        return reverse("match-report", args=[pk]), reverse("api-result", args=[pk])
    if item.kind is Kind.SIGNUP:
        assert item.tournament is not None
        slug = item.tournament.slug
        return (
            reverse("tournament-signup", args=[slug]),
            reverse("api-signup-approve", args=[slug, pk]),
        )
    return reverse("player-claims"), reverse("api-claim-approve", args=[pk])


def _about(item: InboxItem) -> str:
    if item.match is not None:
        return str(item.match)
    if item.signup is not None:
        return _("%(player)s signs up") % {"player": item.signup.player.display_name}
    assert item.claim is not None
    return _("%(user)s says %(player)s is them") % {
        "user": item.claim.user.get_username(),
        "player": item.claim.player.display_name,
    }
