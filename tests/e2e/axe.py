"""axe-core, the accessibility checker the browser tests run in every page, as a test asset.

``python -m tests.e2e.axe`` (run by ``make test``) fetches the pinned version's tarball
from the npm registry with Python alone (no node or npm on the machine), checks it
against the registry's integrity hash, and keeps it under var/ (not tracked). Its
``axe.min.js`` is taken from it only after the hash is checked, at every test run: a
tarball that does not match is refused, never run.

``violations(page)`` runs it in a Playwright page and returns the violations that
matter: serious and critical ones.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import io
import sys
import tarfile
import urllib.request
from pathlib import Path

VERSION = "4.10.3"
TARBALL_URL = f"https://registry.npmjs.org/axe-core/-/axe-core-{VERSION}.tgz"
# The registry's "dist.integrity" of that version (Subresource Integrity format).
INTEGRITY = "sha512-Xm7bpRXnDSX2YE2YFfBk2FnF0ep6tmG7xPh8iHee8MIcrgq762Nkce856dYtJYLkuIoYZvGfTs/PbZhideTcEg=="
TARBALL = Path(__file__).resolve().parents[2] / "var" / "test-assets" / f"axe-core-{VERSION}.tgz"
IMPACTS_THAT_FAIL = ("serious", "critical")


class TarballRefused(Exception):
    pass


def script_of(tarball: bytes) -> str:
    """The ``axe.min.js`` of ``tarball``, once its integrity hash is checked."""
    algorithm, _, expected = INTEGRITY.partition("-")
    if base64.b64encode(hashlib.new(algorithm, tarball).digest()).decode() != expected:
        raise TarballRefused(f"axe-core {VERSION}: the tarball does not match its integrity hash {INTEGRITY}")
    with tarfile.open(fileobj=io.BytesIO(tarball), mode="r:gz") as archive:
        member = archive.extractfile("package/axe.min.js")
        if member is None:
            raise TarballRefused(f"axe-core {VERSION}: the tarball holds no package/axe.min.js")
        return member.read().decode()


def fetch() -> Path:
    """The checked tarball, downloaded the first time only."""
    if TARBALL.exists():
        return TARBALL
    try:
        with urllib.request.urlopen(TARBALL_URL, timeout=60) as response:
            tarball = response.read()
    except OSError as error:
        raise SystemExit(f"could not fetch axe-core for the browser tests from {TARBALL_URL}: {error}") from None
    try:
        script_of(tarball)
    except TarballRefused as refused:
        raise SystemExit(f"{refused}; downloaded from {TARBALL_URL}, not kept") from None
    TARBALL.parent.mkdir(parents=True, exist_ok=True)
    partial = TARBALL.with_suffix(".partial")
    partial.write_bytes(tarball)
    partial.replace(TARBALL)  # never a half-written tarball for the next run
    return TARBALL


@functools.cache
def _script() -> str:
    """The stored tarball's script, its hash checked again: a file under var/ may change."""
    if not TARBALL.exists():
        raise AssertionError(f"{TARBALL} is missing: run `make test`, or `.venv/bin/python -m tests.e2e.axe`")
    return script_of(TARBALL.read_bytes())


def violations(page) -> list[str]:
    """The serious and critical axe-core violations of ``page`` as it stands, one line
    each: the rule, its impact and the elements it found (empty when it passes)."""
    # Through the DevTools protocol, not a <script> tag: the site's CSP allows no inline script.
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(_script())
    found = page.evaluate(
        """async (impacts) => {
            const result = await axe.run(document, {resultTypes: ["violations"]});
            return result.violations
                .filter(v => impacts.includes(v.impact))
                .map(v => `${v.id} (${v.impact}): ${v.help} — ` +
                          v.nodes.slice(0, 5).map(n => n.target.join(" ")).join(", "));
        }""",
        list(IMPACTS_THAT_FAIL),
    )
    return list(found)


if __name__ == "__main__":
    sys.stdout.write(f"{fetch()}\n")
