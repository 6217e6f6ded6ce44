"""Settings shared by every environment. Each toggle reads one environment variable
through the helpers in `agon.env`; `local`, `production` and `test` adjust the rest."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import dj_database_url

from agon.env import (
    EnvError,
    env_bool,
    env_choice,
    env_float,
    env_int,
    env_list,
    env_rate,
    env_str,
)
from agon.filesystem_broker import FIFO_TRANSPORT
from agon.logs import LOG_FORMATS, LOG_LEVELS, logging_config
from agon.sandboxing import BACKENDS
from agon.storage import s3_storage_from_env
from agon_kit import viewer

REPO_DIR = Path(__file__).resolve().parents[3]
VAR_DIR = Path(env_str("AGON_VAR_DIR", str(REPO_DIR / "var")))
"""Local data of the embedded setup: database, broker folders, replays, uploads."""

SECRET_KEY = env_str("AGON_SECRET_KEY", "django-insecure-agon-dev-only-change-me")
DEBUG = env_bool("AGON_DEBUG", default=False)
ALLOWED_HOSTS = env_list("AGON_ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "agon.accounts",
    "agon.rate_limits",
    "agon.bots",
    "agon.ladders",
    "agon.matches",
    "agon.tournaments",
    "agon.version_testing",
    "agon.match_kinds",
    "agon.datasets",
    "agon.notifications",
    "agon.game_stats",
    "agon.analysis",
    "agon.competitions",
    "agon.ops",
    "agon.web",
]

MIDDLEWARE = [
    # Outermost: its headers (a Content-Security-Policy, ...) go on every response.
    "agon.security_headers.SecurityHeadersMiddleware",
    # Then: /healthz and /metrics answer before host validation and the SSL redirect
    # (load balancers and Prometheus address an instance by its IP, over plain HTTP).
    "agon.ops.middleware.OpsEndpointsMiddleware",
    "agon.ops.middleware.RequestMetricsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "agon.urls"
CSRF_FAILURE_VIEW = "agon.web.views.errors.csrf_failure"
WSGI_APPLICATION = "agon.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        # The replay viewer's panels (web/_viewer_*.html) are the kit's, which inlines them
        # into its offline pages: one copy (agon_kit.viewer).
        "DIRS": [viewer.TEMPLATES_DIR],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

RANDOM_PAGE_COST = env_float("AGON_DATABASE_RANDOM_PAGE_COST", 1.1)
"""PostgreSQL's planner cost of reading a page at random, against 1 for reading in order.
Its default (4) models spinning disks; for a database in memory or on SSD it makes the
planner hash a whole table to look up a page's few hundred rows in it by key (a page of
matches: every bot version hashed, 6.5 ms, against 1.6 ms by key on the bench)."""


DATABASE_PREPARED = env_bool("AGON_DATABASE_PREPARED", True)
"""Whether the busiest reads' statements (a bot's matches, a bot's detail: `agon.prepared`)
are prepared on the PostgreSQL server, once per connection, and then only bound and run:
PostgreSQL's planning was most of their cost (bench/README.md, "Fifth round"). Django
prepares nothing by default, for connection poolers in transaction mode (PgBouncer before
1.21) that do not follow prepared statements: behind one, set it to false."""


def database(url: str, **settings: Any) -> dict[str, Any]:
    """The database at `url` (dj-database-url's form), with RANDOM_PAGE_COST if PostgreSQL,
    and prepared statements allowed if DATABASE_PREPARED (Django's own statements are
    never prepared: its cursors bind their parameters in the client)."""
    config: dict[str, Any] = dict(dj_database_url.parse(url, **settings))
    if config["ENGINE"] == "django.db.backends.postgresql":
        options = config.setdefault("OPTIONS", {})
        options["options"] = f"-c random_page_cost={RANDOM_PAGE_COST}"
        if DATABASE_PREPARED:
            # psycopg's default; only `agon.prepared`'s cursors prepare (all they run).
            options["prepare_threshold"] = 5
    return config


def shared_sqlite_options() -> dict[str, Any]:
    """The options of a SQLite file that several processes share (`agon up`'s web server,
    worker and beat; the pipeline tests' workers): WAL lets readers and one writer work
    at once; IMMEDIATE transactions take the write lock when they begin, so a
    transaction that reads and then writes waits for the lock (up to the timeout)
    instead of failing with "database is locked" when another process wrote meanwhile."""
    return {
        "timeout": env_float("AGON_SQLITE_TIMEOUT", 30.0),
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }


DATABASES = {
    "default": database(
        env_str("AGON_DATABASE_URL", f"sqlite:///{VAR_DIR / 'agon.sqlite3'}"),
        conn_max_age=env_int("AGON_DATABASE_CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}

LOGIN_URL = "web:signin"
LOGIN_REDIRECT_URL = "web:my-bots"
LOGOUT_REDIRECT_URL = "web:home"

AUTH_PASSWORD_VALIDATORS = [
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": 8},
    },
]

# One cache for every web process: Redis when AGON_CACHE_URL is set, else this process's
# memory (what it holds, lists for a few seconds, may differ between processes). Either way
# it is bounded: production's Redis by its `maxmemory` with `allkeys-lru` (its own server,
# never the broker's: deploy/compose.yaml), the embedded one by a number of entries. The
# `timelines` cache holds the big entries (a match's timeline, what a seat saw) apart, so
# that they cannot push the small ones out.
AGON_CACHE_URL = env_str("AGON_CACHE_URL", "")
AGON_CACHE_KEY_PREFIX = env_str("AGON_CACHE_KEY_PREFIX", "agon")
"""Put before every key in Redis: sites sharing one Redis need one each."""
AGON_LOCAL_CACHE_ENTRIES = env_int("AGON_LOCAL_CACHE_ENTRIES", 300)
"""Without AGON_CACHE_URL: the entries this process keeps (lists, tournament pages)."""
AGON_LOCAL_TIMELINE_ENTRIES = env_int("AGON_LOCAL_TIMELINE_ENTRIES", 48)
"""Without AGON_CACHE_URL: the timeline entries this process keeps. The largest measured
is 132 KiB (bench/cache_flood.py: a seat of a long Megalopolis match for six), so about
6 MiB; 48 MiB if every entry were a MiB."""


def cache_setting(url: str, prefix: str, local_entries: int) -> dict[str, Any]:
    """Django's Redis cache at `url`, or, without one, its local memory cache holding at
    most `local_entries` entries (it drops the least recently used quarter when full)."""
    if url:
        return {
            "BACKEND": "agon.redis_cache.SharedClientRedisCache",
            "LOCATION": url,
            "KEY_PREFIX": prefix,
        }
    return {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": prefix,
        "OPTIONS": {"MAX_ENTRIES": local_entries, "CULL_FREQUENCY": 4},
    }


CACHES = {
    "default": cache_setting(AGON_CACHE_URL, AGON_CACHE_KEY_PREFIX, AGON_LOCAL_CACHE_ENTRIES),
    "timelines": cache_setting(
        AGON_CACHE_URL, f"{AGON_CACHE_KEY_PREFIX}-timelines", AGON_LOCAL_TIMELINE_ENTRIES
    ),
}
AGON_RATE_LIMIT_REDIS_URL = env_str("AGON_RATE_LIMIT_REDIS_URL", AGON_CACHE_URL)
"""Where the rate limits count in Redis (else in the database). Production counts in the
broker's Redis, which evicts nothing: in the capped cache, a flood of other entries could
push a counter out and open its limit again."""

# Rate limits, each `N/period` (20/hour, 5/15minute) or `off`; agon.rate_limits counts them.
# A refused request gets 429 with Retry-After (JSON under /api/, a message on the pages).
AGON_RATE_LIMITS = {
    # Sign-ups (API and page) per client address.
    "signup": env_rate("AGON_SIGNUP_RATE", "10/hour"),
    # Failed sign-ins (API token and page) per username, and per client address.
    "signin-username": env_rate("AGON_SIGNIN_FAILURE_RATE", "10/15minute"),
    "signin-address": env_rate("AGON_SIGNIN_ADDRESS_FAILURE_RATE", "30/15minute"),
    # Bot and version uploads (API and pages) per user.
    "upload": env_rate("AGON_UPLOAD_RATE", "30/hour"),
    # Challenges per user.
    "challenge": env_rate("AGON_CHALLENGE_RATE", "20/hour"),
    # Match timelines (the replay viewer's, 40 a minute while it follows a running match)
    # per user, or per client address when signed out: one computed costs up to 0.35 s.
    "timeline": env_rate("AGON_TIMELINE_RATE", "120/minute"),
    # Resuming a paused bot (it plays ranked matches again) per user.
    "resume": env_rate("AGON_RESUME_RATE", "10/hour"),
    # Downloads of dataset parts (each up to a few MiB, streamed by the web process) per
    # user, or per client address when signed out: a whole game's dataset of 200,000
    # matches is 200 parts, and a pull resumes where a refusal stopped it.
    "dataset": env_rate("AGON_DATASET_DOWNLOAD_RATE", "600/hour"),
    # Test notifications sent to a webhook at its owner's request, per user: each is a
    # POST to a URL of the user's choice.
    "webhook-test": env_rate("AGON_WEBHOOK_TEST_RATE", "10/hour"),
}
AGON_CHALLENGES_WAITING = env_int("AGON_CHALLENGES_WAITING", 3)
"""How many of a user's challenges may be queued or playing at once (API and site):
challenges go before ranked matches, so a user may not fill the workers with them."""
AGON_HUMAN_TURN_SECONDS = env_float("AGON_HUMAN_TURN_SECONDS", 300.0)
"""A human's clock for one move (a bot's is a second or two): a player idle this long
times out, a stand-in plays the rest of the seat's moves at once, and the game ends."""
AGON_HUMAN_GAME_SECONDS = env_float("AGON_HUMAN_GAME_SECONDS", 1800.0)
"""The longest a human game holds its worker's pool process: past it the human's next
turn times out the same way."""
AGON_HUMAN_GAMES_IN_FLIGHT = env_int("AGON_HUMAN_GAMES_IN_FLIGHT", 2)
"""How many human games may be queued or playing at once on the whole site: each holds
a match worker's pool process for as long as its human thinks. Size it to the workers:
with W workers of concurrency C, at most W x C pool processes; keep most for the bots."""
AGON_HUMAN_GAMES_PER_WORKER = env_int("AGON_HUMAN_GAMES_PER_WORKER", 1)
"""How many human games one match worker plays at once (agon.matches.human_slots):
a human game sent to a worker already playing this many waits in the queue, so the
worker keeps the rest of its pool processes for the bots. Keep it under the worker's
concurrency; workers sharing an AGON_WORK_DIR share this cap."""
AGON_HUMAN_GAMES_PER_DAY = env_int("AGON_HUMAN_GAMES_PER_DAY", 10)
"""How many human games a user may start in 24 hours."""
AGON_PROXY_COUNT = env_int("AGON_PROXY_COUNT", 0)
"""How many proxies in front add to X-Forwarded-For: the client address of the limits is
the one the outermost of them added (0: the address of the connection itself)."""

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATICFILES_DIRS = [viewer.STATIC_DIR]
"""The replay viewer and the site's stylesheet (web/viewer.js, web/agon.css, ...): the
kit's files, which its offline `view` inlines (agon_kit.viewer)."""
MEDIA_ROOT = VAR_DIR / "media"
MEDIA_URL = "media/"
STORAGES: dict[str, dict[str, Any]] = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
# Replays and bot archives go to an S3-compatible bucket when AGON_S3_BUCKET names one
# (agon.storage lists the other variables), else under MEDIA_ROOT.
AGON_S3_BUCKET = env_str("AGON_S3_BUCKET", "")
if AGON_S3_BUCKET:
    STORAGES["default"] = s3_storage_from_env()
DATA_UPLOAD_MAX_MEMORY_SIZE = 6 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 6 * 1024 * 1024

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PAGINATION_CLASS": "agon.api.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "agon.api_errors.json_exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Agon API",
    "DESCRIPTION": "Bots, ladders, matches and replays of the Agon bot competition platform.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Separate request and response components: uploads are then binary, not URIs.
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "agon.api.schema.declare_common_errors",
    ],
    "ENUM_NAME_OVERRIDES": {
        "VersionStatusEnum": "agon.bots.models.BotVersion.Status",
        "MatchStatusEnum": "agon.matches.models.Match.Status",
        "MatchKindEnum": "agon.matches.models.Match.Kind",
        "TournamentStatusEnum": "agon.tournaments.models.Tournament.Status",
        "TournamentFormatEnum": "competition.formats.registry.format_choices",
        "TournamentGameStatusEnum": "agon.tournaments.selectors.GAME_STATUSES",
        "VersionTestStatusEnum": "agon.version_testing.models.VersionTest.Status",
        "VerdictEnum": "agon.version_testing.models.VersionTest.Verdict",
        "BuiltinBotEnum": "engine.bots.BUILTIN_BOTS",
        "DeliveryStatusEnum": "agon.notifications.models.Delivery.Status",
        "WebhookStyleEnum": "agon.notifications.models.Webhook.Style",
    },
}


