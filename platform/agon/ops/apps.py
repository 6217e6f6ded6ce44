from celery.signals import worker_init
from django.apps import AppConfig


class OpsConfig(AppConfig):
    name = "agon.ops"
    label = "ops"
    verbose_name = "Operations"

    def ready(self) -> None:
        # Here, not at the top: the metrics read the matches' models, loaded by now.
        from agon.ops.metrics import worker_metrics_at_start

        # A Celery worker starts once the apps are loaded (Celery's Django fixup): its
        # main process serves its pool's metrics from then on.
        worker_init.connect(worker_metrics_at_start, weak=False, dispatch_uid="agon-metrics")
