"""Production settings: Django's deployment checks pass, a missing or bad value stops the
process at start, and static files are collected into a manifest whitenoise serves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.test import Client
from pytest_django import Settings

from agon.ladders.services import ladder_ensure_defaults
from tests.deploy.support import manage, production_environment, run_python


def test_it_passes_djangos_deployment_checks_with_no_warning() -> None:
    checked = manage(["check", "--deploy", "--fail-level", "DEBUG"], production_environment())

    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "System check identified no issues (0 silenced)." in checked.stdout


def test_a_deployment_warning_fails_the_check() -> None:
    """The check above would notice a weakened setting: HSTS turned off."""
    checked = manage(
        ["check", "--deploy", "--fail-level", "DEBUG"],
        production_environment(AGON_HSTS_SECONDS="0"),
    )

    assert checked.returncode != 0
    assert "security.W004" in checked.stderr + checked.stdout


@pytest.mark.parametrize(
    ("overrides", "complaint"),
    [
        ({"AGON_SECRET_KEY": ""}, "AGON_SECRET_KEY must be set"),
        ({"AGON_SECRET_KEY": "short"}, "AGON_SECRET_KEY must be a long random string"),
        ({"AGON_SECRET_KEY": "django-insecure-" + "x1" * 30}, "AGON_SECRET_KEY must be a long"),
        ({"AGON_DEBUG": "true"}, "AGON_DEBUG cannot be on in production"),
        ({"AGON_DEBUG": "maybe"}, "AGON_DEBUG must be true or false"),
        ({"AGON_ALLOWED_HOSTS": ""}, "AGON_ALLOWED_HOSTS must name"),
        ({"AGON_CSRF_TRUSTED_ORIGINS": "agon.example.org"}, "AGON_CSRF_TRUSTED_ORIGINS"),
        ({"AGON_DATABASE_URL": ""}, "AGON_DATABASE_URL must be set"),
        ({"AGON_DATABASE_URL": "sqlite:///agon.sqlite3"}, "must name a PostgreSQL database"),
        ({"AGON_DATABASE_CONN_MAX_AGE": "a minute"}, "AGON_DATABASE_CONN_MAX_AGE must be an"),
        ({"AGON_BROKER_URL": ""}, "AGON_BROKER_URL must be set"),
        ({"AGON_CACHE_URL": ""}, "AGON_CACHE_URL must be set"),
        ({"AGON_CACHE_URL": "redis://redis:6379/1"}, "AGON_CACHE_URL must name a Redis server"),
        ({"AGON_CACHE_URL": "redis://:pw@redis/2"}, "not the broker's (AGON_BROKER_URL)"),
        ({"AGON_SANDBOX": "chroot"}, "AGON_SANDBOX must be one of"),
        ({"AGON_SSL_REDIRECT": "sometimes"}, "AGON_SSL_REDIRECT must be true or false"),
        ({"AGON_HSTS_SECONDS": "1y"}, "AGON_HSTS_SECONDS must be an integer"),
        ({"AGON_LOG_FORMAT": "xml"}, "AGON_LOG_FORMAT must be one of plain, json"),
        ({"AGON_LOG_LEVEL": "LOUD"}, "AGON_LOG_LEVEL must be one of"),
        ({"AGON_UPLOAD_RATE": "30 an hour"}, "AGON_UPLOAD_RATE: a rate is like 20/hour"),
        ({"AGON_SIGNUP_RATE": "0/hour"}, "AGON_SIGNUP_RATE: a rate is like"),
        ({"AGON_PROXY_COUNT": "one"}, "AGON_PROXY_COUNT must be an integer"),
        ({"AGON_MATCH_STALE_SECONDS": "5"}, "AGON_MATCH_STALE_SECONDS must be at least three"),
        ({"AGON_MATCH_HEARTBEAT_SECONDS": "often"}, "AGON_MATCH_HEARTBEAT_SECONDS must be a"),
        ({"AGON_S3_BUCKET": "b", "AGON_S3_ENDPOINT_URL": "minio:9000"}, "AGON_S3_ENDPOINT_URL"),
        ({"AGON_S3_BUCKET": "b", "AGON_S3_SECRET_ACCESS_KEY": "s"}, "go together"),
        ({"AGON_S3_BUCKET": "b", "AGON_S3_ADDRESSING_STYLE": "dns"}, "AGON_S3_ADDRESSING_STYLE"),
    ],
)
def test_it_refuses_to_start_with_a_missing_or_bad_value(
    overrides: dict[str, str], complaint: str
) -> None:
    started = run_python(
        ["-c", "import django; django.setup()"], production_environment(**overrides)
    )

    assert started.returncode != 0
    assert "EnvError" in started.stderr
    assert complaint in started.stderr


def shown_settings(env: dict[str, str]) -> dict[str, object]:
    shown = run_python(
        [
            "-c",
            "import json; from django.conf import settings as s; print(json.dumps({"
            "'storages': s.STORAGES, 'log_format': s.AGON_LOG_FORMAT, 'debug': s.DEBUG, "
            "'sandbox': s.AGON_SANDBOX, 'middleware': s.MIDDLEWARE, 'caches': s.CACHES, "
            "'limits_redis': s.AGON_RATE_LIMIT_REDIS_URL}))",
        ],
        env,
    )
    assert shown.returncode == 0, shown.stderr
    loaded: dict[str, object] = json.loads(shown.stdout)
    return loaded


def test_it_defaults_to_json_logs_docker_boxes_and_hashed_static_files() -> None:
    shown = shown_settings(production_environment())

    assert shown["log_format"] == "json"
    assert shown["debug"] is False
    assert shown["sandbox"] == "docker"
    assert shown["storages"] == {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
    middleware = shown["middleware"]
    assert isinstance(middleware, list)
    assert middleware[0] == "agon.logs.RequestLogMiddleware"


def test_it_caches_in_its_own_redis_and_counts_rate_limits_in_the_brokers() -> None:
    """The cache's Redis is capped and evicts (deploy/compose.yaml); a rate limit's counter
    evicted there would open its limit again, so they count in the broker's."""
    shown = shown_settings(production_environment())

    assert shown["caches"] == {
        "default": {
            "BACKEND": "agon.redis_cache.SharedClientRedisCache",
            "LOCATION": "redis://cache:6379/0",
            "KEY_PREFIX": "agon",
        },
        "timelines": {
            "BACKEND": "agon.redis_cache.SharedClientRedisCache",
            "LOCATION": "redis://cache:6379/0",
            "KEY_PREFIX": "agon-timelines",
        },
    }
    assert shown["limits_redis"] == "redis://redis:6379/0"


