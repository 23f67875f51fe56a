"""Django project package for the Coup play-by-email service."""

from coupsite.celery import app as celery_app

__all__ = ["celery_app"]
