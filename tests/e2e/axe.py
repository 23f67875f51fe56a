"""axe-core, the accessibility checker the browser tests run in every page, as a test asset.

``python -m tests.e2e.axe`` (run by ``make test``) fetches the pinned version's tarball
from the npm registry with Python alone (no node or npm on the machine), checks it
against the registry's integrity hash, and keeps its ``axe.min.js`` under var/ (not
tracked). A tarball that does not match is refused, never run.

``violations(page)`` runs it in a Playwright page and returns the violations that
matter: serious and critical ones.
"""

from __future__ import annotations

import base64
import hashlib
import io
import sys
import tarfile
import urllib.request
from pathlib import Path

VERSION = "4.10.3"
TARBALL = f"https://registry.npmjs.org/axe-core/-/axe-core-{VERSION}.tgz"
# The registry's "dist.integrity" of that version (Subresource Integrity format).
INTEGRITY = "sha512-Xm7bpRXnDSX2YE2YFfBk2FnF0ep6tmG7xPh8iHee8MIcrgq762Nkce856dYtJYLkuIoYZvGfTs/PbZhideTcEg=="
SCRIPT = Path(__file__).resolve().parents[2] / "var" / "test-assets" / f"axe-core-{VERSION}.min.js"
IMPACTS_THAT_FAIL = ("serious", "critical")


def _check_integrity(tarball: bytes) -> None:
    algorithm, _, expected = INTEGRITY.partition("-")
    actual = base64.b64encode(hashlib.new(algorithm, tarball).digest()).decode()
    if actual != expected:
        raise SystemExit(f"axe-core {VERSION}: the tarball from {TARBALL} does not match its integrity hash")


def fetch() -> Path:
    """The checked ``axe.min.js``, downloaded the first time only."""
    if SCRIPT.exists():
        return SCRIPT
    with urllib.request.urlopen(TARBALL, timeout=60) as response:
        tarball = response.read()
    _check_integrity(tarball)
    with tarfile.open(fileobj=io.BytesIO(tarball), mode="r:gz") as archive:
        member = archive.extractfile("package/axe.min.js")
        assert member is not None, "axe.min.js is missing from the tarball"
        script = member.read()
    SCRIPT.parent.mkdir(parents=True, exist_ok=True)
    partial = SCRIPT.with_suffix(".partial")
    partial.write_bytes(script)
    partial.replace(SCRIPT)  # never a half-written script for the next run
    return SCRIPT


def violations(page) -> list[str]:
    """The serious and critical axe-core violations of ``page`` as it stands, one line
    each: the rule, its impact and the elements it found (empty when it passes)."""
    if not SCRIPT.exists():
        raise AssertionError(f"{SCRIPT} is missing: run `make test`, or `.venv/bin/python -m tests.e2e.axe`")
    # Through the DevTools protocol, not a <script> tag: the site's CSP allows no inline script.
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(SCRIPT.read_text())
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
