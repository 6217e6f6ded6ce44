"""Signing up and API tokens: `POST /api/auth/register/`, `POST /api/auth/token/`, and
`GET /api/auth/me/`: whose token this is."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from agon.accounts.services import token_obtain, user_register
from agon.api.common import error_responses, signed_in_user
from agon.api.throttles import SignUpThrottle, take_or_refuse
from agon.rate_limits.services import limit_give_back, signin_limits


class RegisterSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(write_only=True, style={"input_type": "password"})


class UserSerializer(serializers.ModelSerializer[User]):
    class Meta:
        model = User
        fields: tuple[str, ...] = ("id", "username")
        read_only_fields = fields


class TokenSerializer(serializers.Serializer[Any]):
    token = serializers.CharField(source="key", read_only=True)


class RegisterView(APIView):
    # No authentication: signing up needs none, and a browser session must not make
    # this form subject to CSRF checks meant for signed-in requests.
    authentication_classes = ()
    permission_classes = (AllowAny,)
    throttle_classes = (SignUpThrottle,)

    @extend_schema(
        request=RegisterSerializer,
        responses={201: UserSerializer, **error_responses(400, 429)},
        summary="Sign up",
        description="Rate limited per client address (AGON_SIGNUP_RATE).",
        auth=[],
    )
    def post(self, request: Request) -> Response:
        given = RegisterSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        user = user_register(
            username=given.validated_data["username"], password=given.validated_data["password"]
        )
        return Response(UserSerializer(user).data, status=status.HTTP_201_CREATED)


class TokenView(APIView):
    authentication_classes = ()
    permission_classes = (AllowAny,)

    @extend_schema(
        request=AuthTokenSerializer,
        responses={200: TokenSerializer, **error_responses(400, 429)},
        summary="Get an API token",
        description="Send it as `Authorization: Token <token>` on later requests. Failed "
        "attempts are rate limited per username and per client address.",
        auth=[],
    )
    def post(self, request: Request) -> Response:
        data = request.data if isinstance(request.data, Mapping) else {}
        # Counted before the password is checked (attempts at once cannot all slip in),
        # given back when it was right: only failures count.
        taken = take_or_refuse(signin_limits(request, str(data.get("username", ""))))
        given = AuthTokenSerializer(data=request.data, context={"request": request})
        given.is_valid(raise_exception=True)
        limit_give_back(taken)
        token = token_obtain(user=given.validated_data["user"])
        return Response(TokenSerializer(token).data)


class MeView(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(
        responses={200: UserSerializer, **error_responses(401)},
        summary="Who is signed in",
        description="The user the token (or session) belongs to: what `agon-kit login` "
        "checks a token with.",
    )
    def get(self, request: Request) -> Response:
        return Response(UserSerializer(signed_in_user(request)).data)
