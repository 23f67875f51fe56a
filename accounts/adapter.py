"""allauth's emails (confirmations, sign-in codes, password resets, "no such
account") go to whatever address someone types into a form: they too respect an
address's opt-out and the suppression list (``accounts.mail.mail_refused``), so
nobody can use the sign-in pages to mail an address that asked for no email, nor
one mail to which fails. When mail to it fails, the page says so: whoever waits
for a code learns why none comes. They greet and sign with the site's name and
address (``SITE_URL``), not the host name the request happened to use."""

import logging
from types import SimpleNamespace
from urllib.parse import urlsplit

from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.contrib import messages
from django.utils.translation import gettext

from accounts.bounces import failure_of
from accounts.mail import mail_refused

log = logging.getLogger(__name__)


class AccountAdapter(DefaultAccountAdapter):
    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        if failure_of(email) is not None:
            log.info("Did not send %s: mail to the address fails", template_prefix)
            if self.request is not None:
                messages.warning(
                    self.request,
                    gettext(
                        "We can't deliver email to %(address)s at the moment: mail to it has failed, so we "
                        "sent none. Check the address, or sign in with your password."
                    )
                    % {"address": email},
                )
            return
        if mail_refused(email):
            log.info("Did not send %s: the address asked for no email", template_prefix)
            return
        site = SimpleNamespace(name=gettext("Coup by email"), domain=urlsplit(settings.SITE_URL).netloc)
        super().send_mail(template_prefix, email, {"current_site": site, **context})
