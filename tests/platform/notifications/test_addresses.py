"""Webhook URLs are user input the workers fetch: only http(s), no credentials, and no
address that is not on the public Internet (SSRF), checked when saved and at each send."""

from __future__ import annotations

import socket
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from pytest_django import Settings

from agon.notifications.addresses import BlockedAddress, resolve, target_of, webhook_url_check
from agon.notifications.outbound import SendError, post


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("ftp://example.org/hook", "only http:// and https://"),
        ("file:///etc/passwd", "only http:// and https://"),
        ("gopher://example.org:6379/_FLUSHALL", "only http:// and https://"),
        ("https:///nohost", "names no host"),
        ("https://user:secret@example.org/hook", "user name or password"),
        ("https://example.org/a b", "spaces or control characters"),
        ("http://127.0.0.1:6379/", "127.0.0.1 is not a public address"),
        ("http://169.254.169.254/latest/meta-data/", "is not a public address"),
        ("http://10.1.2.3/", "is not a public address"),
        ("http://192.168.0.1/", "is not a public address"),
        ("http://100.64.0.1/", "is not a public address"),
        ("http://[::1]:8000/", "::1 is not a public address"),
        ("http://[::ffff:127.0.0.1]/", "is not a public address"),
        ("http://[fd00::1]/", "is not a public address"),
        ("http://0.0.0.0/", "is not a public address"),
        ("http://localhost:5432/", "localhost is a local name"),
        ("http://db.internal/", "is a local name"),
        ("https://example.org:99999/", "not a URL"),
        ("https://example.org/" + "a" * 500, "longer than 500"),
    ],
)
def test_it_refuses_urls_that_are_not_public_http(url: str, why: str) -> None:
    with pytest.raises(ValidationError, match=why.replace("(", r"\(")) as refused:
        webhook_url_check(url)
    assert refused.value.messages


@pytest.mark.parametrize(
    "url",
    [
        "https://discord.com/api/webhooks/123/abc",
        "https://hooks.slack.com/services/T0/B0/xyz",
        "http://93.184.215.14:8080/hook?x=1",  # a literal public address
        "https://[2606:4700::1111]/hook",
    ],
)
def test_it_takes_public_http_urls(url: str) -> None:
    assert webhook_url_check(url) == url


def test_the_request_line_keeps_the_path_and_query() -> None:
    target = target_of("https://example.org:8443/a/b?c=d")
    assert (target.scheme, target.host, target.port, target.path) == (
        "https",
        "example.org",
        8443,
        "/a/b?c=d",
    )


def resolving_to(monkeypatch: pytest.MonkeyPatch, *addresses: str) -> None:
    def getaddrinfo(host: str, port: int, *args: Any, **kwargs: Any) -> list[Any]:
        return [
            (socket.AF_INET6 if ":" in a else socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port))
            for a in addresses
        ]

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)


def test_a_name_with_one_private_address_among_public_ones_is_refused_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    resolving_to(monkeypatch, "93.184.215.14", "10.0.0.7")
    with pytest.raises(BlockedAddress, match=r"resolves to 10\.0\.0\.7, not a public address"):
        resolve(target_of("https://rebinding.example/hook"))
    resolving_to(monkeypatch, "93.184.215.14")
    assert [str(a) for a in resolve(target_of("https://fine.example/hook"))] == ["93.184.215.14"]


def test_a_name_that_turned_private_after_it_was_saved_is_refused_at_the_send(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url = "https://rebinding.example/hook"
    assert webhook_url_check(url) == url  # a name: its addresses are judged at the send
    resolving_to(monkeypatch, "169.254.169.254")
    with pytest.raises(SendError, match=r"169\.254\.169\.254, not a public address"):
        post(url, b"{}", {}, timeout=1.0, max_response_bytes=10)


def test_the_tests_setting_lets_local_addresses_through(settings: Settings) -> None:
    settings.AGON_WEBHOOKS_ALLOW_PRIVATE = True
    assert webhook_url_check("http://127.0.0.1:8123/hook") == "http://127.0.0.1:8123/hook"
    assert [str(a) for a in resolve(target_of("http://127.0.0.1:8123/hook"))] == ["127.0.0.1"]
