"""Attika's fast paths: what the rules ask for often, kept or written faster than the plain
rules would, each checked against the plain function it must agree with by a test under
tests/engine/attika/fast/.

- `index`: tables derived from the map and its buildings (hexes, free cells and their
  discounts, colonies, where a tile fits), kept up to date move by move;
- `map_rules`: the map's questions and a build's cost (`map`, `costs.build_cost`,
  `colonies.shrines_linked`) answered from those tables;
- `builds`: `costs.legal_builds`, pricing groups of cells rather than each cell (in C
  where the compiled core is built, `engine.attika.native`);
- `map_text`, `observation_text`, `legal_text`: the bot message's parts as JSON text.
"""
