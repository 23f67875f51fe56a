"""How long a page takes the server, for the page benchmarks (dashboard, leaderboard,
lobby): import it once Django is set up."""

import statistics
import time

from django.db import connection
from django.test.utils import CaptureQueriesContext


def render(client, url: str, rounds: int, *, status: int = 200, before=None) -> dict:
    """Server time of ``url`` (wall clock) over ``rounds`` requests, and apart the CPU
    this process spent and the database's time: on a busy machine the wall clock
    waits for a core, the CPU time does not. Each answer must have ``status``.
    ``before``, if given, is called untimed before each request."""
    client.get(url)  # warm the template and translation caches
    times, cpu, database, counts = [], [], [], set()
    for _round in range(rounds):
        if before is not None:
            before()
        with CaptureQueriesContext(connection) as queries:
            start, start_cpu = time.perf_counter(), time.process_time()
            response = client.get(url)
            times.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
        assert response.status_code == status, (url, response.status_code)
        counts.add(len(queries))
        database.append(sum(float(query["time"]) for query in queries.captured_queries) * 1000)
    return {
        "median_ms": round(statistics.median(times), 1),
        "max_ms": round(max(times), 1),
        "cpu_median_ms": round(statistics.median(cpu), 1),
        "sql_median_ms": round(statistics.median(database), 1),
        "queries": sorted(counts),
    }
