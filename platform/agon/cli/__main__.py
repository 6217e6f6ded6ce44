"""`python -m agon.cli` is the same as `agon`."""

import sys

from agon.cli import main

sys.exit(main())
