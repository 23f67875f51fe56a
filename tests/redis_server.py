"""A redis-server of a test's (or a drill's) own on a free port, stopped and started
at will on that port: the broker outages of tests/services/test_notifications.py
and benchmarks/broker_outage.py."""

import socket
import subprocess
import time
from pathlib import Path

import redis


class RedisServer:
    """``persist``: keep what it holds across a restart (snapshots in ``folder``), as
    a server configured to save does; otherwise a restart loses everything."""

    def __init__(self, folder: Path, *, persist: bool = False):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.folder = folder
        self.persist = persist
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        """Start it and wait until it answers."""
        save = ["--save", "3600 1 300 100 60 10000"] if self.persist else ["--save", "", "--appendonly", "no"]
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.folder), *save],
            stdout=subprocess.DEVNULL,
        )
        client = redis.Redis(port=self.port)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.02)

    def stop(self) -> None:
        assert self.process is not None
        self.process.terminate()
        self.process.wait(timeout=20)
