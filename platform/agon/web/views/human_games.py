"""Human games in the browser: start one, play it (the page polls its turn and sends
moves), and the owner's switch that keeps a bot out of them."""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from agon.bots.models import Bot
from agon.human_games.selectors import human_opponents, human_seat_of, human_turn_shown
from agon.human_games.services import bot_human_games_set, human_game_create, human_move_submit
from agon.matches.models import Match
from agon.matches.selectors import match_get, match_seats
from agon.web import selectors
from agon.web.forms import HumanGameForm, sentences
from agon.web.games import board_renderer, games
from agon.web.templatetags.agon_web import seat_label
from agon.web.views.common import post_form, signed_in

MAX_MOVE_BYTES = 1024
"""A move is `{"turn": n, "choice": i}`: anything longer is not one."""


@login_required
def human_game_new(request: HttpRequest) -> HttpResponse:
    """Choose the game, the players and your seat, then play."""
    user = signed_in(request)
    game = request.GET.get("game") or request.POST.get("game") or "akropolis"
    if game not in {g.id for g in games()}:
        raise Http404(f"there is no game {game!r}")
    opponents = list(human_opponents(game=game, user=user))
    initial = {"opponent_1": request.GET.get("opponent", "builtin:greedy")}
    form = HumanGameForm(
        request.POST if request.method == "POST" else None,
        game=game,
        bots=opponents,
        initial=initial,
    )
    if request.method == "POST" and form.is_valid():
        try:
            match = human_game_create(
                user=user,
                game=game,
                seat=form.cleaned_data["seat"],
                opponents=form.opponents(),
            )
        except ValidationError as refusal:
            form.add_error(None, " ".join(sentences(refusal)))
        except PermissionDenied as refusal:
            form.add_error(None, f"{str(refusal)[:1].upper()}{str(refusal)[1:]}.")
        else:
            return redirect("web:human-game", match_id=match.id)
    return render(
        request,
        "web/human_game_new.html",
        {
            "form": form,
            "game": game,
            "games": games(),
            "turn_minutes": round(settings.AGON_HUMAN_TURN_SECONDS / 60),
            "per_day": settings.AGON_HUMAN_GAMES_PER_DAY,
        },
    )


def _human_match(request: HttpRequest, match_id: int) -> Match:
    match = match_get(match_id=match_id, viewer=request.user)
    if match is None or match.kind != Match.Kind.HUMAN:
        raise Http404(f"there is no human game {match_id}")
    return match


def human_game_page(request: HttpRequest, match_id: int) -> HttpResponse:
    """The board as it stands (the replay viewer, following the match) and, for its
    player, the moves of their turn to click."""
    match = _human_match(request, match_id)
    shown = match_seats([match.id])[match.id]
    user = request.user
    seat = human_seat_of(match, signed_in(request)) if user.is_authenticated else None
    return render(
        request,
        "web/human_game.html",
        {
            "match": match,
            "seat": seat,
            "renderer": board_renderer(match.game),
            "seat_labels": [seat_label(s) for s in shown],
            "own_logs": {},
            "turn_url": reverse("web:human-game-turn", args=[match.id]),
            "move_url": reverse("web:human-game-move", args=[match.id]),
        },
    )


@require_GET
def human_game_turn(request: HttpRequest, match_id: int) -> JsonResponse:
    """The game's status and, for its player, the turn waiting for them."""
    match = _human_match(request, match_id)
    if not request.user.is_authenticated:
        return JsonResponse({"status": match.status, "turn": None})
    return JsonResponse(human_turn_shown(match=match, user=signed_in(request)))


@require_POST
def human_game_move(request: HttpRequest, match_id: int) -> JsonResponse:
    """Play the turn: `{"turn": n, "choice": i}`, the i-th of the turn's legal actions.
    Refusals are JSON `{"error": ...}`: 400 for a move that is not one, 403 for a user
    who is not the seat's player."""
    if not request.user.is_authenticated:
        return JsonResponse({"error": "sign in to play"}, status=403)
    user = signed_in(request)
    match = _human_match(request, match_id)
    try:
        number, choice = _move_of(request.body)
        human_move_submit(user=user, match_id=match.id, number=number, choice=choice)
    except PermissionDenied as refusal:
        return JsonResponse({"error": str(refusal)}, status=403)
    except ValidationError as refusal:
        return JsonResponse({"error": "; ".join(refusal.messages)}, status=400)
    return JsonResponse({"played": number})


def _move_of(body: bytes) -> tuple[int, int]:
    if len(body) > MAX_MOVE_BYTES:
        raise ValidationError(f"a move is at most {MAX_MOVE_BYTES} bytes")
    try:
        move = json.loads(body)
    except (ValueError, RecursionError):
        raise ValidationError('a move is JSON: {"turn": n, "choice": i}') from None
    if not isinstance(move, dict) or set(move) != {"turn", "choice"}:
        raise ValidationError('a move is {"turn": n, "choice": i}, and nothing else')
    number, choice = move["turn"], move["choice"]
    for name, value in (("turn", number), ("choice", choice)):
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 2**31:
            raise ValidationError(f"the move's {name} is a whole number from 0")
    return number, choice


@login_required
@post_form("web:my-bot", "bot_id")
def my_bot_human_games(request: HttpRequest, bot_id: int) -> HttpResponse:
    """The owner's switch: may signed-in users play the bot in human games?"""
    bot: Bot | None = selectors.bot_of_owner(owner=signed_in(request), bot_id=bot_id)
    if bot is None:
        raise Http404(f"you have no bot {bot_id}")
    allowed = request.POST.get("human_games") == "on"
    bot_human_games_set(bot=bot, allowed=allowed)
    if allowed:
        messages.success(request, f"Signed-in users may now play {bot.name} in the browser.")
    else:
        messages.success(request, f"Only you may play {bot.name} in the browser now.")
    return redirect("web:my-bot", bot_id=bot.id)
