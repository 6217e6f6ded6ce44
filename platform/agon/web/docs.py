"""The documentation pages and the starter kit, made from the repository's own files.

`docs/*.md` (and the rules pages under `docs/rules/`, see `agon.web.rules`) are rendered
with markdown-it (CommonMark and tables, raw HTML escaped), the bot protocol followed by
each game's section from its package; headings get ids for the table of contents, and
links between the repository's files become links to the pages and files served here.
The starter kit is a zip of the example bots, the bot protocol, the command line's page,
a README and the bot kit as its source archive and its wheel (agon.kit_wheel), built in
memory with fixed timestamps, so the same files always give the same bytes; it is built
once per version of those files (compressing the wheel again took 70-145 ms a download).
"""

from __future__ import annotations

import functools
import io
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import slugify
from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

from agon.kit_wheel import kit_sdist, kit_wheel
from engine.registry import game_ids, get_spec

DOCS = {
    "bot-protocol": "bot-protocol.md",
    "command-line": "command-line.md",
    "environments": "environments.md",
    "datasets": "datasets.md",
    "notifications": "notifications.md",
    "competitions": "competitions.md",
    "attika-reconstruction": "attika-reconstruction.md",
}
"""The documents served, by slug: file names under docs/."""
DECISIONS_ANCHOR = "decisions"
"""Where a game's decisions file starts on its rules page (its headings get this prefix)."""
STARTER_KIT_README = Path(__file__).parent / "starter_kit" / "README.md"
STARTER_KIT_FOLDER = "agon-starter-kit"
ZIP_TIME = (2024, 1, 1, 0, 0, 0)


def docs_dir() -> Path:
    return Path(settings.REPO_DIR) / "docs"


def examples_dir() -> Path:
    return Path(settings.REPO_DIR) / "examples" / "bots"


def example_files() -> list[Path]:
    return sorted(examples_dir().glob("*.py"))


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    anchor: str


@dataclass(frozen=True)
class RenderedDoc:
    title: str
    html: SafeString
    headings: list[Heading]


def _link_target(href: str) -> str:
    """Where a relative link of a document leads on the site."""
    if re.match(r"^[a-z]+:", href) or href.startswith(("#", "/")):
        return href
    path, _, anchor = href.partition("#")
    name = path.rsplit("/", 1)[-1]
    suffix = f"#{anchor}" if anchor else ""
    if "examples/bots/" in path and name.endswith(".py"):
        return reverse("web:example", args=[name]) + suffix
    for slug, file_name in DOCS.items():
        if name == file_name:
            return reverse("web:doc", args=[slug]) + suffix
    for game_id in game_ids():
        if name == f"{game_id}.md":
            return reverse("web:rules", args=[game_id]) + suffix
        if name == f"{game_id}-decisions.md":
            anchor = f"{DECISIONS_ANCHOR}-{anchor}" if anchor else DECISIONS_ANCHOR
            return reverse("web:rules", args=[game_id]) + f"#{anchor}"
    return href


NAMED_HEADING = re.compile(r'^<a id="([a-z0-9][a-z0-9-]*)"></a>\s*')
"""A heading that names its own anchor (the decisions files: `### <a id="x"></a>x: ...`),
so that tests and links can cite it by that name."""


INSERT_LINE = re.compile(r"^<!-- agon: ([a-z][a-z0-9-]*) -->$")
"""A paragraph of its own, `<!-- agon: name -->`, marks where a page puts content it makes
itself (the rules pages' pictures and component tables); hidden where Markdown is read
elsewhere, since it is an HTML comment."""


def insert_marker(name: str) -> str:
    """What a `<!-- agon: name -->` line becomes in the HTML: the same comment, which the
    page replaces (`fill_inserts`) or leaves, unseen."""
    return f"<!-- agon: {name} -->\n"


def insert_names(html: str) -> list[str]:
    """The names of the inserts a rendered document asks for, in order."""
    return re.findall(r"^<!-- agon: ([a-z][a-z0-9-]*) -->$", html, flags=re.MULTILINE)


def fill_inserts(html: SafeString, inserts: dict[str, SafeString]) -> SafeString:
    """The document with each insert marker replaced by its content (unknown ones stay
    comments)."""
    filled = str(html)
    for name, content in inserts.items():
        filled = filled.replace(insert_marker(name), content)
    return mark_safe(filled)  # noqa: S308 (a rendered document and our own SafeStrings)


def _with_insert_markers(tokens: list[Token]) -> list[Token]:
    """The tokens with each paragraph that is an insert line made its marker."""
    kept: list[Token] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        found = None
        if token.type == "paragraph_open" and index + 2 < len(tokens):
            found = INSERT_LINE.match(tokens[index + 1].content.strip())
        if found is None:
            kept.append(token)
            index += 1
            continue
        marker = Token("html_block", "", 0)
        marker.content = insert_marker(found.group(1))
        kept.append(marker)
        index += 3  # the paragraph's opening, its text and its closing
    return kept


def _take_anchor(inline: Token) -> str | None:
    """The anchor a heading names at its start, taken out of its text; None if none."""
    if not inline.children:
        return None
    first = inline.children[0]
    if first.type != "text" or not (found := NAMED_HEADING.match(first.content)):
        return None
    first.content = first.content[found.end() :]
    return found.group(1)


