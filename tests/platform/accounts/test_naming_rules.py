"""Names that read as another's are refused: usernames are ASCII letters, digits, _ and -;
bot names hold no control, format or bidi character, no @ nor /; and a new name is
refused when it looks like one taken (UTS #39 skeletons, case aside), on the API and on
the pages' forms alike. Names taken before the rules stay, and `check_names` lists them."""

from __future__ import annotations

import html
import io

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from agon.accounts.names import lookalike_of, skeleton
from agon.bots.models import Bot
from tests.platform.conftest import PASSWORD, MakeBot
from tests.platform.support import py_upload

CYRILLIC_O = "\u043e"
CYRILLIC_A = "\u0430"
RIGHT_TO_LEFT_OVERRIDE = "\u202e"


@pytest.mark.parametrize(
    ("taken", "new"),
    [
        ("bob", f"b{CYRILLIC_O}b"),
        ("alice", "AIice"),  # a capital i for the l
        ("alice", "ALICE"),
        ("paypal", f"p{CYRILLIC_A}yp{CYRILLIC_A}l"),
        ("modern", "rnodern"),
        ("bob0", "BOBO"),
        ("hoplite", "H0PLITE"),
    ],
)
def test_names_that_read_alike_share_a_skeleton_case_aside(taken: str, new: str) -> None:
    assert lookalike_of(new, [taken]) == taken


@pytest.mark.parametrize(("taken", "new"), [("ian", "lan"), ("dave", "dane"), ("bot", "bot-2")])
def test_names_that_read_differently_do_not(taken: str, new: str) -> None:
    assert lookalike_of(new, [taken]) is None
    assert skeleton(taken) != skeleton(new)


def register(username: str) -> tuple[int, str]:
    response = APIClient().post(
        "/api/auth/register/", {"username": username, "password": PASSWORD}, format="json"
    )
    return response.status_code, response.json().get("error", "")


@pytest.mark.django_db
def test_the_api_refuses_a_username_that_reads_as_another_users(bob: User) -> None:
    assert register("B0B") == (
        400,
        "the username 'B0B' looks too much like 'bob', another user's; choose another",
    )
    assert register(f"b{CYRILLIC_O}b")[0] == 400
    assert register("bobby")[0] == 201


@pytest.mark.django_db
@pytest.mark.parametrize("username", [f"b{CYRILLIC_O}bby", "bob@home", "x", "zoë", "_bob"])
def test_the_api_keeps_usernames_to_ascii_letters_digits_and_dashes(username: str) -> None:
    status, error = register(username)
    assert status == 400
    assert error.startswith("a username is 2 to 30 characters: ASCII letters, digits, _ and -")


@pytest.mark.django_db
def test_the_api_normalises_a_username_and_refuses_the_house_accounts_look_alikes() -> None:
    assert register("\uff43\uff41\uff52\uff4f\uff4c") == (201, "")  # full-width "carol"
    assert User.objects.filter(username="carol").exists()
    assert register("Agon-Examp1es") == (
        400,
        "the username 'Agon-Examp1es' is reserved; choose another",
    )


@pytest.mark.django_db
def test_the_sign_up_form_says_why_a_username_is_refused(bob: User) -> None:
    response = Client().post(
        reverse("web:signup"),
        {"username": "B0B", "password1": PASSWORD, "password2": PASSWORD},
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "looks too much like &#x27;bob&#x27;, another user&#x27;s; choose another." in page
    assert User.objects.count() == 1


def create_bot(client: APIClient, name: str) -> tuple[int, str]:
    response = client.post(
        "/api/bots/",
        {"name": name, "game": "akropolis", "file": py_upload()},
        format="multipart",
    )
    return response.status_code, response.json().get("error", "")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "error"),
    [
        (
            f"evil{RIGHT_TO_LEFT_OVERRIDE}tob",
            "a bot's name may not hold control or formatting characters (such as the "
            "direction marks that turn text around): U+202E",
        ),
        ("line\u2028break", "a bot's name may not hold control or formatting"),
        ("zero\u200bwidth", "a bot's name may not hold control or formatting"),
        ("alice/greedy", "a bot's name may not hold @ or /"),
        ("greedy@v9", "a bot's name may not hold @ or /"),
    ],
)
def test_the_api_refuses_bot_names_with_hidden_characters_at_or_slash(
    alice_client: APIClient, ladders: object, name: str, error: str
) -> None:
    status, said = create_bot(alice_client, name)
    assert status == 400
    assert said.startswith(error)
    assert not Bot.objects.exists()


