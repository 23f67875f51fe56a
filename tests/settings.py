"""The settings of a test run: the site's own (``coupsite.settings``), read with the
defaults a test run needs wherever the environment sets nothing.

pytest-django names this module (``[tool.pytest.ini_options]`` in pyproject.toml),
so a plain ``pytest`` in the project folder runs as ``make test`` does: DEBUG on
(the site's settings refuse to start without a real SECRET_KEY otherwise), on the
local PostgreSQL and Redis. Each default is only a default: a variable set in the
environment wins, even when set empty (``make test-fast`` empties DATABASE_URL and
REDIS_URL, for SQLite and the in-process cache). The defaults are written into the
environment, not only into the settings, so the processes the tests start (Celery
workers, ``manage.py``, gunicorn) read the same.
"""

import os

TEST_ENVIRONMENT = {
    "DEBUG": "1",
    "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/coup",
    # Under pytest-xdist each test process moves this database number up by its own
    # (tests/conftest.py), so their caches and brokers never meet.
    "REDIS_URL": "redis://127.0.0.1:6379/0",
}
for name, value in TEST_ENVIRONMENT.items():
    os.environ.setdefault(name, value)

from coupsite.settings import *  # noqa: E402, F403 (the site's settings, read with the environment above)
