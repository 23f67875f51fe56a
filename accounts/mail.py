"""Who may be emailed: an address that opted out (``AddressOptOut``) is not, nor one
mail to which fails (``accounts.bounces``: it bounced or complained), by anyone and
by any path (the game's emails and invitations in ``games.mail.emails``, allauth's
in ``accounts.adapter``)."""

from accounts.bounces import failing_among, failure_of, normalized
from accounts.models import AddressOptOut

__all__ = ["normalized", "mail_refused", "refusing_all", "address_opt_out", "address_opt_in", "address_scope"]


def mail_refused(address: str, *, invitation: bool = False) -> bool:
    """Whether ``address`` asked for no email at all, or (for an ``invitation``)
    for no more invitations, or mail to it fails."""
    scope = address_scope(address)
    if scope == AddressOptOut.Scope.ALL or (invitation and scope == AddressOptOut.Scope.INVITATIONS):
        return True
    return failure_of(address) is not None


def refusing_all(addresses) -> set[str]:
    """Those of ``addresses`` (normalized) that asked for no email at all or that
    mail fails to: two queries for a whole batch of emails, where ``mail_refused``
    reads one address."""
    wanted = {normalized(address) for address in addresses}
    refusing = AddressOptOut.objects.filter(address__in=wanted, scope=AddressOptOut.Scope.ALL)
    return set(refusing.values_list("address", flat=True)) | failing_among(wanted)


def address_opt_out(*, address: str, scope: str) -> None:
    """``address`` wants less mail: no invitations, or nothing at all. A wider
    opt-out is never narrowed by a later, narrower one."""
    opt_out, created = AddressOptOut.objects.get_or_create(address=normalized(address), defaults={"scope": scope})
    if not created and scope == AddressOptOut.Scope.ALL and opt_out.scope != scope:
        opt_out.scope = scope
        opt_out.save(update_fields=["scope"])


def address_opt_in(*, address: str) -> None:
    """``address`` takes back its opt-out: invitations and every other email again."""
    AddressOptOut.objects.filter(address=normalized(address)).delete()


def address_scope(address: str) -> str | None:
    """``AddressOptOut.Scope`` of ``address``, or None when it gets every email."""
    return AddressOptOut.objects.filter(address=normalized(address)).values_list("scope", flat=True).first()
