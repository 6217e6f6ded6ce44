"""The rules pages' pictures and component tables, read back from the HTML the site
serves: each page has its coordinate grid, its pieces and a position from a real game,
drawn where the engine's geometry puts every cell, and component tables whose numbers
are the engine's data."""

from __future__ import annotations

import re
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, ClassVar

import pytest
from django.test import Client
from django.urls import reverse

from agon.web.rules_pictures import akropolis as akropolis_pictures
from agon.web.rules_pictures import architekton as architekton_pictures
from agon.web.rules_pictures import attika as attika_pictures
from agon.web.rules_pictures import hexes, squares
from agon.web.rules_pictures import megalopolis as megalopolis_pictures
from agon.web.rules_pictures.positions import played_position
from engine.akropolis.components import TILE_COUNT_BY_PLAYERS, TILES, describe_hex
from engine.architekton.components import BUILDINGS as ARCHITEKTON_TILES
from engine.architekton.components import TERRAINS
from engine.attika.components import BUILDINGS as ATTIKA_BUILDINGS
from engine.hexgrid import decode, to_pixel
from engine.megalopolis.components import KINDS
from engine.registry import get_game
from tests.platform.web.test_pages import get

GAMES = ["akropolis", "attika", "architekton", "megalopolis"]
HEX_GAMES = {"akropolis", "attika"}
RULES = Path(__file__).resolve().parents[3] / "docs" / "rules"
VIEWER = Path(__file__).resolve().parents[3] / "platform/agon_kit/viewer/static/web/games"


class Node:
    def __init__(self, tag: str, attrs: dict[str, str], parent: Node | None) -> None:
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list[Node] = []
        self.text = ""

    def all(self, tag: str, **attrs: str) -> list[Node]:
        found = []
        for child in self.children:
            if child.tag == tag and all(child.attrs.get(k) == v for k, v in attrs.items()):
                found.append(child)
            found += child.all(tag, **attrs)
        return found

    def one(self, tag: str, **attrs: str) -> Node:
        (found,) = self.all(tag, **attrs)
        return found

    def words(self) -> str:
        return self.text + "".join(child.words() for child in self.children)


class Tree(HTMLParser):
    """The page as a tree of elements (enough of HTML for these pages)."""

    VOID: ClassVar[set[str]] = {
        *("meta", "link", "br", "img", "input", "hr"),
        *("polygon", "circle", "rect", "line"),
    }

    def __init__(self, html: str) -> None:
        super().__init__()
        self.root = self.node = Node("root", {}, None)
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs}, self.node)
        self.node.children.append(node)
        if tag not in self.VOID:
            self.node = node

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.node.children.append(Node(tag, {k: v or "" for k, v in attrs}, self.node))

    def handle_endtag(self, tag: str) -> None:
        node: Node | None = self.node
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.node = node.parent

    def handle_data(self, data: str) -> None:
        self.node.text += data


def page_tree(client: Client, game_id: str) -> Node:
    return Tree(get(client, reverse("web:rules", args=[game_id]))).root


def picture(tree: Node, name: str) -> Node:
    return tree.one("svg", **{"data-picture": name})


def placed_at(node: Node) -> tuple[float, float]:
    found = re.fullmatch(r"translate\((\S+) (\S+)\)", node.attrs["transform"])
    assert found is not None
    return float(found[1]), float(found[2])


def table_rows(tree: Node, name: str) -> list[list[str]]:
    table = tree.one("table", **{"data-components": name})
    return [[cell.words().strip() for cell in row.all("td")] for row in table.all("tr")[1:]]


@pytest.mark.parametrize("game_id", GAMES)
def test_every_rules_page_has_its_pictures_each_with_a_name_and_a_caption(
    client: Client, game_id: str
) -> None:
    html = get(client, reverse("web:rules", args=[game_id]))
    assert "<!-- agon:" not in html, "every insert line of the rules was filled"
    tree = Tree(html).root
    figures = tree.all("figure")
    assert len(figures) >= 3
    names = {figure.one("svg").attrs.get("data-picture") for figure in figures}
    assert {"coordinates", "example"} <= names
    for figure in figures:
        drawing = figure.one("svg")
        assert drawing.attrs["role"] == "img" and drawing.attrs["aria-label"]
        assert drawing.one("title").words() == drawing.attrs["aria-label"]
        assert re.fullmatch(r"-?[\d.]+ -?[\d.]+ [\d.]+ [\d.]+", drawing.attrs["viewbox"])
        assert "style" not in drawing.attrs  # the site's CSP refuses inline styles
        assert len(figure.one("figcaption").words()) > 40


