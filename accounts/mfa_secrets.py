"""The second factors' secrets at rest: an authenticator app's TOTP key and the
seed of the recovery codes are stored encrypted (allauth's ``MFAAdapter.encrypt``
hook), so that a copy of the database (a backup, a leaked dump) does not hand
anyone a player's second factor along with their password hash.

The key is derived from ``SECRET_KEY``; ``SECRET_KEY_FALLBACKS`` still decrypt,
so a rotated key keeps the factors enrolled under the previous one working (they
are re-encrypted only when enrolled again). Fernet (the ``cryptography``
package, which fido2 needs anyway) authenticates as well as encrypts: a value
altered in the database fails to decrypt rather than giving another code.
"""

import base64

from allauth.mfa.adapter import DefaultMFAAdapter
from cryptography.fernet import Fernet, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings

KEY_INFO = b"coup-by-email second factor secrets"


def _fernet(secret_key: str | bytes) -> Fernet:
    material = secret_key.encode() if isinstance(secret_key, str) else secret_key
    derived = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=KEY_INFO).derive(material)
    return Fernet(base64.urlsafe_b64encode(derived))


def _keys() -> MultiFernet:
    """The current key first (it encrypts), then the fallbacks (they only decrypt)."""
    return MultiFernet([_fernet(key) for key in (settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS)])


def secret_encrypt(text: str) -> str:
    return _keys().encrypt(text.encode()).decode("ascii")


def secret_decrypt(token: str) -> str:
    return _keys().decrypt(token.encode("ascii")).decode()


class MFAAdapter(DefaultMFAAdapter):
    def encrypt(self, text: str) -> str:
        return secret_encrypt(text)

    def decrypt(self, encrypted_text: str) -> str:
        return secret_decrypt(encrypted_text)
