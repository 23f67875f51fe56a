"""allauth's emails (confirmations, sign-in codes, password resets, "no such
account") go to whatever address someone types into a form: they too respect an
address's opt-out, so nobody can use the sign-in pages to mail an address that
asked for no email."""

import logging

from allauth.account.adapter import DefaultAccountAdapter

from accounts.mail import mail_refused

log = logging.getLogger(__name__)


class AccountAdapter(DefaultAccountAdapter):
    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        if mail_refused(email):
            log.info("Did not send %s: the address asked for no email", template_prefix)
            return
        super().send_mail(template_prefix, email, context)
