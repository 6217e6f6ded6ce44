"""Plain helpers of the platform tests: bot packages, and matches finished by hand.

No sandbox runs here. A match is finished through the real services (`match_claim`,
then `match_finish`) with a record these helpers make up: a replay with no moves and the
scores, faults and logs the test asks for. What the API shows of a finished match, and
what finishing does to versions and ratings, is then exactly what production does after a
real match; only the playing is skipped (the end-to-end tests play for real).
"""

from __future__ import annotations

import io
import itertools
import tarfile
import time
import zipfile
from collections.abc import Mapping, Sequence

from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction

from agon.bots.models import Bot, BotVersion
from agon.ladders.models import Ladder
from agon.ladders.services import ladder_match_create
from agon.matches.models import Match
from agon.matches.services import match_claim, match_create, match_finish
from engine.core import JSON, competition_ranks
from engine.registry import get_game
from engine.replay import Replay
from sandbox.limits import limits_for
from sandbox.runner import MatchRecord, SeatReport

BOT_SOURCE = b"""\
import random

from agon_bot import Bot, run


class RandomBot(Bot):
    def act(self, observation, legal_actions):
        return random.choice(legal_actions)


if __name__ == "__main__":
    run(RandomBot())
"""


def py_upload(name: str = "main.py", data: bytes = BOT_SOURCE) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="text/x-python")


def zip_bytes(members: Mapping[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def tar_gz_bytes(members: Mapping[str, bytes], symlinks: Mapping[str, str] | None = None) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
        for name, target in (symlinks or {}).items():
            info = tarfile.TarInfo(name)
            info.type = tarfile.SYMTYPE
            info.linkname = target
            archive.addfile(info)
    return buffer.getvalue()


def seat_report(log: str | bytes | Sequence[bytes] = "") -> SeatReport:
    """A seat's report as the referee makes it, from what the bot wrote on stderr: all
    of it, or (a list) what it wrote on each of its turns."""
    if isinstance(log, str | bytes):
        data = log if isinstance(log, bytes) else log.encode()
        return SeatReport(log=data.decode("utf-8", "replace"), log_bytes=data)
    starts = itertools.accumulate((len(turn) for turn in log[:-1]), initial=0)
    offsets = list(starts) if log else []
    data = b"".join(log)
    return SeatReport(log=data.decode("utf-8", "replace"), log_bytes=data, turn_log_offsets=offsets)


def finish_match(
    match: Match,
    *,
    scores: Sequence[int],
    faults: Mapping[int, str] | None = None,
    logs: Mapping[int, str | bytes | Sequence[bytes]] | None = None,
) -> Match:
    """Finish a queued match as the match task would after the sandbox returned these
    scores, faults (seat -> kind) and logs (seat -> stderr)."""
    return finish_with(match, made_up_record(match, scores=scores, faults=faults, logs=logs))


def finish_with(match: Match, record: MatchRecord) -> Match:
    """Claim the queued match and finish it with this record, as the match task would."""
    token = match_claim(match_id=match.id)
    assert token is not None, f"match {match.id} was not queued"
    with transaction.atomic():
        assert match_finish(match_id=match.id, token=token, record=record, started=time.monotonic())
    match.refresh_from_db()
    return match


def made_up_record(
    match: Match,
    *,
    scores: Sequence[int],
    faults: Mapping[int, str] | None = None,
    logs: Mapping[int, str | bytes | Sequence[bytes]] | None = None,
) -> MatchRecord:
    """What the sandbox would return for the match: a replay with no moves, these
    scores, faults (seat -> kind) and logs (seat -> stderr)."""
    faults = faults or {}
    logs = logs or {}
    ranks = competition_ranks(
        [(0 if seat in faults else 1, score) for seat, score in enumerate(scores)]
    )
    fault_records: list[dict[str, JSON]] = [
        {
            "seat": seat,
            "kind": kind,
            "turn": 1,
            "move": 1,
            "detail": f"a {kind} made up by the test",
        }
        for seat, kind in sorted(faults.items())
    ]
    labels = [seat.bot_id_label for seat in match.seats.select_related("version__bot__owner")]
    replay = Replay(
        game=match.game,
        engine_version=str(get_game(match.game).rules_version),
        seed=match.seed,
        players=match.players,
        options=dict(match.options),
        bots=labels,
        actions=[],
        faults=fault_records,
        result={"scores": list(scores), "ranks": ranks},
    )
    return MatchRecord(
        replay=replay,
        seats=[seat_report(logs.get(seat, "")) for seat in range(match.players)],
        backend="made up by the test",
        limits=limits_for(match.game),
        match_seconds=1.5,
    )


def validation_match(version: BotVersion) -> Match:
    return Match.objects.get(kind=Match.Kind.VALIDATION, seats__version=version)


def pass_validation(version: BotVersion) -> BotVersion:
    """The version plays its validation match without a fault: it becomes active."""
    match = validation_match(version)
    finish_match(match, scores=[30] + [10] * (match.players - 1))
    version.refresh_from_db()
    return version


def fail_validation(version: BotVersion, fault: str = "crash") -> BotVersion:
    """The version faults in its validation match: it is rejected, with the reason."""
    match = validation_match(version)
    finish_match(match, scores=[0] + [10] * (match.players - 1), faults={0: fault})
    version.refresh_from_db()
    return version


def latest_version(bot: Bot) -> BotVersion:
    return bot.versions.order_by("-number")[0]


def play_ranked(ladder: Ladder, bots: Sequence[Bot], scores: Sequence[int]) -> Match:
    """A ranked match on the ladder between the bots' active versions, finished with
    these scores: their ratings move as after a real match."""
    versions = [BotVersion.objects.get(bot=bot, status=BotVersion.Status.ACTIVE) for bot in bots]
    match = match_create(
        kind=Match.Kind.RANKED,
        ladder=ladder,
        game=ladder.game,
        players=ladder.players,
        options=ladder.options,
        seats=versions,
    )
    return finish_match(match, scores=scores)


def ranked_match(ladder: Ladder, versions: Sequence[BotVersion], seed: int | None = None) -> Match:
    """A queued ranked match on the ladder's settings between these versions."""
    return ladder_match_create(ladder=ladder, kind=Match.Kind.RANKED, seats=versions, seed=seed)
