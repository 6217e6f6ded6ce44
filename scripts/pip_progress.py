"""Shows `pip install`'s progress as one line (a bar on a terminal, a line per quarter
elsewhere) and keeps pip's whole output in a log, printed at the end if pip failed.

    pip install ... 2>&1 | python3 scripts/pip_progress.py --total N --log FILE
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

STEPS = ("Collecting ", "Processing ")
WIDTH = 30


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--total", type=int, required=True, help="packages in the lock")
    parser.add_argument("--log", type=Path, required=True, help="where pip's output goes")
    args = parser.parse_args()
    terminal = sys.stderr.isatty()
    done, quarter, failed = 0, 0, False
    with args.log.open("w") as log:
        for line in sys.stdin:
            log.write(line)
            failed = failed or line.startswith("ERROR")
            if not line.startswith(STEPS):
                continue
            done = min(done + 1, args.total)
            name = line.split()[1].split("==")[0]
            if terminal:
                filled = WIDTH * done // args.total
                bar = "#" * filled + "." * (WIDTH - filled)
                sys.stderr.write(f"\r  Python packages [{bar}] {done}/{args.total} {name:<24.24}")
            elif 4 * done // args.total > quarter:
                quarter = 4 * done // args.total
                sys.stderr.write(f"  Python packages: {done}/{args.total}\n")
            sys.stderr.flush()
    if terminal:
        sys.stderr.write("\n")
    if failed:
        sys.stderr.write(args.log.read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
