"""With the real production settings (SSL redirect, only the public host allowed, the
request log first): a load balancer or Prometheus reaching an instance by its address
over plain HTTP gets an answer, and the token guards the metrics."""

from __future__ import annotations

import json

import pytest
from django.conf import settings

from tests.deploy.support import production_environment, run_python
from tests.platform.pipeline import support as pipeline

pytestmark = pytest.mark.django_db

ASK = """\
import json, django
django.setup()
from django.test import Client
client, answers = Client(), {}
for name, path, headers in [
    ("healthz", "/healthz", {}),
    ("metrics", "/metrics", {}),
    ("metrics with token", "/metrics", {"HTTP_AUTHORIZATION": "Bearer scrape-me"}),
    ("api", "/api/", {}),
]:
    response = client.get(path, HTTP_HOST="10.0.3.17:8000", **headers)
    answers[name] = [response.status_code, response.content.decode()[:3000]]
answers["api by name"] = [client.get("/api/", HTTP_HOST="agon.example.org").status_code, ""]
print(json.dumps(answers))
"""


def test_an_instance_answers_by_its_address_under_production_settings() -> None:
    env = production_environment(
        AGON_DATABASE_URL=pipeline.test_database_url(),
        AGON_BROKER_URL=settings.CELERY_BROKER_URL,
        # A Redis of its own, as production wants; none answers there, and nothing here
        # needs the cache: the health checks, metrics and host checks answer without it.
        AGON_CACHE_URL="redis://127.0.0.1:8739/0",
        AGON_METRICS_TOKEN="scrape-me",  # noqa: S106 - a test value
    )
    done = run_python(["-c", ASK], env)
    assert done.returncode == 0, done.stderr
    answers = json.loads(done.stdout.strip().splitlines()[-1])
    status, body = answers["healthz"]
    assert status == 200, body
    assert json.loads(body)["status"] == "ok"
    assert answers["metrics"][0] == 401
    status, body = answers["metrics with token"]
    assert status == 200
    assert "agon_matches_queued" in body
    assert answers["api"][0] == 400, "other pages keep the host check"
    assert answers["api by name"][0] == 301, "and the redirect to HTTPS"
