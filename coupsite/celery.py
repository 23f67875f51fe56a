"""The Celery app: settings from Django (``CELERY_`` names), tasks autodiscovered.

celery -A coupsite worker --beat      # one process for small sites
celery -A coupsite worker / beat      # separately in production
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "coupsite.settings")

app = Celery("coupsite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
