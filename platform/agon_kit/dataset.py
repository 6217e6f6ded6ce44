"""`agon-kit dataset pull GAME`: download a game's dataset from the site, or what is new
in it since the last pull.

The site lists the dataset's parts (`GET /api/games/GAME/datasets/`); each part is a
Parquet file named after its number and its digest. A part already here with the right
SHA-256 is skipped; a part half downloaded (`NAME.partial`) is continued from where it
stopped; each file is checked against its SHA-256 before it takes its name. A part the
site no longer lists (a match in it became private or was deleted: it was written again
under a new name) is removed, so that the folder holds what the manifest says.

Everything the site answers is checked before it is used: names of the expected shape
only (no path), sizes and digests of the right form, addresses on the site itself.
Standard library only, as the rest of the bot kit."""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import urllib.parse
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from agon_kit.common import fail
from agon_kit.progress import progress_bar
from agon_kit.remote import RemoteError, Site, find_server, printable
from agon_kit.site_access import reported

HELP = "download a game's dataset of public matches (Parquet), or what is new in it"
PART_NAME = re.compile(r"part-\d{6}-[0-9a-f]{12}\.parquet")
SHA256 = re.compile(r"[0-9a-f]{64}")
GAME_ID = re.compile(r"[a-z0-9_-]{1,32}")
MAX_PART_BYTES = 64 * 1024**3
EPILOG = """\
examples:
  agon-kit dataset pull akropolis                     # into ./akropolis-dataset/
  agon-kit dataset pull attika --out data/attika      # run it again later: only what is new
  agon-kit dataset pull megalopolis --since 2026-11-01

Each row of a part is one decision: the match, the seat, the turn, the bot version's
digest, what that seat was shown, how many legal actions it had, the action and its
index among them, and the seat's final rank and score. Read the parts with pandas,
Polars, DuckDB or pyarrow (`pip install pyarrow`); the folder's manifest.json lists them
with their sizes and digests, the schema version and the licence. An interrupted pull
goes on where it stopped when run again.
"""


def register(commands: Any) -> None:
    dataset = commands.add_parser(
        "dataset",
        help=HELP,
        description="Every finished ranked match and public tournament game of a game, one "
        "Parquet row per decision as the deciding seat saw it, from an Agon site.",
    )
    actions = dataset.add_subparsers(dest="action", required=True, metavar="ACTION")
    pull = actions.add_parser(
        "pull",
        help="download the parts not here yet (resumable)",
        description="Download the parts of GAME's dataset that the folder does not hold "
        "yet, continue a part half downloaded, check each against its SHA-256, and remove "
        "the parts the site withdrew.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    pull.add_argument("game", metavar="GAME", help="the game's id, e.g. akropolis")
    pull.add_argument(
        "--since",
        type=since_date,
        metavar="DATE",
        help="only the parts written on or after DATE (YYYY-MM-DD, or a full ISO time)",
    )
    pull.add_argument(
        "--out", type=Path, metavar="DIR", help="the folder to fill (default ./GAME-dataset)"
    )
    pull.add_argument(
        "--server", help="the site's address (default $AGON_SERVER, else the local one)"
    )
    pull.set_defaults(run=run_pull)


def since_date(text: str) -> datetime:
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a date as YYYY-MM-DD, not {text!r}") from None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def _part(entry: Any, site: Site) -> dict[str, Any]:
    """A part as the site described it, checked (RemoteError otherwise)."""
    name = entry["name"]
    if not isinstance(name, str) or not PART_NAME.fullmatch(name):
        raise RemoteError(f"the site lists a part with a strange name: {printable(name, 80)}")
    size, digest = entry["size"], entry["sha256"]
    if not isinstance(size, int) or not 0 < size <= MAX_PART_BYTES:
        raise RemoteError(f"the site gives part {name} a strange size: {printable(size, 40)}")
    if not isinstance(digest, str) or not SHA256.fullmatch(digest):
        raise RemoteError(f"the site gives part {name} a strange SHA-256")
    url = urllib.parse.urlsplit(urllib.parse.urljoin(site.url + "/", str(entry["url"])))
    home = urllib.parse.urlsplit(site.url)
    if (url.scheme, url.netloc) != (home.scheme, home.netloc):
        raise RemoteError(f"the site sends part {name} to download elsewhere: refused")
    built = datetime.fromisoformat(str(entry["built"]))
    path = url.path + (f"?{url.query}" if url.query else "")
    return {"name": name, "size": size, "sha256": digest, "path": path, "built": built}


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        while block := file.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def _fetch(site: Site, part: dict[str, Any], folder: Path, bar: Any) -> int:
    """Download one part (continuing a partial file); the bytes it took."""
    final = folder / part["name"]
    partial = folder / f"{part['name']}.partial"
    have = partial.stat().st_size if partial.exists() else 0
    if have >= part["size"]:
        have = 0  # longer than the part: not this part's beginning
    got = 0

    def advance(count: int) -> None:
        nonlocal got
        got += count
        bar.advance(bar.task_ids[0], count)

    with partial.open("r+b" if have else "wb") as file:
        taken = site.download(part["path"], file, offset=have, progress=advance)
    if taken:
        bar.advance(bar.task_ids[0], taken)
    if sha256_of(partial) != part["sha256"]:
        partial.unlink()
        raise RemoteError(
            f"part {part['name']} did not arrive whole (its SHA-256 differs): run the "
            "command again to download it afresh"
        )
    partial.replace(final)
    return got


@reported
def run_pull(args: argparse.Namespace) -> int:
    if not GAME_ID.fullmatch(args.game):
        return fail(f"not a game's id: {printable(args.game, 40)}")
    site = Site(find_server(args.server), None)
    manifest = site.get(f"/api/games/{args.game}/datasets/")
    parts = [_part(entry, site) for entry in manifest["parts"]]
    folder: Path = args.out or Path(f"{args.game}-dataset")
    folder.mkdir(parents=True, exist_ok=True)
    wanted = [part for part in parts if args.since is None or part["built"] >= args.since]
    present = [
        part
        for part in wanted
        if (folder / part["name"]).is_file() and sha256_of(folder / part["name"]) == part["sha256"]
    ]
    missing = [part for part in wanted if part not in present]
    listed = {part["name"] for part in parts}
    withdrawn = [
        path
        for path in sorted(folder.iterdir())
        if PART_NAME.fullmatch(path.name.removesuffix(".partial"))
        and path.name.removesuffix(".partial") not in listed
    ]
    for path in withdrawn:
        path.unlink()
    fetched = 0
    with progress_bar(sum(part["size"] for part in missing), f"{args.game} dataset") as bar:
        for part in missing:
            fetched += _fetch(site, part, folder, bar)
    (folder / "manifest.json").write_text(
        json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )
    print(
        f"{args.game}: {len(missing)} part{'s' * (len(missing) != 1)} downloaded "
        f"({fetched} bytes), {len(present)} already here"
        + (f", {len(withdrawn)} withdrawn by the site removed" if withdrawn else "")
        + f"; {printable(manifest['matches'], 20)} matches, "
        f"{printable(manifest['rows'], 20)} decisions in {folder}"
    )
    return 0
