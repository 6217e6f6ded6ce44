"""Account writes: signing up and API tokens."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from rest_framework.authtoken.models import Token

from agon.accounts.names import RESERVED_USERNAMES, username_check


def username_available(username: str) -> str:
    """The username as it will be kept (NFKC), or ValidationError saying why it cannot be
    had: against the rules of `agon.accounts.names`, reserved, taken regardless of case,
    or too like another user's (compared with every user's: a sign-up is rate limited)."""
    return username_check(
        username,
        taken=User.objects.values_list("username", flat=True),
        reserved=[*RESERVED_USERNAMES, *settings.AGON_HOUSE_ACCOUNTS],
    )


@transaction.atomic
def user_register(*, username: str, password: str) -> User:
    """A new user: the one place users are made, for the API's sign-up and the site's.
    Usernames are unique regardless of case and look-alikes, so nobody can pass for
    `alice` as `Alice`, `aIice` or with a Cyrillic `a` (U+0430); passwords go through the
    project's password validators. A refusal is a ValidationError by field (`username`,
    `password`: each field's reasons, both when both are refused)."""
    refusals: dict[str, list[ValidationError]] = {}
    try:
        username = username_available(username)
    except ValidationError as refused:
        refusals["username"] = refused.error_list
    try:
        validate_password(password, user=User(username=username))
    except ValidationError as refused:
        refusals["password"] = refused.error_list
    if refusals:
        raise ValidationError(refusals)
    try:
        with transaction.atomic():  # a savepoint: two sign-ups with one name at once
            return User.objects.create_user(username=username, password=password)
    except IntegrityError:
        taken = ValidationError(f"the username {username!r} is taken; choose another")
        raise ValidationError({"username": [taken]}) from None


def token_obtain(*, user: User) -> Token:
    """The user's API token, made on first use."""
    token, _ = Token.objects.get_or_create(user=user)
    return token


def token_of(*, user: User) -> Token | None:
    """The user's API token if they have one (reading it never makes one)."""
    return Token.objects.filter(user=user).first()


@transaction.atomic
def token_regenerate(*, user: User) -> Token:
    """A new API token for the user; the old one stops working at once."""
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user)
