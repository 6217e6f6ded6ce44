"""The site's replay viewer, in one copy: the web app serves these files (its settings
add STATIC_DIR to the static files and TEMPLATES_DIR to the templates, under the names
they always had, `web/viewer.js` and `web/_viewer_controls.html`), and the offline
`view` command inlines them into one HTML page (agon_kit.view)."""

from __future__ import annotations

from pathlib import Path

VIEWER_DIR = Path(__file__).resolve().parent
STATIC_DIR = VIEWER_DIR / "static"
"""web/: the site's stylesheet (agon.css), zoom.js, viewer.js and the games' board
renderers (games/<renderer>.js)."""
TEMPLATES_DIR = VIEWER_DIR / "templates"
"""web/: the viewer's controls and side panels, plain HTML that the match page includes
too (_viewer_controls.html, _viewer_side.html): one copy of what viewer.js expects."""
OFFLINE_DIR = VIEWER_DIR / "offline"
"""The offline page (page.html, a string.Template) and the script that answers the
viewer's request for the timeline from the page (fetch.js)."""
