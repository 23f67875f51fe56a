"""Copy every player's standing answers from their profile (where they were kept
before Coup kept its own) into ``CoupPreferences``. Reversing
``accounts.0005_standing_answers_kept_by_coup`` copies them back."""

from django.db import migrations


def from_profiles(apps, schema_editor):
    Profile = apps.get_model("accounts", "Profile")
    CoupPreferences = apps.get_model("coup", "CoupPreferences")
    profiles = Profile.objects.exclude(always_prove=False, lose_first=[])
    CoupPreferences.objects.bulk_create(
        (
            CoupPreferences(user_id=p.user_id, always_prove=p.always_prove, lose_first=list(p.lose_first or []))
            for p in profiles.iterator()
        ),
        batch_size=1000,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("coup", "0001_standing_answers"),
        ("accounts", "0004_address_opt_out"),
    ]

    operations = [migrations.RunPython(from_profiles, migrations.RunPython.noop, elidable=False)]
