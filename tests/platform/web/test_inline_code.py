"""The `inline_code` filter: backticked spans shown as code, everything else escaped."""

from __future__ import annotations

from agon.web.templatetags.agon_web import inline_code


def test_backticked_spans_become_code() -> None:
    assert inline_code("the site (`/matches/<id>/`)") == (
        "the site (<code>/matches/&lt;id&gt;/</code>)"
    )


def test_markup_in_the_text_is_escaped_inside_and_outside_the_spans() -> None:
    shown = inline_code("<script>x</script> `<b>` ` unclosed")
    assert "<script>" not in shown and "<b>" not in shown
    assert shown == "&lt;script&gt;x&lt;/script&gt; <code>&lt;b&gt;</code> ` unclosed"
