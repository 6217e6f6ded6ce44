"""Checks run inside the pages: accessibility basics, layout, and the Akropolis board as
the viewer drew it."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

A11Y_SCRIPT = """
() => {
  const problems = [];
  const visible = (el) => !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length)
    && getComputedStyle(el).visibility !== "hidden";
  const describe = (el) => `${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""}`
    + `${el.className && typeof el.className === "string" ? "." + el.className.split(" ")[0] : ""}`
    + ` "${(el.textContent || "").trim().slice(0, 40)}"`;
  // Form controls need a label (a <label for>, a wrapping label or aria-label).
  for (const el of document.querySelectorAll("input, select, textarea")) {
    if (el.type === "hidden" || !visible(el)) continue;
    const named = (el.labels && el.labels.length) || el.getAttribute("aria-label")
      || el.getAttribute("aria-labelledby");
    if (!named) problems.push(`control without a label: ${describe(el)}`);
  }
  // Images need alternative text; drawings with role=img need a name.
  for (const el of document.querySelectorAll("img")) {
    if (!el.hasAttribute("alt")) problems.push(`image without alt: ${el.src}`);
  }
  for (const el of document.querySelectorAll("svg[role=img]")) {
    if (!el.getAttribute("aria-label") && !el.getAttribute("aria-labelledby"))
      problems.push(`svg image without a name: ${describe(el)}`);
  }
  // Buttons and links need a name.
  for (const el of document.querySelectorAll("button, a[href]")) {
    if (!visible(el)) continue;
    const name = (el.getAttribute("aria-label") || el.textContent || "").trim();
    if (!name) problems.push(`button or link without a name: ${describe(el)}`);
  }
  // Text contrast (WCAG AA): 4.5:1, or 3:1 for large text.
  const rgba = (text) => {
    const m = text.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return [0, 0, 0, 0];
    const parts = m[1].split(",").map((p) => parseFloat(p));
    return [parts[0], parts[1], parts[2], parts.length > 3 ? parts[3] : 1];
  };
  const luminance = ([r, g, b]) => {
    const c = [r, g, b].map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  };
  const background = (el) => {
    for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
      const color = rgba(getComputedStyle(node).backgroundColor);
      if (color[3] > 0.5) return color;
    }
    return [255, 255, 255, 1];
  };
  let checked = 0;
  for (const el of document.body.querySelectorAll("*")) {
    if (el.closest("svg") || !visible(el)) continue;
    const own = Array.from(el.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const style = getComputedStyle(el);
    if (style.clip === "rect(0px, 0px, 0px, 0px)") continue;
    const fg = rgba(style.color);
    const bg = background(el);
    const [l1, l2] = [luminance(fg), luminance(bg)].sort((a, b) => b - a);
    const ratio = (l1 + 0.05) / (l2 + 0.05);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    checked += 1;
    if (ratio < (large ? 3 : 4.5)) problems.push(`contrast ${ratio.toFixed(2)}: ${describe(el)}`);
  }
  return { problems, checked };
}
"""


def accessibility_problems(page: Page) -> list[str]:
    result: dict[str, Any] = page.evaluate(A11Y_SCRIPT)
    assert result["checked"] > 5, "the contrast check found text to check"
    problems: list[str] = result["problems"]
    return problems


def horizontal_overflow(page: Page) -> int:
    """How many pixels the page is wider than the window (0: it fits)."""
    width: int = page.evaluate(
        "Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"
        " - window.innerWidth"
    )
    return width


def akropolis_cities(page: Page) -> list[dict[tuple[int, int], tuple[int, str]]]:
    """Each city as drawn: (q, r) -> (level, code) of every hex."""
    drawn: list[list[list[Any]]] = page.evaluate(
        """() => Array.from(document.querySelectorAll("svg.board-svg[data-seat]"), (city) =>
             Array.from(city.querySelectorAll("g.hex"), (hex) =>
               [Number(hex.dataset.q), Number(hex.dataset.r), Number(hex.dataset.level),
                hex.dataset.code]))"""
    )
    return [{(q, r): (level, code) for q, r, level, code in city} for city in drawn]


def shown_scores(page: Page) -> list[int]:
    texts: list[str] = page.locator("[data-score-seat]").all_inner_texts()
    return [int(text) for text in texts]


def past_the_right_edge(page: Page, selector: str) -> list[str]:
    """The elements of `selector` whose box runs past the window's right edge."""
    found: list[str] = page.evaluate(
        """(selector) => Array.from(document.querySelectorAll(selector))
             .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5)
             .map((e) => `${e.tagName.toLowerCase()} "${e.textContent.trim().slice(0, 60)}"`)""",
        selector,
    )
    return found


def scrolling_sideways(page: Page, selector: str) -> list[str]:
    """The elements of `selector` whose content is wider than their box."""
    found: list[str] = page.evaluate(
        """(selector) => Array.from(document.querySelectorAll(selector))
             .filter((e) => e.scrollWidth > e.clientWidth + 1)
             .map((e) => `${e.tagName.toLowerCase()} "${e.textContent.trim().slice(0, 60)}"`
               + ` (${e.scrollWidth} px in ${e.clientWidth})`)""",
        selector,
    )
    return found


def on_more_than_one_line(page: Page, selector: str) -> list[str]:
    """The elements of `selector` whose text takes more than one line (counted from
    where its fragments sit, not from the element's box, which a flex row may stretch)."""
    found: list[str] = page.evaluate(
        """(selector) => Array.from(document.querySelectorAll(selector)).filter((e) => {
             const range = document.createRange();
             range.selectNodeContents(e);
             const rects = Array.from(range.getClientRects()).filter((r) => r.width > 0);
             const top = Math.min(...rects.map((r) => r.top));
             return rects.some((r) => r.top >= top + 0.75 * r.height);
           }).map((e) => e.textContent.trim().replace(/\\s+/g, " "))""",
        selector,
    )
    return found