# --- Celery: queues, reliability --------------------------------------------------------
def filesystem_broker_options(folder: Path) -> dict[str, object]:
    """Transport options of kombu's file-system broker with its folders under `folder`
    (made here); settings.local says why each is so."""
    for name in ("queue", "processed", "control"):
        (folder / name).mkdir(parents=True, exist_ok=True)
    return {
        "data_folder_in": str(folder / "queue"),
        "data_folder_out": str(folder / "queue"),
        "processed_folder": str(folder / "processed"),
        "store_processed": True,
        "control_folder": str(folder / "control"),
        "polling_interval": env_float("AGON_BROKER_POLLING_SECONDS", 0.5),
    }


def broker_transport(url: str) -> str | None:
    """The transport for a broker URL: for the file-system broker, ours, first in, first
    out at any uptime (kombu's own is not, see agon.filesystem_broker); for any other,
    the one the URL names."""
    return FIFO_TRANSPORT if url.startswith("filesystem:") else None


QUEUES_IN_ORDER: dict[str, object] = {"queue_order_strategy": "priority"}
"""Redis: a worker takes from its queues in the order it names them, not in turns, so
AGON_PRIORITY_QUEUE, named first, goes first (agon.filesystem_broker does the same)."""
CELERY_BROKER_URL = env_str("AGON_BROKER_URL", "filesystem://")
CELERY_BROKER_TRANSPORT = broker_transport(CELERY_BROKER_URL)
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = dict(QUEUES_IN_ORDER)
AGON_BROKER_KEY_PREFIX = env_str("AGON_BROKER_KEY_PREFIX", "")
"""Put before every broker key in Redis (queues, unacknowledged messages): sites sharing
one Redis database need one each."""
if AGON_BROKER_KEY_PREFIX:
    CELERY_BROKER_TRANSPORT_OPTIONS["global_keyprefix"] = AGON_BROKER_KEY_PREFIX
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_DEFAULT_QUEUE = "default"
AGON_MATCH_QUEUE = env_str("AGON_MATCH_QUEUE", "matches")
"""The queue of ranked matches, which matchmaking keeps topped up."""
AGON_PRIORITY_QUEUE = env_str("AGON_PRIORITY_QUEUE", "matches-priority")
"""The queue of the matches someone is waiting for (a new version's validation, a
challenge): a match worker takes them before any ranked match."""
AGON_TOURNAMENT_QUEUE = env_str("AGON_TOURNAMENT_QUEUE", "matches-tournament")
"""The queue of public tournaments' games (staff's): after the matches someone waits
for, before everything else, so a round is not held up by the ladders."""
AGON_BACKGROUND_QUEUE = env_str("AGON_BACKGROUND_QUEUE", "matches-background")
"""The queue of the background share (agon.matches.background): private tournaments' and
version tests' games. Read before the ranked queue; the share's cap keeps it from taking
more than AGON_BACKGROUND_SHARE of the workers while the ladders have matches waiting."""
AGON_MATCH_QUEUE_BY_KIND = {
    "validation": AGON_PRIORITY_QUEUE,
    "challenge": AGON_PRIORITY_QUEUE,
    "tournament": AGON_TOURNAMENT_QUEUE,
    "ranked": AGON_MATCH_QUEUE,
    "version_test": AGON_BACKGROUND_QUEUE,
    "human": AGON_PRIORITY_QUEUE,
}
"""Each kind's queue; a match of the background share goes to AGON_BACKGROUND_QUEUE."""
AGON_MATCH_WORKER_QUEUES = list(
    dict.fromkeys(
        [AGON_PRIORITY_QUEUE, AGON_TOURNAMENT_QUEUE, AGON_BACKGROUND_QUEUE, AGON_MATCH_QUEUE]
    )
)
"""What a match worker consumes, first things first (`--queues`)."""
AGON_NOTIFICATION_QUEUE = env_str("AGON_NOTIFICATION_QUEUE", "notifications")
"""The queue of notifications' e-mails and webhooks (agon.notifications.delivery): a
receiver that is slow to answer holds up no match and no matchmaking round."""
AGON_ANALYSIS_QUEUE = env_str("AGON_ANALYSIS_QUEUE", "analysis")
"""The queue of the matches' analyses (agon.analysis): seconds of search each, which
hold up no match worker and no matchmaking round."""
AGON_WORKER_QUEUES = list(
    dict.fromkeys(
        [
            AGON_PRIORITY_QUEUE,
            CELERY_TASK_DEFAULT_QUEUE,
            AGON_NOTIFICATION_QUEUE,
            AGON_TOURNAMENT_QUEUE,
            AGON_BACKGROUND_QUEUE,
            AGON_ANALYSIS_QUEUE,
            AGON_MATCH_QUEUE,
        ]
    )
)
"""What a worker for everything consumes (`agon up`'s), in order: the matches someone
waits for, the short tasks (matchmaking, the sweep, tournament rounds), notifications'
deliveries, public tournaments' games, the background share (capped), the analyses
(capped by AGON_ANALYSIS_PER_DAY: after the ranked matches, which matchmaking keeps
coming, they would never be read), then the ranked matches."""
AGON_MATCH_SLOTS = env_int("AGON_MATCH_SLOTS", 2)
"""How many matches all the match workers play at once (their concurrency, summed):
the background share is a part of it. `agon up` sets it to its --concurrency."""
AGON_BACKGROUND_SHARE = env_float("AGON_BACKGROUND_SHARE", 0.5)
"""The part of AGON_MATCH_SLOTS (at least one slot) that private tournaments' and version
tests' games may hold while ranked matches wait; all of them while none does."""
CELERY_TASK_ROUTES = {
    "agon.matches.tasks.execute_queued_match": {"queue": AGON_MATCH_QUEUE},
    # Its name before it had its own (agon.matches.tasks): messages of older releases.
    "agon.matches.tasks.run_match": {"queue": AGON_MATCH_QUEUE},
    "agon.notifications.tasks.deliver": {"queue": AGON_NOTIFICATION_QUEUE},
    "agon.notifications.tasks.sweep": {"queue": AGON_NOTIFICATION_QUEUE},
    "agon.analysis.tasks.analysis_run": {"queue": AGON_ANALYSIS_QUEUE},
}
CELERY_TASK_SOFT_TIME_LIMIT = env_int("AGON_TASK_SOFT_TIME_LIMIT", 900)
CELERY_TASK_TIME_LIMIT = env_int("AGON_TASK_TIME_LIMIT", 960)
# Celery's Django support closes the database connections around every task unless
# told to reuse them, and a new PostgreSQL connection costs a task ~15 ms. They are kept;
# agon.celery applies Django's own rules between tasks instead (CONN_MAX_AGE, health
# checks), as the web server does between requests.
CELERY_DB_REUSE_MAX = env_int("AGON_CELERY_DB_REUSE_MAX", 1000)
AGON_DATASET_SECONDS = env_float("AGON_DATASET_SECONDS", 3600.0)
"""How often beat brings every game's dataset up to date (agon.datasets)."""
AGON_GAME_STATS_SECONDS = env_float("AGON_GAME_STATS_SECONDS", 60.0)
"""How often beat digests the ranked matches finished since (agon.game_stats)."""
AGON_ANALYSIS_SECONDS = env_float("AGON_ANALYSIS_SECONDS", 60.0)
"""How often beat sends the finished ranked and tournament matches to be analysed."""
AGON_COMPETITION_SECONDS = env_float("AGON_COMPETITION_SECONDS", 5.0)
"""How often beat moves the competitions on (agon.competitions.phases): a phase changes
at most this long after its date."""
CELERY_BEAT_SCHEDULE = {
    "matchmaking": {
        "task": "agon.ladders.tasks.matchmaking",
        "schedule": env_float("AGON_MATCHMAKING_SECONDS", 5.0),
    },
    "age-idle-ratings": {
        "task": "agon.ladders.tasks.age_ratings",
        "schedule": env_float("AGON_RATING_AGE_SECONDS", 3600.0),
    },
    "tournament-rounds": {
        "task": "agon.tournaments.tasks.tournaments_advance",
        "schedule": env_float("AGON_TOURNAMENT_SECONDS", 5.0),
        "options": {"expires": env_float("AGON_TOURNAMENT_SECONDS", 5.0)},
    },
    "background-dispatch": {
        "task": "agon.matches.tasks.background_dispatch",
        "schedule": env_float("AGON_TOURNAMENT_SECONDS", 5.0),
        "options": {"expires": env_float("AGON_TOURNAMENT_SECONDS", 5.0)},
    },
    # Competitions' phases changed when due (open, freeze, final, archive), each once.
    "competition-phases": {
        "task": "agon.competitions.tasks.competitions_advance",
        "schedule": AGON_COMPETITION_SECONDS,
        "options": {"expires": AGON_COMPETITION_SECONDS},
    },
    # Every game's dataset brought up to date (agon.datasets), a bounded step a run.
    "datasets": {
        "task": "agon.datasets.tasks.datasets_build",
        "schedule": AGON_DATASET_SECONDS,
        "options": {"expires": AGON_DATASET_SECONDS},
    },
    # Deliveries whose try is overdue (a lost message, a killed worker) sent again.
    "notifications-sweep": {
        "task": "agon.notifications.tasks.sweep",
        "schedule": env_float("AGON_NOTIFICATION_SWEEP_SECONDS", 60.0),
        "options": {"expires": env_float("AGON_NOTIFICATION_SWEEP_SECONDS", 60.0)},
    },
    # The ranked matches finished since digested for the statistics, a bounded step a run.
    "game-stats": {
        "task": "agon.game_stats.tasks.game_stats_digest",
        "schedule": AGON_GAME_STATS_SECONDS,
        "options": {"expires": AGON_GAME_STATS_SECONDS},
    },
    # The newest finished ranked and tournament matches analysed, within the day's budget.
    "analysis": {
        "task": "agon.analysis.tasks.analyses_schedule",
        "schedule": AGON_ANALYSIS_SECONDS,
        "options": {"expires": AGON_ANALYSIS_SECONDS},
    },
    # Often enough that a match whose whole worker died (its heartbeat stale after
    # AGON_MATCH_STALE_SECONDS) is queued again within about half a minute; an unread
    # sweep expires rather than piling up behind busy workers.
    "requeue-stuck-matches": {
        "task": "agon.matches.tasks.requeue_stuck_matches",
        "schedule": env_float("AGON_REQUEUE_SECONDS", 15.0),
        "options": {"expires": env_float("AGON_REQUEUE_SECONDS", 15.0)},
    },
}

