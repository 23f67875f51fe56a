"""WSGI entry point (gunicorn coupsite.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "coupsite.settings")

application = get_wsgi_application()
