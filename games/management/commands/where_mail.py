"""``python manage.py where_mail``: one line saying where the site's emails go.

``make run`` prints it as it starts: on the embedded default nothing is sent, and a
developer needs to know the emails wait in a Maildir, listed at /mailbox/.
"""

from django.core.management.base import BaseCommand

from coupsite.mailbox import mail_destination


class Command(BaseCommand):
    help = "Say where the site's emails go (the Maildir and its page, or the SMTP server)."

    def handle(self, *args, **options):
        self.stdout.write(mail_destination())