@pytest.mark.django_db
def test_the_api_refuses_a_bot_name_that_reads_as_another_of_the_owners(
    alice_client: APIClient, bob_client: APIClient, alice: User, make_bot: MakeBot
) -> None:
    make_bot(alice, "hoplite")
    assert create_bot(alice_client, f"h{CYRILLIC_O}plite") == (
        400,
        f"the name 'h{CYRILLIC_O}plite' looks too much like that of your bot 'hoplite'; "
        "choose another",
    )
    assert create_bot(bob_client, "hoplite")[0] == 201, "another owner's label differs"
    assert create_bot(alice_client, "\uff48\uff4f\uff50\uff4c\uff49\uff54\uff45-2")[0] == 201
    assert Bot.objects.filter(owner=alice, name="hoplite-2").exists(), "kept in NFKC"


@pytest.mark.django_db
def test_the_bot_form_says_why_a_name_is_refused(
    alice: User, make_bot: MakeBot, client: Client
) -> None:
    make_bot(alice, "hoplite")
    client.force_login(alice)
    page = client.post(
        reverse("web:my-bots"),
        {"name": "H0PLITE", "game": "akropolis", "file": py_upload()},
    ).content.decode()
    assert "The name &#x27;H0PLITE&#x27; looks too much like that of your bot" in page
    page = client.post(
        reverse("web:my-bots"),
        {"name": f"a{RIGHT_TO_LEFT_OVERRIDE}b", "game": "akropolis", "file": py_upload()},
    ).content.decode()
    assert "A bot&#x27;s name may not hold control or formatting characters" in page
    assert Bot.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    "name",
    ["hoplite", "H0PLITE", f"h{CYRILLIC_O}plite", "a/b", "v@9", "zero\u200bwidth", " "],
)
def test_the_upload_form_and_the_api_refuse_a_bot_name_for_the_same_reasons(
    alice: User, alice_client: APIClient, make_bot: MakeBot, client: Client, name: str
) -> None:
    make_bot(alice, "hoplite")
    client.force_login(alice)
    status, said = create_bot(alice_client, name)
    page = client.post(
        reverse("web:my-bots"), {"name": name, "game": "akropolis", "file": py_upload()}
    ).content.decode()

    assert status == 400
    shown = html.unescape(page)
    if name.strip():
        assert f"{said[:1].upper()}{said[1:]}" in shown
    else:  # an empty name: the fields' own refusal, on each side
        assert said == "name: This field may not be blank." and "This field is required." in shown
    if name == "hoplite":  # the page adds what to do instead
        assert "You already have a bot called 'hoplite': upload a new version on its page." in shown
    assert Bot.objects.count() == 1


@pytest.mark.django_db
def test_names_taken_before_the_rules_stay_and_check_names_lists_them(alice: User) -> None:
    old = User.objects.create_user(f"al{CYRILLIC_O}ha", password=PASSWORD)
    User.objects.create_user("mail@example.org")
    Bot.objects.create(owner=old, name="greedy/v2", game="akropolis")
    Bot.objects.create(owner=alice, name="athena", game="akropolis")
    Bot.objects.create(owner=alice, name="ATHENA", game="akropolis")

    out = io.StringIO()
    with pytest.raises(CommandError, match="4 name"):
        call_command("check_names", stdout=out)

    assert out.getvalue().splitlines() == [
        f"user 'al{CYRILLIC_O}ha': a username is 2 to 30 characters: ASCII letters, digits, "
        "_ and -, starting with a letter or a digit",
        "user 'mail@example.org': a username is 2 to 30 characters: ASCII letters, digits, "
        "_ and -, starting with a letter or a digit",
        f"al{CYRILLIC_O}ha's bot 'greedy/v2': a bot's name may not hold @ or /: they separate "
        "a label's parts (owner/name@vN)",
        "alice's bot 'ATHENA': looks like 'athena', taken before",
    ]
    assert Client().login(username=f"al{CYRILLIC_O}ha", password=PASSWORD), "still signs in"
