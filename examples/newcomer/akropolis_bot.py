# Written by a newcomer from Agon's docs alone (bot protocol, rules page, starter kit, --help).
# Measured: 302 won, 2 drawn, 96 lost of 400 games vs builtin:greedy (75.5%, 95% CI 71-79%).
"""An Akropolis bot written by a newcomer from Agon's docs alone (bot protocol, rules page,
starter kit). It scores each legal move with its own model of the city: today's points plus
what the city is likely to be worth by the end (unfinished temples, plaza-less colours,
stones to spend), weighted by the share of the game still to play.
"""

import time

from agon_bot import Bot, log, run

D = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
COLOURS = ("house", "market", "barracks", "temple", "garden")

# Weights of the look at the future, each multiplied by the share of the game left.
FUTURE_DISTRICTS = 2.0  # district value a colour may still gain
FUTURE_STARS = 1.0  # stars a colour may still gain
STONE_BONUS = 1.0  # a stone is worth 1 point at the end, and more while it can buy tiles
LOOSE_HOUSES = 0.3  # houses outside the counting group may join it later
TEMPLE_HOPE = (1.0, 0.7, 0.45, 0.25, 0.12, 0.05, 0.0)  # by empty neighbours
DENIAL = 1.0  # how much the next seat's best reply counts against a move


def neighbours(q, r):
    return [(q + dq, r + dr) for dq, dr in D]


def cells_of(action):
    """The three spaces an action covers, in the order of the tile's hexes."""
    q, r, o = action["q"], action["r"], action["rotation"]
    a, b = D[o], D[(o + 1) % 6]
    return ((q, r), (q + a[0], r + a[1]), (q + b[0], r + b[1]))


def open_spaces(occupied):
    """Empty spaces joined to the outside of the city (not lakes)."""
    qs = [q for q, _ in occupied]
    rs = [r for _, r in occupied]
    q0, q1, r0, r1 = min(qs) - 1, max(qs) + 1, min(rs) - 1, max(rs) + 1
    seen = {(q0, r0)}
    todo = [(q0, r0)]
    while todo:
        q, r = todo.pop()
        for n in neighbours(q, r):
            if n in seen or n in occupied:
                continue
            if q0 <= n[0] <= q1 and r0 <= n[1] <= r1:
                seen.add(n)
                todo.append(n)
    return seen


def city_value(top, outside, stones, share_left):
    """Points of a city (top hexes by space) now, plus a guess at what it may still earn.

    With share_left == 0 this is exactly the game's score.
    """
    stars = dict.fromkeys(COLOURS, 0)
    value = dict.fromkeys(COLOURS, 0.0)
    hope = dict.fromkeys(COLOURS, 0.0)
    houses = {}
    for (q, r), (level, kind, colour, star_count) in top.items():
        if kind == "plaza":
            stars[colour] += star_count
        elif kind != "district":
            continue
        elif colour == "garden":
            value["garden"] += level
        elif colour == "house":
            houses[(q, r)] = level
        elif colour == "market":
            if all(
                (n := top.get(s)) is None or n[1] != "district" or n[2] != "market"
                for s in neighbours(q, r)
            ):
                value["market"] += level
        elif colour == "barracks":
            if any(s in outside for s in neighbours(q, r)):
                value["barracks"] += level
        else:  # temple
            empty = sum(1 for s in neighbours(q, r) if s not in top)
            if empty == 0:
                value["temple"] += level
            else:
                hope["temple"] += level * TEMPLE_HOPE[empty] * share_left
    if houses:
        groups = []
        left = set(houses)
        while left:
            start = left.pop()
            todo, size, total = [start], 0, 0
            while todo:
                space = todo.pop()
                size += 1
                total += houses[space]
                for n in neighbours(*space):
                    if n in left:
                        left.remove(n)
                        todo.append(n)
            groups.append((size, total))
        groups.sort(reverse=True)
        value["house"] = groups[0][1]
        hope["house"] = LOOSE_HOUSES * share_left * sum(t for _, t in groups[1:])
    worth = stones * (1 + STONE_BONUS * share_left)
    for c in COLOURS:
        districts = value[c] + hope[c] + FUTURE_DISTRICTS * share_left
        worth += districts * (stars[c] + FUTURE_STARS * share_left) - (
            FUTURE_DISTRICTS * FUTURE_STARS * share_left * share_left
        )
    return worth


def placements(top, tile_of):
    """Every way to lay a tile on a city: the three spaces it covers, as the rules allow."""
    # a tile's first hex may lie two spaces out, if another of its hexes touches the city
    anchors = set(top)
    for _ in range(2):
        for q, r in list(anchors):
            anchors.update(neighbours(q, r))
    found = []
    for q, r in anchors:
        for o in range(6):
            cells = cells_of({"q": q, "r": r, "rotation": o})
            below = [top.get(c) for c in cells]
            if all(b is None for b in below):
                if any(n in top for c in cells for n in neighbours(*c)):
                    found.append(cells)
            elif (
                all(b is not None for b in below)
                and below[0][0] == below[1][0] == below[2][0]
                and len({tile_of[c] for c in cells}) > 1
            ):
                found.append(cells)
    return found


