"""Account writes: signing up and API tokens."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from rest_framework.authtoken.models import Token


@transaction.atomic
def user_register(*, username: str, password: str) -> User:
    """A new user. Usernames are unique regardless of case, so nobody can pass for
    `Alice` next to `alice`; passwords go through the project's password validators."""
    username = User._meta.get_field("username").clean(username.strip(), None)
    taken = ValidationError(f"the username {username!r} is taken; choose another")
    if User.objects.filter(username__iexact=username).exists():
        raise taken
    validate_password(password, user=User(username=username))
    try:
        with transaction.atomic():  # a savepoint: two sign-ups with one name at once
            return User.objects.create_user(username=username, password=password)
    except IntegrityError:
        raise taken from None


def token_obtain(*, user: User) -> Token:
    """The user's API token, made on first use."""
    token, _ = Token.objects.get_or_create(user=user)
    return token
