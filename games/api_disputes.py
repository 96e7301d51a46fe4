"""``/api/v1/disputes``: where a player's disputes stand (mounted by indulgence_site/urls.py
ahead of ``games.api.urls``). Opening one is ``POST /api/v1/games/{id}/disputes``
(games.api); staff decide them on the staff pages (games.staff).

A dispute is visible to the people seated at its game and to staff; to anyone else it
does not exist (404 ``not_found``).
"""

from __future__ import annotations

from typing import Any

from django.urls import URLPattern, path
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from games import selectors
from games.api import examples
from games.api.permissions import Authenticated, TokenScopes
from games.api.schema import READ_CODES, errors
from games.api.views import ApiView
from games.errors import NotFound
from games.models import Dispute, DisputeStatus

DISPUTE_ID = OpenApiParameter("dispute_id", int, OpenApiParameter.PATH, description="Its id.")
MAX_LISTED = 100


class DisputeShape(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField()
    game = serializers.IntegerField()
    opened_by = serializers.CharField()
    status = serializers.ChoiceField(choices=DisputeStatus.choices)
    reason = serializers.CharField()
    resolution = serializers.CharField(help_text="Staff's written resolution, once resolved.")
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    resolved_at = serializers.DateTimeField(allow_null=True)


class DisputeListShape(serializers.Serializer[dict[str, Any]]):
    disputes = DisputeShape(many=True)


def dispute_json(dispute: Dispute) -> dict[str, Any]:
    return {
        "id": dispute.pk,
        "game": dispute.game_id,
        "opened_by": dispute.opened_by.get_username(),
        "status": dispute.status,
        "reason": dispute.reason,
        "resolution": dispute.resolution,
        "created_at": dispute.created_at.isoformat(),
        "updated_at": dispute.updated_at.isoformat(),
        "resolved_at": dispute.resolved_at.isoformat() if dispute.resolved_at else None,
    }


class DisputesView(ApiView):
    permission_classes = (Authenticated, TokenScopes)

    @extend_schema(
        operation_id="disputes_list",
        examples=[examples.DISPUTE_LIST_EXAMPLE],
        summary="Disputes on your games",
        description=f"The newest {MAX_LISTED} disputes on games you are seated at.",
        responses={200: DisputeListShape, **errors(*READ_CODES)},
        tags=["disputes"],
    )
    def get(self, request: Request) -> Response:
        items = selectors.disputes_visible(user=request.user)[:MAX_LISTED]
        return Response({"disputes": [dispute_json(d) for d in items]})


class DisputeDetailView(ApiView):
    permission_classes = (Authenticated, TokenScopes)

    @extend_schema(
        operation_id="disputes_retrieve",
        examples=[examples.DISPUTE_DETAIL_EXAMPLE],
        summary="Where a dispute stands",
        description="open, under_review, then upheld or dismissed with a written resolution.",
        parameters=[DISPUTE_ID],
        responses={200: DisputeShape, **errors("not_found", *READ_CODES)},
        tags=["disputes"],
    )
    def get(self, request: Request, dispute_id: int) -> Response:
        dispute = selectors.disputes_visible(user=request.user).filter(pk=dispute_id).first()
        if dispute is None:
            raise NotFound(f"You have no dispute {dispute_id}.")
        return Response(dispute_json(dispute))


app_name = "api_disputes"

urlpatterns: list[URLPattern] = [
    path("disputes/", DisputesView.as_view(), name="disputes"),
    path("disputes", DisputesView.as_view(alternate_route=True)),
    path("disputes/<int:dispute_id>", DisputeDetailView.as_view(), name="dispute"),
    path("disputes/<int:dispute_id>/", DisputeDetailView.as_view(alternate_route=True)),
]
