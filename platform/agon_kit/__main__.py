"""`python -m agon_kit` is the same as `agon-kit`."""

import sys

from agon_kit.cli import main

sys.exit(main())