# --- Agon ---------------------------------------------------------------------------------

# Notifications (agon.notifications): e-mails through Django's mail backend, the
# console's (the worker's output) unless AGON_EMAIL_HOST names an SMTP server.
AGON_SITE_URL = env_str("AGON_SITE_URL", "http://localhost:8000")
"""The site's address as people reach it: the links in e-mails and webhooks."""
AGON_EMAIL_HOST = env_str("AGON_EMAIL_HOST", "")
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend"
    if AGON_EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_HOST = AGON_EMAIL_HOST or "localhost"
EMAIL_PORT = env_int("AGON_EMAIL_PORT", 587)
EMAIL_HOST_USER = env_str("AGON_EMAIL_USER", "")
EMAIL_HOST_PASSWORD = env_str("AGON_EMAIL_PASSWORD", "")
EMAIL_USE_TLS = env_bool("AGON_EMAIL_USE_TLS", default=True)
EMAIL_TIMEOUT = env_int("AGON_EMAIL_TIMEOUT_SECONDS", 10)
DEFAULT_FROM_EMAIL = env_str("AGON_EMAIL_FROM", "Agon <agon@localhost>")
AGON_NOTIFICATION_MAX_ATTEMPTS = env_int("AGON_NOTIFICATION_MAX_ATTEMPTS", 8)
"""Tries of one e-mail or webhook delivery before it is given up..."""
AGON_NOTIFICATION_BACKOFF_SECONDS = env_float("AGON_NOTIFICATION_BACKOFF_SECONDS", 30.0)
"""...waiting this long after the first failure, twice as long after each next one
(30 s, 1 min, ..., 32 min: given up about an hour after the first try)."""
AGON_NOTIFICATION_SWEEP_SECONDS = env_float("AGON_NOTIFICATION_SWEEP_SECONDS", 60.0)
"""A delivery whose try is overdue by this long is sent to the queue again by beat."""
AGON_WEBHOOK_TIMEOUT_SECONDS = env_float("AGON_WEBHOOK_TIMEOUT_SECONDS", 10.0)
"""The whole exchange with a webhook's receiver, connection to last byte read."""
AGON_WEBHOOK_RESPONSE_BYTES = env_int("AGON_WEBHOOK_RESPONSE_BYTES", 64 * 1024)
"""The most of a receiver's answer that is read."""
AGON_WEBHOOKS_PER_USER = env_int("AGON_WEBHOOKS_PER_USER", 5)
AGON_WEBHOOKS_ALLOW_PRIVATE = env_bool("AGON_WEBHOOKS_ALLOW_PRIVATE", default=False)
"""Let webhooks reach loopback, private and link-local addresses: for tests and a
closed network only (docs/threat-model.md, "Webhooks")."""

