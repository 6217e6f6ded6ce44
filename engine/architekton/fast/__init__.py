"""Architekton's fast paths: what the rules ask for often, kept or written faster than the
plain rules would, each checked against the plain function it must agree with by a test
under tests/engine/architekton/fast/.

- `frontier`: `board.legal_placements` and `board.can_place_any` from the empty cells
  where a tile may go, kept up to date as tiles are placed.
- `legal_text`: the legal actions as the JSON text the bot protocol sends.
- `observation_text`: the observation (`observation.observation`) as JSON text.
"""
