"""My bots (uploads, versions, logs) and every bot's public page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.text import capfirst
from django.views.decorators.http import require_GET

from agon.bots.models import Bot
from agon.bots.pausing import version_resume
from agon.bots.selectors import bot_get
from agon.bots.services import bot_open_to_events, bot_submit, version_submit
from agon.competitions.selectors import bot_competitions
from agon.ladders.selectors import standings_of_bots
from agon.matches.selectors import head_to_head, match_seat, seat_owned_by
from agon.rate_limits.services import RateLimited, limit_take
from agon.tournaments.selectors import bot_entries
from agon.version_testing.selectors import version_tests_of
from agon.web import selectors
from agon.web.charts import rating_chart
from agon.web.forms import BotRenameForm, BotUploadForm, VersionTestForm, VersionUploadForm
from agon.web.views.common import paginate_as, post_form, signed_in
from agon.web.views.rate_limited import refused_page

BOT_GAMES_PAGE = 10
"""Games in each of the bot page's lists (ranked, other) a page."""


def _errors(error: ValidationError) -> str:
    return "; ".join(error.messages)


def _take_upload(request: HttpRequest) -> None:
    """Count an upload of the signed-in user (raises RateLimited when none is left)."""
    limit_take(limits=[("upload", f"user:{signed_in(request).id}")])


@login_required
def my_bots(request: HttpRequest) -> HttpResponse:
    owner = signed_in(request)
    form = BotUploadForm(request.POST or None, request.FILES or None, owner=owner)
    if request.method == "POST":
        try:
            _take_upload(request)
        except RateLimited as limited:
            context = {"form": BotUploadForm(owner=owner), "bots": selectors.bots_of(owner=owner)}
            return refused_page(request, "web/my_bots.html", context, limited)
    if request.method == "POST" and form.is_valid():
        try:
            bot = bot_submit(
                owner=owner,
                name=form.cleaned_data["name"],
                game=form.cleaned_data["game"],
                upload=form.cleaned_data["file"],
            )
        except ValidationError as error:
            form.add_error(None, f"Your bot was not uploaded: {_errors(error)}")
        else:
            messages.success(
                request,
                f"{bot.name} v1 is uploaded and plays its validation match now.",
            )
            return redirect("web:my-bot", bot_id=bot.id)
    bots = selectors.bots_of(owner=owner)
    return render(
        request,
        "web/my_bots.html",
        {"form": form, "bots": bots, "standings": standings_of_bots([bot.id for bot in bots])},
    )


def my_bot_page(
    request: HttpRequest,
    bot: Bot,
    *,
    form: VersionUploadForm | None = None,
    test_form: VersionTestForm | None = None,
    rename_form: BotRenameForm | None = None,
    test_refusal: str = "",
    refusal: str = "",
    status: int = 200,
) -> HttpResponse:
    """The owner's page of a bot: its versions, the upload form, its version tests with
    the form to start one, the tournaments it is entered in (to withdraw from) and its
    consent to other users' events, its matches and logs, and the forms to rename,
    retire (or bring back) and delete it."""
    return render(
        request,
        "web/my_bot.html",
        {
            "bot": bot,
            "form": form or VersionUploadForm(),
            "test_form": test_form or VersionTestForm(bot=bot),
            "rename_form": rename_form or BotRenameForm(bot=bot),
            "test_refusal": test_refusal,
            "refusal": refusal,
            "tests": list(version_tests_of(bot=bot, viewer=request.user)[:20]),
            "entries": list(bot_entries(bot_id=bot.id, viewer=signed_in(request))[:50]),
            "matches": selectors.bot_matches(bot=bot, viewer=request.user, limit=30),
            "ratings": selectors.ladders_of(bot=bot),
        },
        status=status,
    )


