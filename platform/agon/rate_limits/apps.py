from django.apps import AppConfig


class RateLimitsConfig(AppConfig):
    """Rate limits on users' requests (not a bot's resources in its box: those are
    `sandbox.limits`).

    The package was `agon.limits`; its label stays `limits`, the name of its table
    (`limits_ratecounter`) and of its migration history, so that no table is renamed and
    every existing database migrates as before."""

    name = "agon.rate_limits"
    label = "limits"
    verbose_name = "Rate limits"