def _code_inline(
    renderer: RendererHTML, tokens: list[Token], index: int, options: OptionsDict, env: EnvType
) -> str:
    """Inline code; in a table, free to break after each `_`, so that a phone's table fits
    as soon as the words between them do (`construction_site` is one long word)."""
    token = tokens[index]
    text = escapeHtml(token.content)
    if token.meta.get("in_table"):
        text = text.replace("_", "_<wbr>")
    return f"<code{renderer.renderAttrs(token)}>{text}</code>"


def render_markdown(text: str, anchor_prefix: str = "", *, below: bool = False) -> RenderedDoc:
    """`text` as HTML; `anchor_prefix` keeps the heading ids of a document shown after
    another on one page apart from the first one's, and `below` puts its headings a level
    down, so that the page has one title."""
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    md.add_render_rule("code_inline", _code_inline)
    tokens = _with_insert_markers(md.parse(text))
    in_table = False
    headings: list[Heading] = []
    used: set[str] = set()
    title = ""
    for index, token in enumerate(tokens):
        if token.type in ("heading_open", "heading_close") and below:
            token.tag = f"h{min(6, int(token.tag[1]) + 1)}"
        if token.type == "heading_open":
            inline: Token = tokens[index + 1]
            named = _take_anchor(inline)
            words = "".join(child.content for child in inline.children or [])
            anchor = base = anchor_prefix + (named or slugify(words) or "section")
            count = 1
            while anchor in used:
                count += 1
                anchor = f"{base}-{count}"
            used.add(anchor)
            token.attrSet("id", anchor)
            level = int(token.tag[1])
            if level == 1 and not title:
                title = words
            headings.append(Heading(level, words, anchor))
        elif token.type == "inline":
            for child in token.children or []:
                if child.type == "link_open":
                    child.attrSet("href", _link_target(str(child.attrGet("href") or "")))
                elif child.type == "code_inline" and in_table:
                    child.meta["in_table"] = True
        elif token.type in ("table_open", "table_close"):
            in_table = token.type == "table_open"
            if in_table:
                token.attrSet("class", "doc-table")
    html = md.renderer.render(tokens, md.options, {})
    # markdown-it escapes the documents' text and drops raw HTML ("html": False).
    return RenderedDoc(title, mark_safe(html), headings)  # noqa: S308


@functools.lru_cache(maxsize=16)
def _rendered(path: Path, modified: float, anchor_prefix: str, below: bool) -> RenderedDoc:
    return render_markdown(path.read_text(encoding="utf-8"), anchor_prefix, below=below)


def file_render(path: Path, anchor_prefix: str = "", *, below: bool = False) -> RenderedDoc:
    """A Markdown file, rendered (cached until the file changes); see `render_markdown`."""
    return _rendered(path, path.stat().st_mtime, anchor_prefix, below)


@functools.lru_cache(maxsize=4)
def _rendered_text(text: str) -> RenderedDoc:
    return render_markdown(text)


def bot_protocol_text() -> str:
    """docs/bot-protocol.md, then each game's section from its package (its spec's
    `protocol_doc`), in the order of the game ids."""
    parts = [(docs_dir() / DOCS["bot-protocol"]).read_text(encoding="utf-8")]
    for game_id in game_ids():
        doc = get_spec(game_id).protocol_doc
        if doc is not None:
            parts.append(doc.read_text(encoding="utf-8"))
    return "\n".join(parts)


def doc_render(slug: str) -> RenderedDoc | None:
    """A document by slug, rendered (cached while its text is the same); None if unknown."""
    file_name = DOCS.get(slug)
    if file_name is None:
        return None
    if slug == "bot-protocol":
        return _rendered_text(bot_protocol_text())
    return file_render(docs_dir() / file_name)


def example_source(name: str) -> str | None:
    for path in example_files():
        if path.name == name:
            return path.read_text(encoding="utf-8")
    return None


def starter_kit_files() -> list[tuple[str, bytes]]:
    """(path inside the zip, content) of every file of the starter kit."""
    examples = example_files()
    files = [(f"{STARTER_KIT_FOLDER}/README.md", STARTER_KIT_README.read_bytes())]
    main = next((path for path in examples if path.name == "random_bot.py"), None)
    if main is not None:
        files.append((f"{STARTER_KIT_FOLDER}/main.py", main.read_bytes()))
    files += [(f"{STARTER_KIT_FOLDER}/examples/{p.name}", p.read_bytes()) for p in examples]
    protocol = bot_protocol_text().encode()
    files.append((f"{STARTER_KIT_FOLDER}/docs/bot-protocol.md", protocol))
    command_line = (docs_dir() / DOCS["command-line"]).read_bytes()
    files.append((f"{STARTER_KIT_FOLDER}/docs/command-line.md", command_line))
    for kit in (kit_sdist(), kit_wheel()):
        files.append((f"{STARTER_KIT_FOLDER}/{kit.filename}", kit.content))
    return files


def starter_kit_zip() -> bytes:
    """The starter kit of the files as they are now: built when one of them changed."""
    return _zipped(tuple(starter_kit_files()))


@functools.lru_cache(maxsize=2)
def _zipped(files: tuple[tuple[str, bytes], ...]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, content in files:
            info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, content)
    return buffer.getvalue()