@login_required
def my_bot(request: HttpRequest, bot_id: int) -> HttpResponse:
    owner = signed_in(request)
    bot = selectors.bot_of_owner(owner=owner, bot_id=bot_id)
    if bot is None:
        raise Http404(f"you have no bot {bot_id}")
    form = VersionUploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST":
        try:
            _take_upload(request)
        except RateLimited as limited:
            response = my_bot_page(
                request, bot, refusal=f"{capfirst(limited.message)}.", status=429
            )
            response["Retry-After"] = str(limited.retry_after)
            return response
    if request.method == "POST" and form.is_valid():
        try:
            version = version_submit(bot=bot, upload=form.cleaned_data["file"])
        except ValidationError as error:
            form.add_error("file", f"This version was not uploaded: {_errors(error)}")
        else:
            messages.success(
                request,
                f"{bot.name} v{version.number} is uploaded and plays its validation match now.",
            )
            return redirect("web:my-bot", bot_id=bot.id)
    return my_bot_page(request, bot, form=form)


@login_required
@post_form("web:my-bot", "bot_id")
def my_bot_resume(request: HttpRequest, bot_id: int) -> HttpResponse:
    """The owner's button on a paused version: it plays ranked matches again."""
    bot = selectors.bot_of_owner(owner=signed_in(request), bot_id=bot_id)
    version = bot.active_version() if bot is not None else None
    if bot is None or version is None:
        raise Http404(f"you have no bot {bot_id} with an active version")
    try:
        limit_take(limits=[("resume", f"user:{signed_in(request).id}")])
    except RateLimited as limited:
        response = my_bot_page(request, bot, refusal=f"{capfirst(limited.message)}.", status=429)
        response["Retry-After"] = str(limited.retry_after)
        return response
    version_resume(version=version)
    messages.success(request, f"{bot.name} v{version.number} plays ranked matches again.")
    return redirect("web:my-bot", bot_id=bot.id)


@login_required
@post_form("web:my-bot", "bot_id")
def my_bot_open_to_events(request: HttpRequest, bot_id: int) -> HttpResponse:
    """The owner's switch: may other users enter the bot into their private tournaments?"""
    bot = selectors.bot_of_owner(owner=signed_in(request), bot_id=bot_id)
    if bot is None:
        raise Http404(f"you have no bot {bot_id}")
    opening = request.POST.get("open_to_events") == "on"
    bot_open_to_events(bot=bot, open_to_events=opening)
    if opening:
        messages.success(request, f"Other users may now enter {bot.name} into their tournaments.")
    else:
        messages.success(request, f"Only you enter {bot.name} into tournaments now.")
    return redirect("web:my-bot", bot_id=bot.id)


@login_required
@require_GET
def my_versions_status(request: HttpRequest) -> JsonResponse:
    """The status of each version of the signed-in user's bots (the pages poll it while
    a version is being validated)."""
    return JsonResponse({"versions": selectors.version_states(owner=signed_in(request))})


@login_required
def seat_log(request: HttpRequest, match_id: int, seat: int) -> HttpResponse:
    found = match_seat(match_id=match_id, seat=seat, viewer=request.user)
    if found is None or not seat_owned_by(found, signed_in(request)):
        raise Http404("only the owner of a seat's bot may read its log")
    return render(request, "web/seat_log.html", {"seat": found, "match": found.match})


def bot_page(request: HttpRequest, bot_id: int) -> HttpResponse:
    bot = bot_get(bot_id=bot_id)
    if bot is None:
        raise Http404(f"there is no bot {bot_id}")
    histories = selectors.rating_histories(bot=bot)
    charts = [
        (
            history,
            rating_chart(
                history.changes,
                title=f"Rating of {bot.name} on {history.ladder.name}",
                chart_id=f"chart-{history.ladder.id}",
            ),
        )
        for history in histories
    ]
    return render(
        request,
        "web/bot.html",
        {
            "bot": bot,
            "versions": list(bot.versions.all()),
            "charts": charts,
            "record": selectors.bot_record(bot=bot),
            "competitions": bot_competitions(bot_id=bot.id),
            "head_to_head": head_to_head(bot=bot),
            "ranked_games": paginate_as(
                request,
                selectors.bot_games(bot=bot, viewer=request.user, ranked=True),
                BOT_GAMES_PAGE,
                "ranked",
            ),
            "other_games": paginate_as(
                request,
                selectors.bot_games(bot=bot, viewer=request.user, ranked=False),
                BOT_GAMES_PAGE,
                "other",
            ),
            "tests": list(version_tests_of(bot=bot, viewer=request.user)[:10]),
            "is_owner": request.user.is_authenticated and request.user.id == bot.owner_id,
        },
    )