@pytest.mark.parametrize("game_id", GAMES)
def test_every_insert_line_of_the_rules_names_an_insert_of_its_game(game_id: str) -> None:
    from agon.web.rules_inserts import rules_inserts

    text = (RULES / f"{game_id}.md").read_text(encoding="utf-8")
    asked = re.findall(r"^<!-- agon: ([a-z-]+) -->$", text, flags=re.MULTILINE)
    assert sorted(asked) == sorted(rules_inserts(game_id))


@pytest.mark.parametrize("game_id", GAMES)
def test_the_coordinate_grid_is_drawn_by_the_engines_geometry(client: Client, game_id: str) -> None:
    grid = picture(page_tree(client, game_id), "coordinates")
    cells = grid.all("g", **{"class": "hex" if game_id in HEX_GAMES else "cell"})
    assert len(cells) == (19 if game_id in HEX_GAMES else 25)
    for cell in cells:
        if game_id in HEX_GAMES:
            q, r = int(cell.attrs["data-q"]), int(cell.attrs["data-r"])
            expected = to_pixel(q, r, hexes.SIZE)
            label = f"{q},{r}"
        else:
            x, y = int(cell.attrs["data-x"]), int(cell.attrs["data-y"])
            expected = (x * squares.CELL, -y * squares.CELL)
            label = f"{x},{y}"
        assert placed_at(cell) == pytest.approx(expected, abs=0.01)
        assert label in [text.words() for text in cell.all("text")]
    axes = {"+q", "+r"} if game_id in HEX_GAMES else {"+x", "+y"}
    assert axes <= {text.words() for text in grid.all("text")}


def test_the_akropolis_grid_shows_the_starting_tile() -> None:
    start = get_game("akropolis").new_state(1, 2, {}).cities[0]
    drawn = Tree(akropolis_pictures.coordinates().svg).root.all("g", **{"class": "hex"})
    kinds = {(int(g.attrs["data-q"]), int(g.attrs["data-r"])): g.attrs["data-kind"] for g in drawn}
    assert len(start.top) == 4
    for code, (_, hex_code, _) in start.top.items():
        assert kinds[decode(code)] == describe_hex(hex_code)[0]


EXAMPLES = {
    "akropolis": akropolis_pictures,
    "attika": attika_pictures,
    "architekton": architekton_pictures,
    "megalopolis": megalopolis_pictures,
}


def example_position(game_id: str) -> Any:
    module = EXAMPLES[game_id]
    players = getattr(module, "EXAMPLE_PLAYERS", 2)
    return played_position(game_id, module.EXAMPLE_SEED, players, module.EXAMPLE_ACTIONS)


def test_the_akropolis_example_is_seat_0s_city_as_the_engine_has_it(client: Client) -> None:
    position = example_position("akropolis")
    drawn = picture(page_tree(client, "akropolis"), "example").all("g", **{"class": "hex"})
    shown = {
        (int(g.attrs["data-q"]), int(g.attrs["data-r"])): (
            int(g.attrs["data-level"]),
            g.attrs["data-kind"],
            g.attrs["data-color"],
        )
        for g in drawn
    }
    city = position.observation["cities"][0]["hexes"]
    assert shown == {(h["q"], h["r"]): (h["level"], h["kind"], h.get("color", "")) for h in city}
    for g in drawn:
        q, r = int(g.attrs["data-q"]), int(g.attrs["data-r"])
        assert placed_at(g) == pytest.approx(to_pixel(q, r, hexes.SIZE), abs=0.01)
    caption = picture(page_tree(client, "akropolis"), "example").parent
    assert caption is not None
    assert f"{position.result.details[0]['total']} points" in caption.words()


def test_the_attika_example_is_the_map_as_the_engine_has_it(client: Client) -> None:
    seen = example_position("attika").observation["map"]
    drawn = picture(page_tree(client, "attika"), "example").all("g", **{"class": "hex"})
    buildings = {
        (int(g.attrs["data-q"]), int(g.attrs["data-r"])): int(g.attrs["data-player"])
        for g in drawn
        if g.attrs["data-kind"] == "building"
    }
    assert buildings == {
        (h["q"], h["r"]): h["player"] for h in seen["hexes"] if h["player"] is not None
    }
    shrines = [
        (int(g.attrs["data-q"]), int(g.attrs["data-r"]))
        for g in drawn
        if g.attrs["data-kind"] == "shrine"
    ]
    assert sorted(shrines) == sorted(tuple(s) for s in seen["shrines"])
    assert len(drawn) == len(seen["hexes"]) + len(seen["shrines"])


