"""The second factors' secrets are stored encrypted (accounts/mfa_secrets.py): the
database holds no TOTP key or recovery-code seed in the clear, yet the codes work,
also after the site's key is rotated into SECRET_KEY_FALLBACKS; secrets stored in
the clear before are encrypted by the migration."""

import importlib
import json

import pyotp
import pytest
from allauth.mfa.models import Authenticator
from allauth.mfa.recovery_codes.internal.auth import RecoveryCodes
from allauth.mfa.totp.internal.auth import TOTP
from cryptography.fernet import InvalidToken
from django.apps import apps

from accounts.mfa_secrets import secret_decrypt
from tests.players import make_player

pytestmark = pytest.mark.django_db

migration = importlib.import_module("accounts.migrations.0014_second_factor_secrets_encrypted")


def stored(user, kind) -> Authenticator:
    return Authenticator.objects.get(user=user, type=kind)


def test_an_authenticator_apps_key_is_stored_encrypted_and_its_codes_work():
    ana = make_player("Ana")
    secret = pyotp.random_base32()
    TOTP.activate(ana, secret)
    row = stored(ana, Authenticator.Type.TOTP)
    assert secret not in json.dumps(row.data)
    assert secret_decrypt(row.data["secret"]) == secret
    assert TOTP(row).validate_code(pyotp.TOTP(secret).now())


def test_recovery_codes_seed_is_stored_encrypted_and_a_code_works_once():
    ana = make_player("Ana")
    codes = RecoveryCodes.activate(ana)
    seed = secret_decrypt(stored(ana, Authenticator.Type.RECOVERY_CODES).data["seed"])
    assert seed not in json.dumps(stored(ana, Authenticator.Type.RECOVERY_CODES).data)
    code = codes.get_unused_codes()[0]
    assert RecoveryCodes(stored(ana, Authenticator.Type.RECOVERY_CODES)).validate_code(code)
    assert not RecoveryCodes(stored(ana, Authenticator.Type.RECOVERY_CODES)).validate_code(code)


def test_a_rotated_site_key_still_opens_the_secrets_and_none_open_without_it(settings):
    ana = make_player("Ana")
    secret = pyotp.random_base32()
    TOTP.activate(ana, secret)
    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = "another key, long enough to be a real one " * 2
    assert TOTP(stored(ana, Authenticator.Type.TOTP)).validate_code(pyotp.TOTP(secret).now())
    settings.SECRET_KEY_FALLBACKS = []
    with pytest.raises(InvalidToken):
        secret_decrypt(stored(ana, Authenticator.Type.TOTP).data["secret"])


def test_the_migration_encrypts_the_secrets_stored_in_the_clear_and_back():
    ana = make_player("Ana")
    secret = pyotp.random_base32()
    Authenticator.objects.create(user=ana, type=Authenticator.Type.TOTP, data={"secret": secret})
    migration.encrypt(apps, None)
    row = stored(ana, Authenticator.Type.TOTP)
    assert secret not in json.dumps(row.data)
    assert TOTP(row).validate_code(pyotp.TOTP(secret).now())
    migration.decrypt(apps, None)
    assert stored(ana, Authenticator.Type.TOTP).data["secret"] == secret
