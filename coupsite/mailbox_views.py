"""The local mailbox page (/mailbox/): the emails the Maildir backend stored.

A development aid so one person can play the whole email loop on one machine: it
shows every stored email to whoever opens it, so it exists only when DEBUG is on.
coupsite/urls.py routes it only then, and the views refuse again on their own.

An email's HTML is shown in an iframe sandboxed without ``allow-scripts`` and with
an opaque origin (no ``allow-same-origin``), so it can neither run code nor read the
page around it; its links open in a new tab, outside the sandbox, as a mail client
would open them: a one-click answer leads to its confirmation page. The iframe
loads the HTML from its own address, served with a policy of its own: an email
styles itself inline (mail clients load no stylesheet), which the site's
Content-Security-Policy forbids on its pages, and which an iframe's ``srcdoc``
would inherit.
"""

import re

from django.conf import settings
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.csp import CSP
from django.views.decorators.clickjacking import xframe_options_sameorigin
from django.views.decorators.csp import csp_override
from django.views.decorators.http import require_GET

from coupsite.mailbox import maildir_path, stored_message, stored_messages

_HEAD = re.compile(r"<head\b[^>]*>|<html\b[^>]*>", re.IGNORECASE)
_BASE = '<base target="_blank">'
# An email's HTML: its inline styles and images in data: URLs, nothing else, and
# sandboxed even when opened outside the mailbox's iframe.
EMAIL_CSP: dict[str, list[str]] = {
    "default-src": [CSP.NONE],
    "style-src": [CSP.UNSAFE_INLINE],
    "img-src": ["data:"],
    "frame-ancestors": [CSP.SELF],
    "sandbox": ["allow-popups", "allow-popups-to-escape-sandbox"],
}


def _mailbox_path():
    if not settings.DEBUG:
        raise Http404
    return maildir_path()


def _with_links_in_new_tabs(html: str) -> str:
    """``html`` with a <base target="_blank"> in its head: a link followed inside the
    iframe would meet the site's X-Frame-Options and stay sandboxed."""
    match = _HEAD.search(html)
    at = match.end() if match else 0
    return html[:at] + _BASE + html[at:]


@require_GET
def mailbox(request, key=None):
    path = _mailbox_path()
    messages = stored_messages(path) if path else []
    recipients = sorted({m.to for m in messages})
    to = request.GET.get("to", "").strip()
    if to:
        messages = [m for m in messages if to.lower() in m.to.lower()]
    current = None
    if key is not None:
        current = stored_message(path, key) if path else None
        if current is None:
            raise Http404
    context = {
        "path": path,
        "stored": messages,
        "to": to,
        "recipients": recipients,
        "current": current,
    }
    return render(request, "mailbox.html", context)


@require_GET
@xframe_options_sameorigin
@csp_override(EMAIL_CSP)
def mailbox_html(request, key):
    """The HTML part of one stored email, for the mailbox page's iframe."""
    path = _mailbox_path()
    current = stored_message(path, key) if path else None
    if current is None or not current.html:
        raise Http404
    return HttpResponse(_with_links_in_new_tabs(current.html))