@pytest.mark.parametrize("game_id", ["architekton", "megalopolis"])
def test_the_square_examples_are_the_board_as_the_engine_has_it(
    client: Client, game_id: str
) -> None:
    board = example_position(game_id).observation["board"]
    drawn = picture(page_tree(client, game_id), "example").all("g", **{"class": "cell"})
    assert sorted((int(g.attrs["data-x"]), int(g.attrs["data-y"])) for g in drawn) == sorted(
        (t["x"], t["y"]) for t in board
    )
    for g in drawn:
        x, y = int(g.attrs["data-x"]), int(g.attrs["data-y"])
        assert placed_at(g) == pytest.approx((x * squares.CELL, -y * squares.CELL), abs=0.01)


def test_the_akropolis_stacks_are_those_the_engine_deals(client: Client) -> None:
    game = get_game("akropolis")
    rows = table_rows(page_tree(client, "akropolis"), "akropolis-stacks")
    dealt = []
    for players in game.player_counts:
        state = game.new_state(3, players, {})
        dealt.append((str(players), state))
    for players in (2, 3):
        dealt.append((f"{players}, all_tiles", game.new_state(3, players, {"all_tiles": True})))
    assert [row[0] for row in rows] == [label for label, _ in dealt]
    for row, (label, state) in zip(rows, dealt, strict=True):
        in_play = len(state.site) + sum(len(stack) for stack in state.stacks)
        if "all_tiles" not in label:
            assert in_play == TILE_COUNT_BY_PLAYERS[state.players]
        assert row[1:] == [
            str(in_play),
            str(len(state.stacks)),
            str(len(state.stacks[0])),
            str(len(state.site)),
        ]


def test_the_akropolis_composition_counts_the_engines_tiles(client: Client) -> None:
    rows = table_rows(page_tree(client, "akropolis"), "akropolis-composition")
    for column, players in enumerate((2, 3, 4), start=1):
        counted = Counter(
            code for tile in TILES.values() if tile.min_players <= players for code in tile.hexes
        )
        assert sum(int(row[column]) for row in rows) == 3 * TILE_COUNT_BY_PLAYERS[players]
        assert sorted(int(row[column]) for row in rows) == sorted(counted.values())
    quarries = next(row for row in rows if row[0] == "quarry")
    assert quarries[1] == str(
        sum(tile.hexes.count(0) for tile in TILES.values() if tile.min_players <= 2)
    )
    every = table_rows(page_tree(client, "akropolis"), "akropolis-tiles")
    assert [int(row[0]) for row in every] == sorted(TILES)


def test_the_attika_buildings_have_the_engines_costs_and_arrows(client: Client) -> None:
    rows = table_rows(page_tree(client, "attika"), "attika-buildings")
    assert len(rows) == len(ATTIKA_BUILDINGS) == 30
    for row, building in zip(rows, ATTIKA_BUILDINGS, strict=True):
        assert row[0].split(" ")[0] == building.id
        assert row[2].replace(" ", "") == (building.cost or "5any")
        if building.upstream is not None:
            assert row[3] == f"your {building.upstream}"
        elif building.main:
            assert row[3].startswith("never")


def test_the_architekton_tiles_are_the_engines(client: Client) -> None:
    rows = table_rows(page_tree(client, "architekton"), "architekton-buildings")
    assert [int(row[0]) for row in rows] == [tile.id for tile in ARCHITEKTON_TILES]
    for row, tile in zip(rows, ARCHITEKTON_TILES, strict=True):
        assert row[1:5] == [TERRAINS[t] for t in tile.edges]


def test_the_megalopolis_tiles_are_the_engines(client: Client) -> None:
    rows = table_rows(page_tree(client, "megalopolis"), "megalopolis-tiles")
    assert [row[0] for row in rows] == [kind.name for kind in KINDS]
    for row, kind in zip(rows, KINDS, strict=True):
        assert row[1:4] == [str(kind.count), str(kind.bonus), "yes" if kind.silver else "no"]
    assert sum(int(row[1]) for row in rows) == 120


@pytest.mark.parametrize(
    ("game_id", "colours"),
    [
        ("akropolis", akropolis_pictures.FILL.values()),
        ("attika", [*attika_pictures.LAND.values(), attika_pictures.BLANK]),
        ("architekton", architekton_pictures.TERRAIN.values()),
        ("megalopolis", megalopolis_pictures.FILLS),
    ],
)
def test_the_pictures_are_coloured_as_the_replay_viewer(game_id: str, colours: Any) -> None:
    viewer = (VIEWER / f"{game_id}.js").read_text(encoding="utf-8")
    assert all(colour in viewer for colour in colours)
