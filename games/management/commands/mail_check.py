"""``python manage.py mail_check``: what the site's domain must publish for its mail
to be delivered, what the settings send, and what is missing, one line each.

Written for the operator setting up DNS, in English like Django's own commands and
system checks (the records it prints are the same in any language). It exits with
an error when something required is missing, so a deployment script can run it.
"""

from email.utils import parseaddr

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from coupsite.dkim_signing import DkimKeyError, configured_key, domain_of, from_domain, is_public_domain
from coupsite.env import SMTP_BACKEND
from games.mail.tokens import BOUNCE_LOCAL_PART


def aligned(domain: str, with_domain: str) -> bool:
    """DMARC's relaxed alignment, as near as the settings tell it: the same domain,
    or one a subdomain of the other."""
    return domain == with_domain or domain.endswith("." + with_domain) or with_domain.endswith("." + domain)


class Command(BaseCommand):
    help = "Print the DNS records the sending domain needs (SPF, DKIM, DMARC), what the settings send, and what is missing."

    def handle(self, *args, **options):
        domain = from_domain()
        sender = parseaddr(settings.DEFAULT_FROM_EMAIL)[1]
        reply_domain = domain_of(settings.REPLY_ADDRESS)
        mailer = settings.MAILERS["default"]
        smtp_host = mailer.get("OPTIONS", {}).get("host") if mailer["BACKEND"] == SMTP_BACKEND else None
        # Bounces come back to VERP addresses only from the site's own SMTP mailer.
        verp = settings.VERP_BOUNCES and smtp_host is not None
        missing = []
        try:
            key = configured_key()
        except DkimKeyError as error:
            key = None
            missing.append(str(error))
        else:
            if key is None:
                missing.append(
                    "DKIM_PRIVATE_KEY_FILE is not set: mail is sent unsigned, and providers file it as spam."
                )
        if not is_public_domain(domain):
            missing.append(
                f"DEFAULT_FROM_EMAIL's domain {domain!r} is not a public domain: no one can check mail from it."
            )
        if not is_public_domain(reply_domain):
            missing.append(
                f"REPLY_ADDRESS's domain {reply_domain!r} is not a public domain: replies cannot reach the site."
            )
        if smtp_host is None:
            missing.append(f"EMAIL_HOST is not set: the mailer {mailer['BACKEND']} sends no mail over SMTP.")

        self.line(f"Sending domain: {domain} (the domain of DEFAULT_FROM_EMAIL)")
        self.line("")
        self.line("Publish in DNS:")
        spf_source = f"a:{smtp_host}" if smtp_host else "a:<your SMTP server>"
        self.record("SPF", f'{domain} TXT "v=spf1 {spf_source} ~all" (or the include: your mail provider names)')
        if key is not None:
            self.record("DKIM", f'{key.record_name} TXT "{key.record}"')
        else:
            self.record("DKIM", f"{settings.DKIM_SELECTOR}._domainkey.{domain} TXT: needs DKIM_PRIVATE_KEY_FILE")
        self.record(
            "DMARC",
            f'_dmarc.{domain} TXT "v=DMARC1; p=quarantine; adkim=r; aspf=r; rua=mailto:postmaster@{domain}" '
            "(p=none for the first weeks, while you read the reports)",
        )
        self.record("MX", f"{reply_domain}: the server that hands replies to read_mail or to INBOUND_ESP's webhook")
        if verp:
            self.record(
                "MX",
                f"{domain}: the server that hands the bounces to bounce+…@{domain} to read_mail "
                "(deliver bounce@ with its + extensions to the same mailbox as the replies)",
            )
        self.line("")
        self.line("The settings send:")
        self.field("From", f"{sender} (domain {domain})")
        reply_alignment = "aligned with From" if aligned(reply_domain, domain) else "need not align with From"
        self.field(
            "Reply-To", f"play+<game>.<seat>.<signature>@{reply_domain} (domain {reply_domain}, {reply_alignment})"
        )
        # The envelope sender, which the receiving server writes as Return-Path (the
        # address SPF checks, and where bounces go): a VERP address of the From's
        # domain per recipient (coupsite.smtp), or else the From address itself.
        if verp:
            return_path = f"{BOUNCE_LOCAL_PART}+<id>.<signature>@{domain}"
            self.field("Return-Path", f"{return_path} (VERP, domain {domain}, aligned with From)")
        else:
            self.field("Return-Path", f"{sender} (domain {domain}, aligned with From; VERP_BOUNCES is off)")
        signing = f"d={key.domain} s={key.selector} (aligned with From)" if key is not None else "off"
        self.field("DKIM", signing)
        self.field("Mailer", f"SMTP {smtp_host}" if smtp_host else mailer["BACKEND"])
        self.line("")
        if not missing:
            self.line("Missing: nothing")
            return
        for problem in missing:
            self.line(f"MISSING {problem}")
        raise CommandError(f"{len(missing)} required setting(s) missing for mail to be delivered.")

    def line(self, text: str) -> None:
        self.stdout.write(text)

    def record(self, kind: str, text: str) -> None:
        self.line(f"{kind:<6} {text}")

    def field(self, name: str, text: str) -> None:
        self.line(f"{name:<12} {text}")
