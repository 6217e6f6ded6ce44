"""`agon up`'s terminal news (agon.cli.up_status.news): a line when something a watcher
cares about changed, nothing for a platform that merely goes on."""

from __future__ import annotations

from agon.cli.up_status import Leader, Snapshot, news

LOOKAHEAD = Leader("akropolis-lookahead", "1650 ± 90", 40)


def test_an_hour_of_steady_play_takes_a_handful_of_lines() -> None:
    """Issue 26: a six-line block every 20 s, about 1,000 lines an hour."""
    before, lines = Snapshot(), []
    for check in range(1, 181):  # an hour, a look every 20 s, three ranked matches each
        after = Snapshot(played=3 * check, ranked=3 * check, leaders={"Akropolis 2p": LOOKAHEAD})
        lines += news(before, after)
        before = after
    assert len(lines) <= 8, lines
    assert "Akropolis 2p: akropolis-lookahead leads, 1650 ± 90 after 40 games" in lines[:2]
    assert "3 matches played (3 ranked), 0 running, 0 queued, 0 failed" in lines
    assert "501 matches played (501 ranked), 0 running, 0 queued, 0 failed" in lines


def test_nothing_played_says_nothing() -> None:
    assert news(Snapshot(), Snapshot(queued=5, running=2)) == []


def test_the_first_ranked_match_failures_and_a_new_leader_each_say_so() -> None:
    start = Snapshot(played=4, ranked=0)
    first = Snapshot(played=5, ranked=1, failed=2, leaders={"Attika 3p": LOOKAHEAD})
    assert news(start, first) == [
        "5 matches played (1 ranked), 0 running, 0 queued, 2 failed",
        "2 more matches failed (2 in all): the Matches page and the log say why",
        "Attika 3p: akropolis-lookahead leads, 1650 ± 90 after 40 games",
    ]
    overtaken = Snapshot(
        played=6, ranked=2, failed=2, leaders={"Attika 3p": Leader("greedy", "1700 ± 80", 50)}
    )
    assert news(first, overtaken) == ["Attika 3p: greedy leads, 1700 ± 80 after 50 games"]
    assert news(overtaken, overtaken) == []