def best_values(top, tile_of, stones, share_left, site, deadline):
    """For each site position, the most the city can be worth after laying its tile."""
    best = {}
    for cells in placements(top, tile_of):
        if time.monotonic() > deadline:
            return None
        below = [top.get(c) for c in cells]
        level = (below[0][0] if below[0] else 0) + 1
        quarries = sum(1 for b in below if b and b[1] == "quarry")
        outside = open_spaces(set(top) | set(cells))
        for tile in site:
            city = dict(top)
            for cell, hexagon in zip(cells, tile["hexes"], strict=True):
                city[cell] = (level, hexagon["kind"], hexagon.get("color"), hexagon.get("stars", 0))
            worth = city_value(city, outside, stones + quarries, share_left)
            position = tile["position"]
            if position not in best or worth > best[position]:
                best[position] = worth
    return best


def tiles_of(city):
    return {(h["q"], h["r"]): h["tile"] for h in city["hexes"]}


def top_of(city):
    return {
        (h["q"], h["r"]): (h["level"], h["kind"], h.get("color"), h.get("stars", 0))
        for h in city["hexes"]
    }


class NewcomerBot(Bot):
    def start(self, info):
        self.game = info["game"]
        self.seat = info["player"]
        self.spent = []

    def act(self, observation, legal_actions):
        began = time.monotonic()
        deadline = began + min(self.time_left_ms / 8, 700) / 1000
        me = observation["player"]
        players = observation["players"]
        site = observation["site"]
        top = top_of(observation["cities"][me])
        stones = observation["stones"][me]
        left = observation["stacks_left"] * (players + 1) + len(site) - 1
        total = observation["turn"] + left
        share_left = (left - players) / total if total else 0.0
        share_left = max(share_left, 0.0)

        tiles = {s["position"]: s for s in site}
        # at most half the time for the next seat's replies, the rest for my own moves
        threat = self.threats(observation, share_left, (began + deadline) / 2) if DENIAL else {}
        by_cells = {}
        best, best_worth = 0, None
        for index, action in enumerate(legal_actions):
            if index % 64 == 0 and time.monotonic() > deadline:
                log(f"move {self.move}: out of time after {index} of {len(legal_actions)}")
                break
            cells = cells_of(action)
            placed = by_cells.get(cells)
            if placed is None:
                occupied = set(top) | set(cells)
                below = [top.get(c) for c in cells]
                level = (below[0][0] if below[0] else 0) + 1
                quarries = sum(1 for b in below if b and b[1] == "quarry")
                placed = (open_spaces(occupied), level, quarries)
                by_cells[cells] = placed
            outside, level, quarries = placed
            tile = tiles[action["tile"]]
            city = dict(top)
            for cell, hexagon in zip(cells, tile["hexes"], strict=True):
                city[cell] = (
                    level,
                    hexagon["kind"],
                    hexagon.get("color"),
                    hexagon.get("stars", 0),
                )
            worth = city_value(city, outside, stones - tile["cost"] + quarries, share_left)
            worth -= DENIAL * threat.get(action["tile"], 0.0)
            if best_worth is None or worth > best_worth:
                best, best_worth = index, worth
        self.spent.append(time.monotonic() - began)
        return legal_actions[best]

    def threats(self, observation, share_left, deadline):
        """For each site position I may take: how much the next seat can gain on its turn."""
        players = observation["players"]
        site = observation["site"]
        if len(site) < 2:
            return {}
        seat = (observation["player"] + 1) % players
        city = observation["cities"][seat]
        top, tile_of = top_of(city), tiles_of(city)
        stones = observation["stones"][seat]
        now = city_value(top, open_spaces(set(top)), stones, share_left)
        stone = 1 + STONE_BONUS * share_left
        best = best_values(top, tile_of, stones, share_left, site, deadline)
        if not best:
            return {}
        gain = {position: worth - now for position, worth in best.items()}
        threat = {}
        for taken in gain:
            options = []
            for position, value in gain.items():
                if position == taken:
                    continue
                cost = position - (1 if position > taken else 0)
                if cost <= stones:
                    options.append(value - cost * stone)
            threat[taken] = max(options, default=0.0)
        return threat

    def end(self, result):
        average = sum(self.spent) / len(self.spent) if self.spent else 0
        log(
            f"scores {result['scores']} rank {result['ranks'][self.seat]};"
            f" {average * 1000:.0f} ms a move on average, {max(self.spent) * 1000:.0f} at most"
        )


if __name__ == "__main__":
    run(NewcomerBot())
