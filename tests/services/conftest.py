"""Fixtures of the services' tests."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor


@pytest.fixture
def migrate(transactional_db):
    """``migrate(targets)`` migrates the test database there and returns the models as
    they were then; afterwards the database is migrated to the end again."""

    def to(targets):
        executor = MigrationExecutor(connection)
        executor.migrate(targets)
        return MigrationExecutor(connection).loader.project_state(targets).apps

    yield to
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
