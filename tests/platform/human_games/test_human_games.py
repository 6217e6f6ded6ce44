"""Human games on the platform: starting one (the owner's consent, the limits), the
seat that waits for its player's moves, and the moves only its player may send."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection
from django.utils import timezone
from pytest_django import Settings

from agon.human_games.services import (
    bot_human_games_set,
    human_game_create,
    human_move_submit,
)
from agon.ladders.models import RatingChange
from agon.matches.human_seat import HumanSeat
from agon.matches.models import HumanTurn, Match
from agon.matches.services import match_claim
from engine.players import BotFault
from tests.platform.conftest import MakeBot
from tests.platform.support import finish_match

pytestmark = pytest.mark.django_db

LEGAL = [{"play": "a"}, {"play": "b"}, {"pass": True}]


def game_for(user: User, **kwargs: object) -> Match:
    options: dict[str, object] = {"game": "akropolis", "seat": 0, "opponents": ["greedy"]}
    options.update(kwargs)
    return human_game_create(user=user, **options)  # type: ignore[arg-type]


def test_a_human_game_seats_the_user_and_the_bots_in_order(
    alice: User, bob: User, make_bot: MakeBot
) -> None:
    bee = make_bot(bob, "bee")
    match = game_for(alice, seat=1, opponents=[bee, "random"])
    seats = list(match.seats.order_by("seat"))
    assert [s.bot_id_label for s in seats] == [
        bee.active_version().label,  # type: ignore[union-attr]
        "human:alice",
        "builtin:random",
    ]
    assert match.kind == Match.Kind.HUMAN and match.ladder is None and match.players == 3


def test_a_finished_human_game_moves_no_rating(alice: User, bob: User, make_bot: MakeBot) -> None:
    bee = make_bot(bob, "bee")
    changes = RatingChange.objects.count()
    match = game_for(alice, opponents=[bee])
    finish_match(match, scores=[40, 10])
    assert Match.objects.get(id=match.id).status == Match.Status.FINISHED
    assert RatingChange.objects.count() == changes


def test_an_owner_keeps_their_bot_out_of_human_games_but_plays_it_themselves(
    alice: User, bob: User, make_bot: MakeBot
) -> None:
    bee = make_bot(bob, "bee")
    bot_human_games_set(bot=bee, allowed=False)
    with pytest.raises(PermissionDenied, match="does not let it play humans"):
        game_for(alice, opponents=[bee])
    assert game_for(bob, opponents=[bee]).players == 2


@pytest.mark.parametrize(
    ("changes", "refusal"),
    [
        ({"game": "chess"}, "there is no game 'chess'"),
        ({"opponents": []}, "is played by 2/3/4 players, not 1"),
        ({"opponents": ["greedy"] * 4}, "not 5"),
        ({"seat": 2}, "the seat must be from 0 to 1, not 2"),
        ({"seat": -1}, "not -1"),
        ({"opponents": ["stockfish"]}, "there is no builtin bot 'stockfish'"),
    ],
)
def test_it_refuses_a_game_that_cannot_be(
    alice: User, changes: dict[str, object], refusal: str
) -> None:
    with pytest.raises(ValidationError, match=refusal):
        game_for(alice, **changes)
    assert not Match.objects.exists()


def test_it_refuses_a_bot_of_another_game_or_without_an_active_version(
    alice: User, bob: User, make_bot: MakeBot
) -> None:
    with pytest.raises(ValidationError, match="plays attika, not akropolis"):
        game_for(alice, opponents=[make_bot(bob, "ant", game="attika")])
    with pytest.raises(ValidationError, match="no active version"):
        game_for(alice, opponents=[make_bot(bob, "bee", active=False)])


def test_one_game_at_a_time_a_daily_budget_and_a_cap_on_the_site(
    alice: User, bob: User, carol: User, settings: Settings
) -> None:
    settings.AGON_HUMAN_GAMES_PER_DAY = 2
    settings.AGON_HUMAN_GAMES_IN_FLIGHT = 2
    first = game_for(alice)
    with pytest.raises(ValidationError, match="already playing a game"):
        game_for(alice)
    Match.objects.filter(id=first.id).update(status=Match.Status.FINISHED)
    game_for(alice)
    game_for(bob)
    with pytest.raises(ValidationError, match="2 human games are being played"):
        game_for(carol)
    Match.objects.filter(kind=Match.Kind.HUMAN).update(status=Match.Status.FINISHED)
    with pytest.raises(ValidationError, match="your 2 games of the last 24 hours"):
        game_for(alice)
    game_for(carol)


class Clock:
    """A clock that moves only when the seat sleeps; `at_sleep` is called at each sleep."""

    def __init__(self, at_sleep: Callable[[int], None] = lambda n: None) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []
        self.at_sleep = at_sleep

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds
        self.at_sleep(len(self.sleeps))


def running_game(user: User) -> Match:
    match = game_for(user)
    assert match_claim(match_id=match.id) is not None
    return match


def seat_for(
    match: Match, clock: Clock, *, turn_seconds: float = 60.0, game_seconds: float = 600.0
) -> HumanSeat:
    return HumanSeat(
        match_id=match.id,
        seat=0,
        turn_seconds=turn_seconds,
        game_seconds=game_seconds,
        clock=clock,
        sleep=clock.sleep,
    )


def test_the_seat_waits_for_the_move_its_player_sends(alice: User) -> None:
    match = running_game(alice)
    sent: list[HumanTurn] = []

    def player_moves(sleeps: int) -> None:
        if sleeps == 5:
            sent.append(human_move_submit(user=alice, match_id=match.id, number=0, choice=1))

    clock = Clock(player_moves)
    seat = seat_for(match, clock)
    assert seat.act({"turn": 0}, LEGAL) == {"play": "b"}
    assert sent[0].move == {"play": "b"}
    # Polled quickly at first, then less and less often, never less than every 0.5 s.
    assert clock.sleeps[0] == pytest.approx(0.05) and clock.sleeps == sorted(clock.sleeps)
    assert max(clock.sleeps) <= 0.5
    with pytest.raises(ValidationError, match="turn 0 is already played"):
        human_move_submit(user=alice, match_id=match.id, number=0, choice=0)


def test_polling_slows_to_two_looks_a_second_while_the_human_thinks(alice: User) -> None:
    match = running_game(alice)
    seat = seat_for(match, Clock(), turn_seconds=60.0)
    with pytest.raises(BotFault):
        seat.act({}, LEGAL)
    # A minute's wait: about 120 looks at the row, not 1,200.
    assert 110 <= seat.polls <= 135
    assert seat.waited_seconds == pytest.approx(60.0)


def test_a_human_who_does_not_move_in_time_times_out_and_cannot_move_late(alice: User) -> None:
    match = running_game(alice)
    seat = seat_for(match, Clock(), turn_seconds=3.0)
    with pytest.raises(BotFault) as fault:
        seat.act({}, LEGAL)
    assert fault.value.kind == "timeout" and "within 3 s" in fault.value.detail
    assert HumanTurn.objects.get(match=match, number=0).expired
    with pytest.raises(ValidationError, match="turn 0 timed out"):
        human_move_submit(user=alice, match_id=match.id, number=0, choice=0)


def test_a_move_that_lands_as_the_clock_runs_out_still_counts(alice: User) -> None:
    match = running_game(alice)
    clock = Clock()
    seat = seat_for(match, clock, turn_seconds=1.0)
    real_filter = HumanTurn.objects.filter
    moved: list[bool] = []

    def filter_then_move(*args: object, **kwargs: object) -> object:
        # The seat's last look finds nothing; the move lands before it marks the turn.
        if kwargs.get("moved__isnull") is True and not moved and clock.now >= 1.0:
            moved.append(True)
            human_move_submit(user=alice, match_id=match.id, number=0, choice=2)
        return real_filter(*args, **kwargs)

    HumanTurn.objects.filter = filter_then_move  # type: ignore[method-assign,assignment]
    try:
        assert seat.act({}, LEGAL) == {"pass": True}
    finally:
        HumanTurn.objects.filter = real_filter  # type: ignore[method-assign]
    assert not HumanTurn.objects.get(match=match, number=0).expired


def test_the_games_time_bounds_every_turn(alice: User) -> None:
    match = running_game(alice)
    clock = Clock()
    seat = seat_for(match, clock, turn_seconds=60.0, game_seconds=90.0)
    with pytest.raises(BotFault):
        seat.act({}, LEGAL)
    with pytest.raises(BotFault, match="within 30 s"):
        seat.act({}, LEGAL)
    with pytest.raises(BotFault, match="time is up"):
        seat.act({}, LEGAL)
    assert HumanTurn.objects.filter(match=match).count() == 2


def test_only_the_seats_player_moves_and_only_a_legal_choice(alice: User, bob: User) -> None:
    match = running_game(alice)
    seat = seat_for(match, Clock(), turn_seconds=0.2)
    with pytest.raises(BotFault):
        seat.act({}, LEGAL)  # turn 0 expired; turn 1 waits below
    HumanTurn.objects.create(
        match=match,
        seat=0,
        number=1,
        observation={},
        legal=LEGAL,
        asked=timezone.now(),
        deadline=timezone.now(),
    )
    with pytest.raises(PermissionDenied, match="you do not play in this game"):
        human_move_submit(user=bob, match_id=match.id, number=1, choice=0)
    with pytest.raises(ValidationError, match="turn 7 has not come yet"):
        human_move_submit(user=alice, match_id=match.id, number=7, choice=0)
    for choice in (3, -1, 10**9):
        with pytest.raises(ValidationError, match=f"turn 1 has 3 moves, from 0; not {choice}"):
            human_move_submit(user=alice, match_id=match.id, number=1, choice=choice)
    with pytest.raises(ValidationError, match="there is no human game"):
        human_move_submit(user=alice, match_id=match.id + 1000, number=1, choice=0)
    assert human_move_submit(user=alice, match_id=match.id, number=1, choice=0).move == LEGAL[0]


@pytest.mark.django_db(transaction=True)
def test_moves_sent_at_once_from_two_tabs_are_taken_once(alice: User) -> None:
    match = running_game(alice)
    HumanTurn.objects.create(
        match=match,
        seat=0,
        number=0,
        observation={},
        legal=LEGAL,
        asked=timezone.now(),
        deadline=timezone.now(),
    )
    results: list[str] = []
    barrier = threading.Barrier(2)

    def send(choice: int) -> None:
        barrier.wait()
        try:
            human_move_submit(user=alice, match_id=match.id, number=0, choice=choice)
            results.append("taken")
        except ValidationError:
            results.append("refused")
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(c,)) for c in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == ["refused", "taken"]
