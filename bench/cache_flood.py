"""How big the timeline cache's entries get, and a capped Redis under a flood of them
(issue 25).

`GET /api/matches/{id}/timeline/?seat=N` keeps the match's timeline and what that seat saw
in the `timelines` cache; anybody may ask, for any finished match. This bench:

1. plays each game at its largest table (builtin greedy bots, a few seeds) and prints the
   size of the entries a match leaves (pickled, as Django's caches keep them), their CPU
   time, and the largest: what bounds the embedded setup's cache of
   AGON_LOCAL_TIMELINE_ENTRIES entries;
2. with `--cache-url` (a Redis started with `--maxmemory` and `--maxmemory-policy
   allkeys-lru`, like compose's `cache`), floods it with the entries of `--matches`
   distinct matches, every seat of each, as the API writes them (the same keys, through
   Django's Redis cache), sampling `used_memory` as it goes: it must stay at `maxmemory`,
   evicting (Redis evicts before each write, so it may pass the cap by the write it is
   taking: one entry); and with `--broker-url` it checks that the broker's Redis holds
   no key of the cache's and says how its memory moved.

Run `redis-server --port 8739 --save '' --maxmemory 64mb --maxmemory-policy allkeys-lru`,
then `.venv/bin/python bench/cache_flood.py --cache-url redis://127.0.0.1:8739/0
--broker-url redis://127.0.0.1:6379/0 --matches 2000`.
"""

from __future__ import annotations

import argparse
import pickle
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]

import redis  # noqa: E402
from django.core.cache.backends.redis import RedisCache  # noqa: E402

from engine.core import JSON  # noqa: E402
from engine.match import play_match  # noqa: E402
from engine.registry import game_ids, get_game  # noqa: E402
from engine.replay import Replay  # noqa: E402
from engine.timeline import seat_observation_patches, timeline_steps  # noqa: E402

KEY_PREFIX = "agon-bench-flood"


@dataclass(frozen=True)
class MatchEntries:
    """What one finished match leaves in the timelines cache when every seat is asked."""

    game: str
    players: int
    steps: int
    timeline: list[dict[str, JSON]]
    seats: list[list[JSON]]
    seconds: float
    """CPU time to compute them all."""

    def sizes(self) -> list[int]:
        """Pickled bytes of each entry: the timeline's, then each seat's."""
        values: list[object] = [self.timeline, *self.seats]
        return [len(pickle.dumps(value, pickle.HIGHEST_PROTOCOL)) for value in values]


def match_entries(game_id: str, players: int, seed: int) -> MatchEntries:
    game = get_game(game_id)
    replay: Replay = play_match(
        game,
        seed=seed,
        players=players,
        options={},
        bots=[game.greedy_bot(seat) for seat in range(players)],
        bot_ids=[f"greedy-{seat}" for seat in range(players)],
    )
    started = time.process_time()
    timeline = timeline_steps(replay, reveal=True)
    seats = [seat_observation_patches(replay, seat) for seat in range(players)]
    seconds = time.process_time() - started
    return MatchEntries(game_id, players, len(timeline), timeline, seats, seconds)


def entry_table(games: Sequence[str], seeds: int) -> list[MatchEntries]:
    """Each game at its largest table, `seeds` matches: printed, and returned."""
    matches = []
    print("Entries of one finished match, every seat asked (pickled KiB):")
    for game_id in games:
        players = max(get_game(game_id).player_counts)
        for seed in range(1, seeds + 1):
            found = match_entries(game_id, players, seed)
            sizes = found.sizes()
            print(
                f"  {game_id} {players}p seed {seed}: {found.steps} steps, timeline "
                f"{sizes[0] / 1024:.0f}, largest seat {max(sizes[1:]) / 1024:.0f}, all "
                f"{sum(sizes) / 1024:.0f} KiB; {found.seconds * 1000:.0f} ms CPU"
            )
            matches.append(found)
    largest = max(max(m.sizes()) for m in matches)
    print(f"  largest entry: {largest / 1024:.0f} KiB")
    return matches