def test_it_keeps_files_in_the_named_bucket() -> None:
    shown = shown_settings(
        production_environment(
            AGON_S3_BUCKET="agon-media",
            AGON_S3_ENDPOINT_URL="https://s3.example.org",
            AGON_S3_ACCESS_KEY_ID="key-id",
            AGON_S3_SECRET_ACCESS_KEY="key-secret",  # noqa: S106 - made up
            AGON_S3_REGION="eu-west-1",
            AGON_S3_PREFIX="/agon/",
            AGON_S3_ADDRESSING_STYLE="path",
        )
    )

    storages = shown["storages"]
    assert isinstance(storages, dict)
    default = storages["default"]
    assert default["BACKEND"] == "storages.backends.s3.S3Storage"
    assert {
        key: default["OPTIONS"][key]
        for key in (
            "bucket_name",
            "endpoint_url",
            "access_key",
            "secret_key",
            "region_name",
            "location",
            "addressing_style",
            "file_overwrite",
        )
    } == {
        "bucket_name": "agon-media",
        "endpoint_url": "https://s3.example.org",
        "access_key": "key-id",
        "secret_key": "key-secret",
        "region_name": "eu-west-1",
        "location": "agon",
        "addressing_style": "path",
        "file_overwrite": False,
    }


@pytest.mark.django_db
def test_collectstatic_writes_a_manifest_whose_hashed_files_whitenoise_serves(
    tmp_path: Path, settings: Settings
) -> None:
    var = tmp_path / "var"
    collected = manage(
        ["collectstatic", "--noinput", "--verbosity", "1"],
        production_environment(AGON_VAR_DIR=str(var)),
    )
    assert collected.returncode == 0, collected.stdout + collected.stderr
    static_root = var / "static"
    manifest = json.loads((static_root / "staticfiles.json").read_text())
    hashed_css = manifest["paths"]["web/agon.css"]
    assert hashed_css != "web/agon.css", "the name carries the content's hash"
    assert (static_root / hashed_css).is_file()
    assert (static_root / f"{hashed_css}.gz").is_file(), "compressed beside it"

    # A page of the site, as production renders and serves it (DEBUG off, no finders).
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
    settings.STATIC_ROOT = static_root
    settings.WHITENOISE_USE_FINDERS = False
    settings.WHITENOISE_AUTOREFRESH = False
    settings.DEBUG = False
    ladder_ensure_defaults()
    client = Client()
    page = client.get("/")
    assert page.status_code == 200
    assert f'href="/static/{hashed_css}"' in page.content.decode()
    docs = client.get("/api/docs/")
    assert docs.status_code == 200, "the API docs' own assets are in the manifest"
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/" in docs.content.decode()

    served = client.get(f"/static/{hashed_css}", headers={"accept-encoding": "gzip"})
    assert served.status_code == 200
    assert served["Content-Encoding"] == "gzip"
    assert "immutable" in served["Cache-Control"], "a hashed name may be cached forever"
