"""Signing up (through `user_register`, as the API does), in and out (Django's auth forms
and views), rate limited like the API (sign-ups per address, failed sign-ins per username
and per address)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView, LogoutView
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache

from agon.accounts.services import token_obtain, token_of, token_regenerate, user_register
from agon.rate_limits.services import (
    RateLimited,
    client_address,
    limit_give_back,
    limit_take,
    signin_limits,
)
from agon.web.forms import SignUpForm
from agon.web.views.common import signed_in
from agon.web.views.rate_limited import refused_page


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("web:my-bots")
    form = SignUpForm(request.POST or None)
    if request.method == "POST":
        try:
            limit_take(limits=[("signup", client_address(request))])
        except RateLimited as limited:
            return refused_page(request, "web/signup.html", {"form": SignUpForm()}, limited)
        if form.is_valid():
            try:
                user = user_register(
                    username=form.cleaned_data["username"],
                    password=form.cleaned_data["password1"],
                )
            except ValidationError as refused:
                form.refused(refused)
            else:
                login(request, user, backend="django.contrib.auth.backends.ModelBackend")
                messages.success(request, f"Welcome, {user.username}! Upload your first bot below.")
                return redirect("web:my-bots")
    return render(request, "web/signup.html", {"form": form})


class SignInView(LoginView):
    template_name = "web/signin.html"
    redirect_authenticated_user = True

    def get_default_redirect_url(self) -> str:
        return reverse("web:my-bots")

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        # Counted before the password is checked, given back when it was right.
        username = str(request.POST.get("username", ""))
        try:
            taken = limit_take(limits=signin_limits(request, username))
        except RateLimited as limited:
            form = self.get_form_class()(request, initial={"username": username})
            return refused_page(
                request, self.template_name, self.get_context_data(form=form), limited
            )
        form = self.get_form()
        if not form.is_valid():
            return self.form_invalid(form)
        limit_give_back(taken)
        return self.form_valid(form)


class SignOutView(LogoutView):
    """POST only (Django 5): the sign-out button is a form with its CSRF token."""


@never_cache
@login_required
def my_token(request: HttpRequest) -> HttpResponse:
    """The signed-in user's API token, for the kit and scripts: made or replaced by a
    POST only (a GET never makes one), shown to its owner only, cached nowhere."""
    user = signed_in(request)
    if request.method == "POST":
        replacing = token_of(user=user) is not None
        if replacing:
            token_regenerate(user=user)
        else:
            token_obtain(user=user)
        messages.success(
            request,
            "A new token: the old one no longer works." if replacing else "Your token is made.",
        )
        return redirect("web:my-token")
    shown = token_of(user=user)
    return render(
        request,
        "web/my_token.html",
        {"token": shown.key if shown else None, "site": request.build_absolute_uri("/")[:-1]},
    )
