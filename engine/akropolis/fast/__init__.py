"""Akropolis' fast paths: each gives what a plain rule gives, faster. None is needed to
read the rules; each is held to its plain twin by the tests under
tests/engine/akropolis/fast/ (random games and hand-made adversarial cities).

- `city_cache`: what is kept of one city (`City.kept`): its legal triangles, updated
  around each placement with `legal_tables` and `triangle_ring` (equal to
  `geometry.scan_legal_triangles`), their placements' JSON text (equal to encoding
  `actions.LegalActions.compact()`), its running score and its observation text.
- `running_score`: a city's score kept up to date placement by placement, with `lakes`
  (equal to `scoring.score_surface`).
- `board_score`: a city's score worked out at once on bit boards, for a game's result
  (equal to `scoring.score_surface`).
- `lakes`: the lakes of a city on bit boards, and those a new tile closes (equal to the
  empty cells `scoring.outside_empty_cells` leaves out).
- `gains`: the greedy bot's gain of every legal action, with `city_gains` and
  `placement_gains` (equal to `greedy.naive_gains`).
- `observation_text`: the observation's JSON text from texts kept between turns (equal
  to `compact_json(observation.observation(state, player))`).

`city_cache`'s legal-triangle upkeep runs in C where Akropolis' compiled core is built
(`engine.akropolis.native`), its Python method the reference.
"""