AGON_DATASET_PART_MATCHES = env_int("AGON_DATASET_PART_MATCHES", 1000)
"""How many matches a dataset's Parquet part holds at most (agon.datasets)."""
AGON_DATASET_PARTS_PER_RUN = env_int("AGON_DATASET_PARTS_PER_RUN", 10)
"""How many parts per game one beat run writes at most; the next run goes on."""
AGON_DATASET_ROW_GROUP_BYTES = env_int("AGON_DATASET_ROW_GROUP_BYTES", 8 * 1024 * 1024)
"""How much text (observations, actions) a build holds before writing it as a row group:
what bounds its memory."""
AGON_DATASET_LICENCE = env_str(
    "AGON_DATASET_LICENCE",
    "Agon match data, under the Creative Commons Attribution 4.0 licence (CC BY 4.0): "
    "share and adapt it, naming the Agon site it came from.",
)
"""The licence line of every dataset's manifest and datasheet."""


def sandbox_setting(default: str) -> str:
    """AGON_SANDBOX, one of the sandbox's BACKENDS: any other value stops the process
    at start, as every settings module reads it through here (not each match later)."""
    return env_choice("AGON_SANDBOX", BACKENDS, default)


AGON_SANDBOX = sandbox_setting("auto")
"""Sandbox backend for uploaded bots: auto, docker or bwrap (none only if allowed below)."""
AGON_SANDBOX_FORK_SERVER = env_choice(
    "AGON_SANDBOX_FORK_SERVER",
    ("auto", "1", "0", "true", "false", "yes", "no", "on", "off"),
    "auto",
)
"""bwrap only: make each box by forking a pre-imported interpreter (the bwrap backend's
fork server) instead of starting bubblewrap and an interpreter per box: the same box,
at a fraction of the CPU (docs/threat-model.md, "The fork server"; bench/README.md).
`auto` (the default): where the machine supports it (probed at a process's first box;
bubblewrap otherwise, said in one log line and by `agon health --worker`); 1 demands it
(the sandbox fails with the reason where it cannot work); 0 never.
The backend reads the variable itself (`sandbox.backends.bwrap.FORK_SERVER_ENV`); read
here too, so that a bad value stops the process at start."""
AGON_ALLOW_UNSANDBOXED = env_bool("AGON_ALLOW_UNSANDBOXED", default=False)
"""Let uploaded bots run with the `none` backend: only for a trusted, single-user setup."""
AGON_MATCH_STUCK_SECONDS = env_int("AGON_MATCH_STUCK_SECONDS", 1200)
"""A match still `queued` whose task was last sent longer ago than this lost its message:
it is sent again."""
AGON_MATCH_HEARTBEAT_SECONDS = env_float("AGON_MATCH_HEARTBEAT_SECONDS", 2.0)
"""How often a run playing a match says it is alive (Match.heartbeat)."""
AGON_MATCH_STALE_SECONDS = env_float("AGON_MATCH_STALE_SECONDS", 10.0)
"""A match `running` whose heartbeat is older than this lost its run (a killed pool
process or worker): a task for it, or the sweep, takes it over."""
if AGON_MATCH_STALE_SECONDS < 3 * AGON_MATCH_HEARTBEAT_SECONDS:
    raise EnvError(
        "AGON_MATCH_STALE_SECONDS must be at least three heartbeats "
        f"(AGON_MATCH_HEARTBEAT_SECONDS = {AGON_MATCH_HEARTBEAT_SECONDS:g}), "
        f"not {AGON_MATCH_STALE_SECONDS:g}: a live run would be taken over"
    )
