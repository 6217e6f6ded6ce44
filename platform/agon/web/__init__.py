"""The web pages: what a player sees in the browser (Django templates, own CSS and JS)."""
