"""Agon's bot kit: the commands that need neither Django nor the rest of the platform
(play, match, tournament, view, replay, score on the author's machine; login, submit and
test with a site), their helpers, and the site's replay viewer (`viewer/`), which the
offline `view` embeds and the web app serves. `agon-kit` (agon_kit.cli) runs them; the
platform's `agon` (agon.cli) offers them beside its own; the kit's wheel
(agon.kit_wheel) ships this package whole."""
