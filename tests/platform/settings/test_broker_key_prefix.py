"""Sites (or test runs) sharing one Redis database keep their broker keys apart:
AGON_BROKER_KEY_PREFIX goes before every key, in `agon up`'s settings as in production's,
and the worker still reads its queues in order."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.deploy.support import production_environment, run_python

READ = (
    "import json, sys; from agon.settings.{module} import CELERY_BROKER_TRANSPORT_OPTIONS as o; "
    "print(json.dumps(o))"
)


def transport_options(module: str, env: dict[str, str]) -> dict[str, object]:
    done = run_python(["-c", READ.format(module=module)], env)
    assert done.returncode == 0, done.stdout + done.stderr
    options: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return options


@pytest.mark.parametrize("prefix", ["", "site-a:"])
def test_agon_up_on_redis_puts_the_prefix_before_every_broker_key(
    prefix: str, tmp_path: Path
) -> None:
    env = {
        "AGON_VAR_DIR": str(tmp_path),
        "AGON_BROKER_URL": "redis://127.0.0.1:6379/0",
        "AGON_BROKER_KEY_PREFIX": prefix,
    }
    options = transport_options("local", env)
    assert options.get("global_keyprefix") == (prefix or None)
    assert options["queue_order_strategy"] == "priority"


def test_production_puts_the_prefix_before_every_broker_key() -> None:
    options = transport_options("production", production_environment(AGON_BROKER_KEY_PREFIX="b:"))
    assert (options["global_keyprefix"], options["queue_order_strategy"]) == ("b:", "priority")
