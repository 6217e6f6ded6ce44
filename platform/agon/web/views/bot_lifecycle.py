"""The owner's forms for a bot's life after its upload: rename it, retire it and bring it
back, delete it after a confirmation (or be told to retire it instead)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from agon.bots.deletion import BotInUse, Refusal, bot_delete, deletion_preview, deletion_refusal
from agon.bots.models import Bot
from agon.bots.retirement import bot_reactivate, bot_retire
from agon.bots.services import bot_rename
from agon.web import selectors
from agon.web.forms import BotRenameForm
from agon.web.views.bots import my_bot_page
from agon.web.views.common import post_form, signed_in


def _own_bot(request: HttpRequest, bot_id: int) -> Bot:
    bot = selectors.bot_of_owner(owner=signed_in(request), bot_id=bot_id)
    if bot is None:
        raise Http404(f"you have no bot {bot_id}")
    return bot


@login_required
@post_form("web:my-bot", "bot_id")
def my_bot_rename(request: HttpRequest, bot_id: int) -> HttpResponse:
    bot = _own_bot(request, bot_id)
    form = BotRenameForm(request.POST, bot=bot)
    if not form.is_valid():
        return my_bot_page(request, bot, rename_form=form, status=400)
    old_name = bot.name
    bot_rename(bot=bot, name=form.cleaned_data["name"])
    messages.success(request, f"{old_name} is now called {bot.name}.")
    return redirect("web:my-bot", bot_id=bot.id)


@login_required
@post_form("web:my-bot", "bot_id")
def my_bot_retire(request: HttpRequest, bot_id: int) -> HttpResponse:
    bot = bot_retire(bot=_own_bot(request, bot_id))
    messages.success(
        request, f"{bot.name} is retired: it left the leaderboards and plays no new ranked match."
    )
    return redirect("web:my-bot", bot_id=bot.id)


@login_required
@post_form("web:my-bot", "bot_id")
def my_bot_reactivate(request: HttpRequest, bot_id: int) -> HttpResponse:
    bot = bot_reactivate(bot=_own_bot(request, bot_id))
    messages.success(request, f"{bot.name} is back on the ladders, on the ratings it had.")
    return redirect("web:my-bot", bot_id=bot.id)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def my_bot_delete(request: HttpRequest, bot_id: int) -> HttpResponse:
    """GET: what deleting takes with it, and the button (or why it cannot be deleted);
    POST: delete it."""
    bot = _own_bot(request, bot_id)
    if request.method == "POST":
        try:
            bot_delete(bot=bot)
        except BotInUse as refused:
            return _confirmation(request, bot, refused.refusal, status=409)
        messages.success(request, f"{bot.name} is deleted, with its versions.")
        return redirect("web:my-bots")
    return _confirmation(request, bot, deletion_refusal(bot))


def _confirmation(
    request: HttpRequest, bot: Bot, refusal: Refusal | None, status: int = 200
) -> HttpResponse:
    return render(
        request,
        "web/my_bot_delete.html",
        {
            "bot": bot,
            "refusal": f"{refusal.reason}." if refusal else "",
            "retire_instead": refusal is not None and refusal.retire_instead,
            "doomed": None if refusal else deletion_preview(bot),
        },
        status=status,
    )
