"""A match's story on a running `agon up`: beat sends the finished ranked matches to the
`analysis` queue, whose worker stores every seat's chances after every move; the owner
of a challenge's bot asks for its analysis and gets it. On each stack (SQLite and the
file-system broker; PostgreSQL and Redis)."""

from __future__ import annotations

from typing import Any

from tests.acceptance.support import FIRST_LEGAL, AgonUp, User, wait_for

ANALYSIS_SECONDS = 300.0


def test_a_challenges_owner_asks_for_its_analysis_and_beat_analyses_ranked_ones(
    agon: AgonUp,
) -> None:
    owner = User.sign_up(agon.url, "story")
    bot = owner.upload_bot("storyteller", FIRST_LEGAL)
    owner.wait_active(bot["id"], 1, agon.explain)
    examples = owner.get("/api/bots/?owner=agon-examples&game=architekton")["results"]
    opponent = next(other for other in examples if other["active_version"] is not None)
    ladder = owner.ladder()
    made = owner.post(
        "/api/challenges/", {"ladder": ladder["id"], "bots": [bot["id"], opponent["id"]]}
    )
    match = owner.wait_match(made["id"], agon.explain)

    assert owner.get(f"/api/matches/{match['id']}/analysis/")["can_request"] is True
    asked = owner.post(f"/api/matches/{match['id']}/analysis/", {}, expect=202)
    assert asked["status"] in ("queued", "running", "done"), asked

    def analysed(match_id: int) -> dict[str, Any] | None:
        agon.alive()
        found = owner.get(f"/api/matches/{match_id}/analysis/")
        assert found["status"] != "failed", found
        return found if found["status"] == "done" else None

    story = wait_for(
        lambda: analysed(match["id"]),
        timeout=ANALYSIS_SECONDS,
        what=f"match {match['id']} to be analysed",
        explain=agon.explain,
        interval=1.0,
    )
    assert story["level"] == "mcts-1" and story["seats"] == 2
    assert len(story["values"]) == len(story["movers"]) >= 2
    assert story["movers"][0] is None

    def a_ranked_story() -> dict[str, Any] | None:
        agon.alive()
        ranked = owner.get("/api/matches/?status=finished&game=architekton")["results"]
        for listed in ranked:
            if listed["kind"] == "ranked":
                found = analysed(listed["id"])
                if found is not None:
                    return found
        return None

    ranked_story = wait_for(
        a_ranked_story,
        timeout=ANALYSIS_SECONDS,
        what="beat to analyse a ranked match",
        explain=agon.explain,
        interval=2.0,
    )
    assert ranked_story["can_request"] is False
