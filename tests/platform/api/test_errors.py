"""Every error of the API is JSON: {"error": "<a sentence>", "detail": <DRF's detail>}."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tests.platform.conftest import MakeBot

pytestmark = pytest.mark.django_db


def test_a_missing_page_is_json(anonymous: APIClient) -> None:
    response = anonymous.get("/api/bots/?page=7")

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"error": "Invalid page.", "detail": {"detail": "Invalid page."}}


def test_a_field_error_names_the_field(anonymous: APIClient) -> None:
    response = anonymous.post("/api/auth/register/", {"password": "x" * 10}, format="json")

    assert response.json() == {
        "error": "username: This field is required.",
        "detail": {"username": ["This field is required."]},
    }


def test_a_method_the_endpoint_does_not_have_is_405(
    alice_client: APIClient, make_bot: MakeBot, alice: User
) -> None:
    bot = make_bot(alice, "mine")

    response = alice_client.put(f"/api/bots/{bot.id}/", {}, format="json")

    assert response.status_code == 405
    assert response.json()["error"] == 'Method "PUT" not allowed.'


def test_a_json_body_where_a_form_is_expected_is_415(alice_client: APIClient) -> None:
    response = alice_client.post("/api/bots/", {"name": "x"}, format="json")

    assert response.status_code == 415
    assert response.json()["error"] == 'Unsupported media type "application/json" in request.'


def test_every_operation_that_reads_a_body_declares_its_415(anonymous: APIClient) -> None:
    paths = anonymous.get("/api/schema/?format=json").json()["paths"]
    with_body = [
        (path, method, operation)
        for path, operations in paths.items()
        for method, operation in operations.items()
        if "requestBody" in operation
    ]
    assert ("/api/bots/", "post") in {(path, method) for path, method, _ in with_body}
    assert all("415" in operation["responses"] for _, _, operation in with_body)


def test_a_body_of_no_media_type_is_415_as_the_schema_says(alice_client: APIClient) -> None:
    response = alice_client.generic("POST", "/api/bots/", "--x\r\n:\r\n--x--", content_type="")

    assert response.status_code == 415
    assert response.json()["error"] == 'Unsupported media type "" in request.'


def test_malformed_json_is_400(alice_client: APIClient) -> None:
    response = alice_client.post(
        "/api/challenges/", data=b"{not json", content_type="application/json"
    )

    assert response.status_code == 400
    assert response.json()["error"].startswith("JSON parse error")


def test_an_unknown_url_under_the_api_is_404(anonymous: APIClient) -> None:
    assert anonymous.get("/api/nothing-here/").status_code == 404


@pytest.mark.parametrize(
    ("query", "error"),
    [
        ("page=0", "page: a whole number from 1, not '0'"),
        ("page=last", "page: a whole number from 1, not 'last'"),
        ("page_size=null", "page_size: a whole number from 1 to 200, not 'null'"),
        ("page_size=201", "page_size: a whole number from 1 to 200, not '201'"),
        ("page_size=0", "page_size: a whole number from 1 to 200, not '0'"),
    ],
)
def test_a_malformed_page_is_400_as_the_schema_says(
    anonymous: APIClient, query: str, error: str
) -> None:
    response = anonymous.get(f"/api/bots/?{query}")

    assert response.status_code == 400
    assert response.json()["error"] == error


def test_an_empty_filter_is_checked_not_ignored(anonymous: APIClient) -> None:
    response = anonymous.get("/api/matches/?status=")

    assert response.status_code == 400
    assert response.json()["error"] == 'status: "" is not a valid choice.'


def test_the_schema_bounds_the_pagination_parameters(anonymous: APIClient) -> None:
    operation = anonymous.get("/api/schema/?format=json").json()["paths"]["/api/games/"]["get"]

    parameters = {p["name"]: p["schema"] for p in operation["parameters"]}
    assert parameters["page"] == {"type": "integer", "minimum": 1}
    assert parameters["page_size"] == {"type": "integer", "minimum": 1, "maximum": 200}
    assert {"400", "404"} <= set(operation["responses"])
