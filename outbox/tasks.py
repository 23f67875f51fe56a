from celery import shared_task

from outbox import services


@shared_task(ignore_result=True)
def relay() -> int:
    """Hand the broker what it refused before (run every few seconds by beat)."""
    return services.relay()
