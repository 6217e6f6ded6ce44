"""Signing up, in and out, with Django's auth forms and views."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.views import LoginView, LogoutView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from agon.web.forms import SignUpForm


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("web:my-bots")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.username}! Upload your first bot below.")
        return redirect("web:my-bots")
    return render(request, "web/signup.html", {"form": form})


class SignInView(LoginView):
    template_name = "web/signin.html"
    redirect_authenticated_user = True

    def get_default_redirect_url(self) -> str:
        return reverse("web:my-bots")


class SignOutView(LogoutView):
    """POST only (Django 5): the sign-out button is a form with its CSRF token."""
