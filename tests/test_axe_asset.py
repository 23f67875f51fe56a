"""The accessibility checker of the browser tests is run only from the tarball the npm
registry published (tests/e2e/axe.py): one changed byte and it is refused."""

import pytest

from tests.e2e import axe


def test_the_fetched_tarball_is_the_one_the_registry_published():
    tarball = axe.fetch().read_bytes()

    assert "axe.run" in axe.script_of(tarball)


def test_a_tarball_with_one_byte_changed_is_refused():
    tarball = bytearray(axe.fetch().read_bytes())
    tarball[len(tarball) // 2] ^= 1

    with pytest.raises(axe.TarballRefused, match="integrity hash"):
        axe.script_of(bytes(tarball))