def django_cache(url: str) -> RedisCache:
    """Django's Redis cache at `url`, as production's settings make the `timelines` one."""
    return RedisCache(url, {"KEY_PREFIX": KEY_PREFIX})


def memory(client: redis.Redis) -> int:
    return int(client.info("memory")["used_memory"])


def flood(matches: list[MatchEntries], cache_url: str, broker_url: str | None, count: int) -> bool:
    """Write `count` matches' entries (cycling through `matches`, each under its own id) into
    the cache at `cache_url`; whether its memory stayed within its maxmemory (and the
    largest entry, the most a write may pass it by)."""
    cache = django_cache(cache_url)
    server = redis.Redis.from_url(cache_url)
    cap = int(str(server.config_get("maxmemory")["maxmemory"]))
    policy = str(server.config_get("maxmemory-policy")["maxmemory-policy"])
    if not cap:
        print(f"{cache_url} has no maxmemory: start it with --maxmemory", file=sys.stderr)
        return False
    broker = redis.Redis.from_url(broker_url) if broker_url else None
    broker_before = memory(broker) if broker else 0
    server.config_resetstat()  # evicted_keys and used_memory_peak from now on
    evicted_before = int(server.info("stats")["evicted_keys"])
    highest, written, started = 0, 0, time.perf_counter()
    for number in range(count):
        entries = matches[number % len(matches)]
        match_id = 10_000_000 + number
        version = get_game(entries.game).rules_version
        key = f"agon:timeline:{match_id}:{version}:1:{entries.steps - 1}"
        cache.set(key, entries.timeline, 24 * 3600)
        for seat, patches in enumerate(entries.seats):
            seat_key = f"agon:observations:{match_id}:{version}:{seat}"
            cache.set(seat_key, patches, 24 * 3600)
        written += sum(entries.sizes())
        if number % 20 == 0 or number == count - 1:
            highest = max(highest, memory(server))
    seconds = time.perf_counter() - started
    evicted = int(server.info("stats")["evicted_keys"]) - evicted_before
    kept = sum(1 for _ in server.scan_iter(match=f"{KEY_PREFIX}*", count=1000))
    print(
        f"Flood: {count} matches, {written / 2**20:.0f} MiB of entries written in "
        f"{seconds:.1f} s into {cache_url} (maxmemory {cap / 2**20:.0f} MiB, {policy}):"
    )
    print(
        f"  used_memory at most {highest / 2**20:.1f} MiB ({highest / cap:.0%} of the cap), "
        f"{evicted} keys evicted, {kept} kept"
    )
    if broker is not None:
        stray = sum(1 for _ in broker.scan_iter(match=f"{KEY_PREFIX}*", count=1000))
        moved = memory(broker) - broker_before
        print(
            f"  broker {broker_url}: {stray} keys of the cache, used_memory moved "
            f"{moved / 1024:+.0f} KiB (other clients' work included)"
        )
    for key in server.scan_iter(match=f"{KEY_PREFIX}*", count=1000):
        server.delete(key)
    largest = max(max(m.sizes()) for m in matches)
    over = highest - cap
    peak = int(server.info("memory")["used_memory_peak"])
    print(
        f"  sampled over the cap at most {max(0, over) / 1024:.0f} KiB; peak "
        f"{peak / 2**20:.2f} MiB (largest entry {largest / 1024:.0f} KiB)"
    )
    return over <= largest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(game_ids()), help="comma separated")
    parser.add_argument("--seeds", type=int, default=2, help="matches per game measured")
    parser.add_argument("--cache-url", help="a Redis with maxmemory and allkeys-lru")
    parser.add_argument("--broker-url", help="the broker's Redis, to check it is untouched")
    parser.add_argument("--matches", type=int, default=2000, help="matches in the flood")
    args = parser.parse_args(argv)
    matches = entry_table(args.games.split(","), args.seeds)
    if args.cache_url and not flood(matches, args.cache_url, args.broker_url, args.matches):
        print("the cache went over its maxmemory", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
