"""allauth's emails (confirmations, sign-in codes, password resets, "no such
account") go to whatever address someone types into a form: they too respect an
address's opt-out, so nobody can use the sign-in pages to mail an address that
asked for no email. They greet and sign with the site's name and address
(``SITE_URL``), not the host name the request happened to use."""

import logging
from types import SimpleNamespace
from urllib.parse import urlsplit

from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.utils.translation import gettext

from accounts.mail import mail_refused

log = logging.getLogger(__name__)


class AccountAdapter(DefaultAccountAdapter):
    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        if mail_refused(email):
            log.info("Did not send %s: the address asked for no email", template_prefix)
            return
        site = SimpleNamespace(name=gettext("Coup by email"), domain=urlsplit(settings.SITE_URL).netloc)
        super().send_mail(template_prefix, email, {"current_site": site, **context})
