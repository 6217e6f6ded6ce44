"""Settings by environment: `agon.settings.local` (the default), `production`, `test`."""
