"""One function per email; each renders templates/emails/<name>-subject.txt and
<name>-body.txt in the recipient's language."""

from django.conf import settings
from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from .models import Invitation
from .selectors import display_name


def _send(name: str, to: str, context: dict, language: str | None = None) -> None:
    with translation.override(language or settings.LANGUAGE_CODE):
        subject = " ".join(render_to_string(f"emails/{name}-subject.txt", context).split())
        body = render_to_string(f"emails/{name}-body.txt", context)
    EmailMessage(subject=subject, body=body, to=[to]).send()


def absolute(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def send_invitation(invitation_id: int) -> None:
    invitation = Invitation.objects.select_related("game", "invited_by").get(pk=invitation_id)
    inviter = invitation.invited_by
    profile = getattr(inviter, "profile", None)
    context = {
        "inviter": display_name(inviter),
        "game": invitation.game,
        "link": absolute(reverse("invitation", args=[invitation.token])),
    }
    _send("invitation", invitation.email, context, getattr(profile, "language", None))
