"""What the rules pages add to their Markdown: pictures drawn from the engine's data and
geometry, and component tables made from its data, each where its page's text has an
insert line (`<!-- agon: name -->`, see `agon.web.docs`)."""

from __future__ import annotations

import functools
from collections.abc import Callable

from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from agon.web.rules_components import akropolis as akropolis_tables
from agon.web.rules_components import architekton as architekton_tables
from agon.web.rules_components import attika as attika_tables
from agon.web.rules_components import megalopolis as megalopolis_tables
from agon.web.rules_components.table import ComponentTable
from agon.web.rules_pictures import akropolis as akropolis_pictures
from agon.web.rules_pictures import architekton as architekton_pictures
from agon.web.rules_pictures import attika as attika_pictures
from agon.web.rules_pictures import megalopolis as megalopolis_pictures
from agon.web.rules_pictures.figure import Figure

COMPONENT_TABLES = "component-tables"
"""The insert that holds a game's component tables; the others are pictures."""

PICTURES: dict[str, Callable[[], dict[str, list[Figure]]]] = {
    "akropolis": akropolis_pictures.figures,
    "attika": attika_pictures.figures,
    "megalopolis": megalopolis_pictures.figures,
    "architekton": architekton_pictures.figures,
}
"""Per game, its pictures by insert name (`coordinates`, `pieces`, `example`)."""
TABLES: dict[str, Callable[[], list[ComponentTable]]] = {
    "akropolis": akropolis_tables.tables,
    "attika": attika_tables.tables,
    "megalopolis": megalopolis_tables.tables,
    "architekton": architekton_tables.tables,
}


@functools.lru_cache(maxsize=8)
def rules_inserts(game_id: str) -> dict[str, SafeString]:
    """The inserts of a game's rules page, by name (none for a game without them). Drawn
    once per process: they depend on nothing but the engine."""
    inserts = {
        name: render_to_string("web/_rules_figures.html", {"figures": figures})
        for name, figures in PICTURES.get(game_id, dict)().items()
    }
    tables = TABLES.get(game_id)
    if tables is not None:
        inserts[COMPONENT_TABLES] = render_to_string(
            "web/_rules_components.html", {"tables": tables()}
        )
    return inserts
