"""The TOTP keys and recovery-code seeds stored before they were encrypted
(accounts/mfa_secrets.py) are encrypted now; going back decrypts them."""

from django.db import migrations

from accounts.mfa_secrets import secret_decrypt, secret_encrypt

FIELDS = {"totp": "secret", "recovery_codes": "seed"}


def _rewrite(apps, change):
    Authenticator = apps.get_model("mfa", "Authenticator")
    for authenticator in Authenticator.objects.filter(type__in=FIELDS):
        field = FIELDS[authenticator.type]
        authenticator.data[field] = change(authenticator.data[field])
        authenticator.save(update_fields=["data"])


def encrypt(apps, schema_editor):
    _rewrite(apps, secret_encrypt)


def decrypt(apps, schema_editor):
    _rewrite(apps, secret_decrypt)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0013_former_players_and_data_exports"),
        ("mfa", "0003_authenticator_type_uniq"),
    ]

    operations = [migrations.RunPython(encrypt, decrypt)]
