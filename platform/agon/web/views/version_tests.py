"""Version tests: each test's page (the bot's owner's and staff's: its games are the
owner's business), and starting one from the owner's page of the bot."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import capfirst

from agon.version_testing.selectors import version_test_get, version_test_state
from agon.version_testing.services import BudgetExceeded, version_test_create
from agon.web import selectors
from agon.web.charts import llr_chart
from agon.web.forms import VersionTestForm
from agon.web.views.bots import my_bot_page
from agon.web.views.common import post_form, signed_in
from competition import sprt_words
from competition.sprt import Sprt, elo_interval

PAIR_POINTS = ("0", "½", "1", "1½", "2")
"""The candidate's points in a pair, as the page's table heads them."""


def version_test_page(request: HttpRequest, bot_id: int, test_id: int) -> HttpResponse:
    test = version_test_get(bot_id=bot_id, test_id=test_id, viewer=request.user)
    if test is None:
        raise Http404(f"bot {bot_id} has no version test {test_id}")
    sprt = Sprt(elo0=test.elo0, elo1=test.elo1, alpha=test.alpha, beta=test.beta)
    chart = llr_chart(
        test.llr_history,
        lower=sprt.lower,
        upper=sprt.upper,
        title=f"Evidence of {test.candidate.label} against {test.baseline_label}",
        chart_id="llr",
    )
    state = version_test_state(test=test)
    counted = sum(state.pentanomial) > 0
    toward_h1, toward_h0 = sprt.progress(state.pentanomial)
    found = elo_interval(state.pentanomial)
    return render(
        request,
        "web/version_test.html",
        {
            "test": test,
            "bot": test.bot,
            "chart": chart,
            "bounds": (sprt.lower, sprt.upper),
            "question": sprt_words.question(state),
            "answer": sprt_words.answer(state),
            "estimate": sprt_words.estimate(state.pentanomial),
            "elo": f"{found.elo:+.0f}" if counted else None,
            "interval": sprt_words.interval(found.low, found.high),
            "progress": {"h1": round(100 * toward_h1), "h0": round(100 * toward_h0)},
            "pentanomial": list(zip(PAIR_POINTS, test.pentanomial, strict=True)),
            "games": selectors.version_test_game_rows(test=test),
            "is_owner": request.user.is_authenticated and request.user.id == test.bot.owner_id,
        },
    )


@login_required
@post_form("web:my-bot", "bot_id")
def version_test_start(request: HttpRequest, bot_id: int) -> HttpResponse:
    owner = signed_in(request)
    bot = selectors.bot_of_owner(owner=owner, bot_id=bot_id)
    if bot is None:
        raise Http404(f"you have no bot {bot_id}")
    form = VersionTestForm(request.POST, bot=bot)
    if form.is_valid():
        try:
            test = version_test_create(
                user=owner,
                bot=bot,
                candidate=form.cleaned_data["candidate"],
                baseline=form.baseline_choice(),
                players=form.cleaned_data["players"],
                elo0=form.cleaned_data["elo0"],
                elo1=form.cleaned_data["elo1"],
                alpha=form.cleaned_data["alpha"],
                beta=form.cleaned_data["beta"],
                max_games=form.cleaned_data["max_games"],
            )
        except ValidationError as error:
            form.add_error(None, f"The test was not started: {'; '.join(error.messages)}")
        except BudgetExceeded as refused:
            response = my_bot_page(
                request, bot, test_form=form, test_refusal=f"{capfirst(str(refused))}.", status=429
            )
            response["Retry-After"] = str(refused.retry_after)
            return response
        else:
            messages.success(
                request,
                f"Version test {test.id} started: its games play when no other match waits.",
            )
            return redirect("web:version-test", bot_id=bot.id, test_id=test.id)
    return my_bot_page(request, bot, test_form=form, status=400)
