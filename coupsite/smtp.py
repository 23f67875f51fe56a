"""The site's own SMTP mailer: Django's, with what a site sending its own mail needs.

- **VERP** (``VERP_BOUNCES``, on by default): each message leaves with an envelope
  sender of its own, ``bounce+<id>.<signature>@<domain of DEFAULT_FROM_EMAIL>``,
  whose id names the ``SentEmail`` row of its recipient
  (``games.mail.tokens.bounce_address``). The receiving server writes it as the
  Return-Path and sends its delivery status notifications (bounces) there, where
  ``read_mail`` hands them to ``games.mail.bounces``: the address a report is about
  is the one the site sent to, whatever the report says. A message to several
  recipients leaves in one SMTP transaction each, so each has its own. The domain
  is the From's, so SPF's check of the Return-Path aligns with it for DMARC.
- **DKIM** (``coupsite.dkim_signing``) when a key is configured: the bytes are
  signed between writing and sending, so the signature covers the message exactly
  as it crosses the wire.

An email provider's own backend (django-anymail) never passes here: providers set
their own Return-Path and report bounces through their tracking webhook.
"""

import email.policy
import smtplib

from django.conf import settings
from django.core.mail.backends import smtp

from accounts.bounces import sent_email_recorded
from coupsite.dkim_signing import configured_key
from games.mail.tokens import bounce_address


class EmailBackend(smtp.EmailBackend):
    """Django's SMTP mailer, with a VERP envelope sender per recipient and a DKIM
    signature when a key is configured."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.dkim_key = configured_key()

    def _send(self, email_message):
        # Django's own _send, with the envelope senders and the signature added.
        if not email_message.recipients():
            return False
        recipients = [self.prep_address(address) for address in email_message.recipients()]
        message = email_message.message(policy=email.policy.SMTP).as_bytes()
        if self.dkim_key is not None:
            message = self.dkim_key.sign(message)
        if settings.VERP_BOUNCES:
            envelopes = [(bounce_address(sent_email_recorded(address)), [address]) for address in recipients]
        else:
            envelopes = [(self.prep_address(email_message.from_email), recipients)]
        assert self.connection is not None  # send_messages opened it
        try:
            for sender, envelope_recipients in envelopes:
                self.connection.sendmail(sender, envelope_recipients, message)
        except smtplib.SMTPException:
            if not self.fail_silently:
                raise
            return False
        return True