AGON_MATCH_MAX_ATTEMPTS = env_int("AGON_MATCH_MAX_ATTEMPTS", 3)
"""How many runs may claim a match; one that loses its worker that often ends `failed`."""
AGON_VERSION_TEST_GAMES_PER_DAY = env_int("AGON_VERSION_TEST_GAMES_PER_DAY", 2000)
"""Each user's budget of version-test games over any 24 hours: a test reserves its game
limit when it starts and gives back the games it did not need when it ends."""
AGON_VERSION_TEST_MAX_GAMES = env_int("AGON_VERSION_TEST_MAX_GAMES", 1000)
"""The highest game limit one version test may ask for."""
AGON_VERSION_TEST_PAIRS_IN_FLIGHT = env_int("AGON_VERSION_TEST_PAIRS_IN_FLIGHT", 2)
"""Pairs of games of one version test queued or playing at a time."""
AGON_VERSION_TEST_REPLAYS = env_int("AGON_VERSION_TEST_REPLAYS", 2)
"""How often a game of a version test that failed for the platform's reasons is played
again before the test stops as failed."""

AGON_GAME_STATS_MATCHES = env_int("AGON_GAME_STATS_MATCHES", 20_000)
"""How many of a game's latest ranked matches its statistics count at most (agon.game_stats)."""
AGON_GAME_STATS_CACHE_SECONDS = env_int("AGON_GAME_STATS_CACHE_SECONDS", 300)
"""How long a game's statistics are kept in the cache once made (0: made at each request)."""
AGON_GAME_STATS_DIGESTS_PER_RUN = env_int("AGON_GAME_STATS_DIGESTS_PER_RUN", 500)
"""How many ranked matches' replays one beat run reads for the statistics at most."""
AGON_ANALYSIS_LEVEL = env_choice("AGON_ANALYSIS_LEVEL", ("mcts-1", "mcts-2", "mcts-3"), "mcts-1")
"""The search level (engine.search.analysis.LEVELS) whose playouts judge every position
of an analysed match."""
AGON_ANALYSIS_PER_DAY = env_int("AGON_ANALYSIS_PER_DAY", 2000)
"""Analyses asked for over any 24 hours, by beat and by owners together: the queue's
daily bound (bench/README.md, "Match analysis": about 2 % of two cores at mcts-1)."""
AGON_ANALYSIS_PER_USER_PER_DAY = env_int("AGON_ANALYSIS_PER_USER_PER_DAY", 50)
"""Analyses one user may ask for over any 24 hours (of their bots' other matches)."""
AGON_ANALYSIS_PER_RUN = env_int("AGON_ANALYSIS_PER_RUN", 50)
"""Matches one beat run sends to be analysed at most."""
AGON_ANALYSIS_TIME_LIMIT = env_int("AGON_ANALYSIS_TIME_LIMIT", 300)
"""The hard time limit of one analysis task, in seconds."""
AGON_ANALYSIS_RESEND_SECONDS = env_int("AGON_ANALYSIS_RESEND_SECONDS", 900)
"""A queued analysis sent longer ago than this lost its message: it is sent again."""
AGON_ANALYSIS_MAX_ATTEMPTS = env_int("AGON_ANALYSIS_MAX_ATTEMPTS", 3)
"""Runs that may claim one analysis; one that loses its worker that often fails."""
AGON_LIST_CACHE_SECONDS = env_int("AGON_LIST_CACHE_SECONDS", 2)
"""How long the API's match lists and leaderboards are served from the cache (0: never)."""
AGON_QUEUE_TARGET = env_int("AGON_QUEUE_TARGET", 8)
"""Matchmaking keeps about this many ranked matches waiting for a worker, all ladders
together: enough for the workers to have the next match at hand until the next round,
few enough that a new version plays its first ranked match soon."""
AGON_FAIR_SHARE_SECONDS = env_int("AGON_FAIR_SHARE_SECONDS", 600)
"""Matchmaking gives the next match to the ladder whose bots played the fewest games
over this period (the status line of `agon up` shows each ladder's matches in it)."""
AGON_PRIVATE_TOURNAMENTS_PER_USER = env_int("AGON_PRIVATE_TOURNAMENTS_PER_USER", 3)
"""How many private tournaments a user may have not yet finished (staff: no limit)."""
AGON_TOURNAMENT_MAX_GAMES = env_int("AGON_TOURNAMENT_MAX_GAMES", 2000)
"""The most games a tournament may play with its largest field (a user's private ones;
staff's public ones are bounded by AGON_TOURNAMENT_MAX_GAMES_PUBLIC)."""
AGON_TOURNAMENT_MAX_GAMES_PUBLIC = env_int("AGON_TOURNAMENT_MAX_GAMES_PUBLIC", 20000)
AGON_TOURNAMENT_MAX_ENTRANTS = env_int("AGON_TOURNAMENT_MAX_ENTRANTS", 256)
AGON_TOURNAMENT_MAX_REPLAYS = env_int("AGON_TOURNAMENT_MAX_REPLAYS", 2)
"""How often a tournament game whose match failed (the platform's fault, never a bot's)
is played again by a new match before it counts as a tie of its seats."""
AGON_HOUSE_ACCOUNTS = env_list("AGON_HOUSE_ACCOUNTS", ["agon-examples"])
"""Accounts whose bots matchmaking may seat together in a ranked match (the example bots'
owner, `agon up`'s: a ladder of its bots alone still plays); any other owner's bots never
meet each other there. Sign-up refuses these names and look-alikes of them."""
AGON_LADDER_ANCHORS = (
    []
    if env_str("AGON_LADDER_ANCHORS", "").strip().lower() == "none"
    else env_list("AGON_LADDER_ANCHORS", ["mcts-1", "mcts-2", "mcts-3"])
)
"""The builtin bots entered on every active ladder as its fixed yardsticks
(agon.ladders.anchors), by `agon up` and `django-admin ensure_default_ladders`; `none`
for none."""
AGON_MATCHMAKING_MAX_WAIT_SECONDS = env_int("AGON_MATCHMAKING_MAX_WAIT_SECONDS", 900)
"""A bot free for a game whose last ranked match on a ladder was made longer ago than
this is seated first when that ladder next plays, however sure its rating."""
AGON_RATING_AGE_SECONDS = env_int("AGON_RATING_AGE_SECONDS", 3600)
"""Ratings idle this long have their uncertainty brought up to date by Celery beat."""
AGON_FAULT_RECENT_MATCHES = env_int("AGON_FAULT_RECENT_MATCHES", 20)
"""A version is judged broken by its faults in this many of its last matches..."""
AGON_FAULT_SHARE = env_float("AGON_FAULT_SHARE", 0.1)
"""...when it faulted in more than this share of them (and in 2 at least)..."""
AGON_FAULT_MAX = env_int("AGON_FAULT_MAX", 50)
"""...or in more than this many matches in all: it is paused from matchmaking."""
AGON_WORK_DIR = Path(env_str("AGON_WORK_DIR", str(VAR_DIR / "work")))
"""Scratch folder for unpacked bots while a match runs."""
AGON_HEALTH_TIMEOUT_SECONDS = env_float("AGON_HEALTH_TIMEOUT_SECONDS", 3.0)
"""How long a health check waits for the database or the broker (also at /metrics)."""
AGON_METRICS_TOKEN = env_str("AGON_METRICS_TOKEN", "")
"""When set, GET /metrics needs `Authorization: Bearer <token>`."""
AGON_WORKER_METRICS_PORT = env_int("AGON_WORKER_METRICS_PORT", 0)
"""When set, a Celery worker serves its metrics on this port (needs PROMETHEUS_MULTIPROC_DIR)."""

# Plain text for a terminal by default; AGON_LOG_FORMAT=json gives JSON lines on stdout
# (production's default). agon.logs describes the fields.
AGON_LOG_FORMAT = env_choice("AGON_LOG_FORMAT", LOG_FORMATS, "plain")
AGON_LOG_LEVEL = env_choice("AGON_LOG_LEVEL", LOG_LEVELS, "INFO")
LOGGING = logging_config(log_format=AGON_LOG_FORMAT, level=AGON_LOG_LEVEL)
