"""Megalopolis' fast paths: what the rules ask for often, kept or written faster than the
plain rules would, each checked against the plain function it must agree with by a test
under tests/engine/megalopolis/fast/.

- `open_spaces`: `sorted(table.open_spaces(state))`, kept between turns and updated
  around the cells that changed.
- `board_text`: the board of an observation (`state_json.board_to_json`) as JSON text,
  kept between turns and rewritten at the tiles that changed.
- `message_text`: the observation (`observation.observation`) and the compact legal
  actions (`actions.LegalActions.compact`) as JSON text, written without building them.
"""
