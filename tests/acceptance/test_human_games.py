"""A human game on a running `agon up`, from the browser's side: a user signs in on the
site, starts a game against their own uploaded bot (boxed on the worker as in any
match), polls the turn and sends every move as the page does, to the end; the match is
stored with its replay like any other and moves no rating. On both stacks: SQLite and
the file-system broker, PostgreSQL and Redis. The round trip of each move (sent, the
bot's reply played, the next turn shown) is printed."""

from __future__ import annotations

import http.cookiejar
import json
import re
import statistics
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

from tests.acceptance.support import PASSWORD, RANDOM, AgonUp, User, wait_for

GAME_SECONDS = 300.0


class Browser:
    """A signed-in session of the site: cookies, and the CSRF token forms and moves need."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def csrf(self) -> str:
        return next(cookie.value for cookie in self.jar if cookie.name == "csrftoken") or ""

    def open(
        self, path: str, data: bytes | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, str, str]:
        request = urllib.request.Request(  # noqa: S310 - a local http URL
            self.url + path, data=data, headers={"Referer": self.url + path, **(headers or {})}
        )
        try:
            with self.opener.open(request, timeout=60) as response:
                return response.status, response.geturl(), response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.geturl(), error.read().decode()

    def form(self, path: str, fields: dict[str, str]) -> tuple[int, str, str]:
        self.open(path)  # its CSRF cookie
        body = urllib.parse.urlencode({**fields, "csrfmiddlewaretoken": self.csrf()}).encode()
        return self.open(path, body)

    def get_json(self, path: str) -> Any:
        status, _, body = self.open(path, headers={"Accept": "application/json"})
        assert status == 200, (status, body[:500])
        return json.loads(body)

    def post_json(self, path: str, value: object) -> tuple[int, Any]:
        headers = {"Content-Type": "application/json", "X-CSRFToken": self.csrf()}
        status, _, body = self.open(path, json.dumps(value).encode(), headers)
        return status, json.loads(body)


def test_a_human_plays_their_boxed_bot_to_the_end_from_the_site(agon: AgonUp) -> None:
    ivy = User.sign_up(agon.url, "ivy")
    bot = ivy.upload_bot("sparring", RANDOM)
    ivy.wait_active(bot["id"], 1, agon.explain)

    browser = Browser(agon.url)
    status, landed, _ = browser.form("/signin/", {"username": "ivy", "password": PASSWORD})
    assert status == 200 and "/signin/" not in landed, landed
    fields = {"game": "architekton", "players": "2", "seat": "1", "opponent_1": f"bot:{bot['id']}"}
    status, landed, page = browser.form("/play/?game=architekton", fields)
    found = re.search(r"/play/(\d+)/$", landed)
    assert status == 200 and found, (landed, page[-3000:])
    match_id = int(found.group(1))

    # Another user cannot move for ivy.
    other = Browser(agon.url)
    User.sign_up(agon.url, "jay")
    other.form("/signin/", {"username": "jay", "password": PASSWORD})

    round_trips: list[float] = []
    played = 0
    sent_at: float | None = None
    deadline = time.monotonic() + GAME_SECONDS
    while True:
        agon.alive()
        assert time.monotonic() < deadline, f"game {match_id} took too long{agon.explain()}"
        shown = browser.get_json(f"/play/{match_id}/turn.json")
        if shown["status"] in ("finished", "failed"):
            break
        turn = shown["turn"]
        if turn is None or turn["number"] < played:
            time.sleep(0.05)
            continue
        if sent_at is not None:
            round_trips.append(time.monotonic() - sent_at)
        move = {"turn": turn["number"], "choice": 0}
        if played == 0:
            assert other.post_json(f"/play/{match_id}/move/", move) == (
                403,
                {"error": "you do not play in this game"},
            )
            refused = browser.post_json(f"/play/{match_id}/move/", {"turn": 0, "choice": 10**6})
            assert refused[0] == 400 and "not 1000000" in refused[1]["error"]
        sent_at = time.monotonic()
        assert browser.post_json(f"/play/{match_id}/move/", move) == (200, {"played": played})
        played += 1
    assert shown["status"] == "finished", agon.explain()

    def stored() -> dict[str, Any] | None:
        shown: dict[str, Any] = ivy.get(f"/api/matches/{match_id}/")
        return shown if shown["status"] == "finished" else None

    match = wait_for(
        stored,
        timeout=30,
        what=f"match {match_id} to be shown finished",
        explain=agon.explain,
    )
    assert match["kind"] == "human" and match["ladder"] is None
    assert [seat["bot_label"] for seat in match["seats"]][1] == "human:ivy"
    assert not match["faults"], match["faults"]
    status, replay_text = Browser(agon.url).open(f"/api/matches/{match_id}/replay/")[0::2]
    assert status == 200
    replay = json.loads(replay_text)
    assert replay["bots"][1] == "human:ivy" and len(replay["actions"]) >= played
    print(
        f"\n{agon.stack}: {played} human moves; round trip (move sent -> the bot's reply "
        f"played -> next turn shown): median {statistics.median(round_trips) * 1000:.0f} ms, "
        f"max {max(round_trips) * 1000:.0f} ms"
    )
