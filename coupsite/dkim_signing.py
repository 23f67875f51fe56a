"""DKIM signatures on the mail the site sends through its own SMTP server.

Providers file unsigned mail as spam, and one-click unsubscribe (RFC 8058) counts
only when both List-Unsubscribe headers are signed. With ``DKIM_PRIVATE_KEY_FILE``
set (an RSA key in PEM, PKCS#1 or PKCS#8, as ``openssl genrsa`` writes it), every
message the SMTP mailer (``coupsite.smtp.EmailBackend``, the one ``coupsite.env`` configures)
sends carries a DKIM-Signature of the domain of ``DEFAULT_FROM_EMAIL`` (so it aligns
with the From a reader sees, as DMARC asks) under the selector ``DKIM_SELECTOR``.
Without the setting nothing changes. A key that is missing or unreadable is a
system check error (``check_dkim_key``), so the site says so as it starts rather
than failing at the first email; ``manage.py mail_check`` prints the DNS record the
key needs.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from email.utils import parseaddr
from pathlib import Path

import dkim
from django.conf import settings
from django.core import checks
from dkim.crypto import UnparsableKeyError, parse_pem_private_key

# The headers a reader and a provider act on; a signature over them means none was
# changed on the way. RFC 8058 requires both unsubscribe headers among them.
SIGNED_HEADERS = (
    "From",
    "To",
    "Subject",
    "Date",
    "Message-ID",
    "List-Unsubscribe",
    "List-Unsubscribe-Post",
)

# DER of the AlgorithmIdentifier of an RSA public key (rsaEncryption, no parameters).
_RSA_ALGORITHM = bytes.fromhex("300d06092a864886f70d0101010500")


class DkimKeyError(Exception):
    """The configured DKIM key cannot be used; the message says why, for the operator."""


def domain_of(address: str) -> str:
    """The domain of ``address`` ("Name <user@domain>" or "user@domain"), lower-cased."""
    return parseaddr(address)[1].rpartition("@")[2].lower()


def from_domain() -> str:
    """The domain of ``DEFAULT_FROM_EMAIL``: the one the site's mail signs as."""
    return domain_of(settings.DEFAULT_FROM_EMAIL)


def is_public_domain(domain: str) -> bool:
    """Whether other servers can look ``domain`` up (not ``localhost``, nor a bare host name)."""
    return "." in domain and domain != "localhost" and not domain.endswith(".localhost")


def _der(tag: int, content: bytes) -> bytes:
    size = len(content)
    if size < 0x80:
        return bytes([tag, size]) + content
    length = size.to_bytes((size.bit_length() + 7) // 8, "big")
    return bytes([tag, 0x80 | len(length)]) + length + content


def _der_integer(value: int) -> bytes:
    # One more byte than the bits need keeps the sign bit clear (DER integers are signed).
    return _der(0x02, value.to_bytes(value.bit_length() // 8 + 1, "big"))


@dataclass(frozen=True)
class DkimKey:
    """A private key read from its file, and what it signs as."""

    private_pem: bytes
    selector: str
    domain: str

    @classmethod
    def read(cls, path: str, selector: str, domain: str) -> DkimKey:
        """The key in the PEM file at ``path``; ``DkimKeyError`` saying why it cannot be used."""
        try:
            pem = Path(path).read_bytes()
        except OSError as error:
            raise DkimKeyError(f"DKIM_PRIVATE_KEY_FILE={path!r} cannot be read: {error.strerror}.") from None
        try:
            parse_pem_private_key(pem)
        except (UnparsableKeyError, ValueError, IndexError):
            raise DkimKeyError(
                f"DKIM_PRIVATE_KEY_FILE={path!r} is not an RSA private key in PEM "
                "(make one with: openssl genrsa -out dkim.pem 2048)."
            ) from None
        if not selector:
            raise DkimKeyError("DKIM_SELECTOR is empty: name the selector the DNS record is published under.")
        if not is_public_domain(domain):
            raise DkimKeyError(
                f"DEFAULT_FROM_EMAIL's domain {domain!r} is not a public domain: DKIM signs as the sender's domain."
            )
        return cls(pem, selector, domain)

    @property
    def record_name(self) -> str:
        """Where the public key is published: ``<selector>._domainkey.<domain>``."""
        return f"{self.selector}._domainkey.{self.domain}"

    @property
    def record(self) -> str:
        """The TXT record of the public key: its SubjectPublicKeyInfo (RFC 6376, 3.6.1)."""
        key = parse_pem_private_key(self.private_pem)
        public = _der(0x30, _der_integer(key["modulus"]) + _der_integer(key["publicExponent"]))
        info = _der(0x30, _RSA_ALGORITHM + _der(0x03, b"\x00" + public))
        return f"v=DKIM1; k=rsa; p={base64.b64encode(info).decode()}"

    def sign(self, message: bytes) -> bytes:
        """``message`` with its DKIM-Signature header in front."""
        signature = dkim.sign(
            message,
            self.selector.encode(),
            self.domain.encode(),
            self.private_pem,
            include_headers=[name.encode() for name in SIGNED_HEADERS],
        )
        return signature + message


def configured_key() -> DkimKey | None:
    """The key of the settings, or None when signing is off; ``DkimKeyError`` when unusable."""
    path = settings.DKIM_PRIVATE_KEY_FILE
    if not path:
        return None
    return DkimKey.read(path, settings.DKIM_SELECTOR, from_domain())


@checks.register(checks.Tags.compatibility)
def check_dkim_key(app_configs, **kwargs):
    """A DKIM key that cannot sign stops the site as it starts, not at its first email."""
    try:
        configured_key()
    except DkimKeyError as error:
        return [
            checks.Error(
                str(error),
                hint="Fix the key file, or leave DKIM_PRIVATE_KEY_FILE empty to send unsigned mail.",
                id="coupsite.E001",
            )
        ]
    return []
