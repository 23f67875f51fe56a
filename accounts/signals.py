"""Every user gets a profile, however the user was created; an address confirmed
through allauth comes off the suppression list."""

from allauth.account.signals import email_confirmed
from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver

from accounts.bounces import mail_failure_lifted
from accounts.models import Profile


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def create_profile(sender, instance, created, raw=False, **kwargs):
    if created and not raw:
        Profile.objects.get_or_create(user=instance)


@receiver(email_confirmed)
def lift_mail_failure(sender, request, email_address, **kwargs):
    """An address confirmed through allauth (a new one, or the same one again)
    followed a link emailed to it: mail reaches it, whatever bounced before."""
    mail_failure_lifted(address=email_address.email)
