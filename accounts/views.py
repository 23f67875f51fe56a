"""The profile page (with each game kind's section of preferences, given by a task
to the engine of every game in play, and the player's holidays), a language
switch that remembers the choice in the profile, and leaving: one's data to
download, and deleting one's account."""

import zoneinfo

from allauth.usersessions.models import UserSession
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from accounts.bounces import mail_failure_lifted
from accounts.deletion_code import DELETION_CODE_MINUTES, deletion_code_check, deletion_code_send, deletion_code_sent
from accounts.export import EXPORT_KEPT, data_export_request, export_link_read, export_token
from accounts.forms import HolidayForm, ProfileForm
from accounts.leaving import AccountGone, account_delete
from accounts.models import HOLIDAY_DAYS_PER_YEAR, DataExport, Holiday, profile_of, validate_time_zone
from accounts.selectors import holiday_days_left, holidays_ahead, second_factors_of
from accounts.services import profile_language_set
from games.kinds import KINDS
from games.services import holidays
from games.services.errors import ServiceError
from games.services.notifications import mail_test_requested, preferences_changed

# The test emails a player may ask for in a day.
MAIL_TESTS_PER_DAY = 3


@login_required
def profile(request):
    instance = profile_of(request.user)
    data = request.POST if request.method == "POST" else None
    form = ProfileForm(data, instance=instance)
    sections = _preference_sections(request.user, data)
    if data is not None and form.is_valid() and all(section.is_valid() for section in sections):
        with transaction.atomic():
            form.save()
            changed = [section for section in sections if section.has_changed()]
            for section in changed:
                section.save()
            if changed:
                preferences_changed(user=request.user)
        translation.activate(instance.language)
        messages.success(request, _("Your profile is saved."))
        return remember_language(redirect("profile"), instance.language)
    return _profile_page(request, form=form, sections=sections)


def _profile_page(request, *, form=None, sections=None, holiday_form=None):
    """The profile page, with any form the request sent shown as it was sent."""
    profile = profile_of(request.user)
    zone = zoneinfo.ZoneInfo(profile.time_zone)
    today = timezone.now().astimezone(zone).date()
    context = {
        "form": form or ProfileForm(instance=profile),
        "sections": _preference_sections(request.user, None) if sections is None else sections,
        "holiday_form": holiday_form or HolidayForm(),
        "holidays": holidays_ahead(request.user),
        "holiday_days_left": holiday_days_left(request.user, today.year, zone),
        "holiday_days_per_year": HOLIDAY_DAYS_PER_YEAR,
        "year": str(today.year),
        "second_factors": second_factors_of(request.user),
        # The oldest first; allauth forgets those that ended (signed out, expired) as it lists them.
        "sessions": sorted(UserSession.objects.purge_and_list(request.user), key=lambda session: session.created_at),
    }
    return render(request, "accounts/profile.html", context, status=400 if holiday_form else 200)


@login_required
@require_POST
def holiday_plan(request):
    """Plan a holiday from the profile page; refused, the page again with the days
    typed and the reason."""
    form = HolidayForm(request.POST)
    if form.is_valid():
        try:
            holiday = holidays.holiday_plan(user=request.user, **form.cleaned_data)
        except ServiceError as error:
            form.add_error(None, error.message)
        else:
            if holiday.status == Holiday.Status.AWAY:
                messages.success(request, _("You are away from now on. Have a good holiday!"))
            else:
                messages.success(request, _("Your holiday is planned."))
            return redirect(reverse("profile") + "#holidays")
    return _profile_page(request, holiday_form=form)


@login_required
@require_POST
def holiday_end(request, pk):
    """End the holiday under way now, or cancel a planned one."""
    try:
        ended = holidays.holiday_end(user=request.user, holiday_id=pk)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        if ended == Holiday.Status.AWAY:
            messages.success(request, _("Welcome back: your games wait for you again."))
        else:
            messages.success(request, _("The holiday is cancelled."))
    return redirect(reverse("profile") + "#holidays")


@login_required
@require_POST
def time_zone_offer(request):
    """The player's answer to the time zone their browser gave (offered on every page
    while they are on UTC): "use it" sets it, "no thanks" is remembered, so the
    offer is not made again. Either way back to the page they were on."""
    profile = profile_of(request.user)
    if request.POST.get("answer") == "use":
        zone = request.POST.get("time_zone", "")
        try:
            validate_time_zone(zone)
        except ValidationError:
            messages.error(request, _("Your browser gave a time zone we do not know: choose yours on your profile."))
        else:
            profile.time_zone = zone
            profile.save(update_fields=["time_zone"])
            messages.success(request, _("Times are now shown in %(zone)s.") % {"zone": zone.replace("_", " ")})
    else:
        profile.time_zone_offer_declined = True
        profile.save(update_fields=["time_zone_offer_declined"])
    return _back(request)


@login_required
@require_POST
def mail_test(request):
    """The player asks, from the banner that says mail to their address fails, for
    a test email: the mark on the address is lifted and the email queued (a few a
    day: each may bounce, and a sender that keeps writing to a failing address loses
    its standing). If it bounces too, the banner comes back."""
    user = request.user
    key = f"accounts.mail_test:{user.pk}"
    cache.add(key, 0, 24 * 3600)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        count = 1
    if count > MAIL_TESTS_PER_DAY:
        messages.error(request, _("You have asked for enough test emails today: try again tomorrow."))
        return _back(request)
    with transaction.atomic():
        mail_failure_lifted(address=user.email)
        mail_test_requested(user=user)
    messages.success(
        request,
        _("A test email is on its way to %(address)s. If it bounces too, this page will say so.")
        % {"address": user.email},
    )
    return _back(request)


def _back(request):
    """Back to the page the form was on (its ``next``): a path of this site only;
    anything else (another site, a bare word redirect() would take for a URL name,
    a control character) goes home."""
    back = request.POST.get("next", "")
    on_this_site = url_has_allowed_host_and_scheme(back, {request.get_host()}, require_https=request.is_secure())
    if not (on_this_site and back.startswith("/") and back.isprintable()):
        back = reverse("home")
    return HttpResponseRedirect(back)


def _preference_sections(user, data) -> list:
    """Each game kind's form of the preferences it keeps per player (none for most)."""
    forms = (game_kind.forms.preferences_form(user, data) for game_kind in KINDS.values())
    return [form for form in forms if form is not None]


def remember_language(response, language: str):
    """Set the language cookie as Django's set_language does, with every
    LANGUAGE_COOKIE_* setting (Secure under HTTPS among them)."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
    return response


@require_POST
def set_language(request):
    """Django's set_language, and for a signed-in player the profile's language too
    (the profile wins over the cookie on every page, see ProfileLanguageMiddleware)."""
    response = django_set_language(request)
    language = request.POST.get("language")
    codes = {code for code, _name in settings.LANGUAGES}
    if request.user.is_authenticated and language in codes:
        profile_language_set(user=request.user, language=language)
    return response


# ---- leaving, and one's data ---------------------------------------------------------------

# Set in the session left after a deletion: a second click, or the form sent again
# from another tab, is told the account is gone rather than asked to sign in.
DELETED_KEY = "accounts.deleted_as"


def account_delete_page(request):
    """What deleting one's account does, and the form that does it: confirmed with
    the password, or, for an account without one, with a code emailed on asking."""
    if not request.user.is_authenticated:
        if DELETED_KEY in request.session:
            return _deleted_page(request, already=True)
        return redirect(f"{reverse('account_login')}?next={reverse('account_delete')}")
    user = request.user
    by_password = user.has_usable_password()
    error = ""
    if request.method == "POST" and request.POST.get("action") == "send-code" and not by_password:
        with transaction.atomic():
            deletion_code_send(session=request.session, user=user)
        messages.success(request, _("A code is on its way to %(address)s.") % {"address": user.email})
        return redirect("account_delete")
    if request.method == "POST":
        error = _confirmation_refused(request, by_password)
        if not error:
            try:
                name = account_delete(user=user)
            except AccountGone:
                name = ""
            logout(request)
            request.session[DELETED_KEY] = name
            return redirect("account_deleted")
    context = {
        "by_password": by_password,
        "code_sent": deletion_code_sent(request.session),
        "code_minutes": DELETION_CODE_MINUTES,
        "error": error,
    }
    return render(request, "accounts/delete.html", context, status=400 if error else 200)


def _confirmation_refused(request, by_password: bool) -> str:
    """Why the confirmation typed is refused, or "" when it is right."""
    if by_password:
        if not request.user.check_password(request.POST.get("password", "")):
            return _("That is not your password. Your account is not deleted.")
        return ""
    problem = deletion_code_check(session=request.session, user=request.user, code=request.POST.get("code", ""))
    return {
        "": "",
        "none": _("Ask for a code first: it is emailed to you."),
        "expired": _("That code has expired, or was tried too many times: ask for a new one."),
        "wrong": _("That is not the code we sent. Your account is not deleted."),
    }[problem]


def account_deleted(request):
    """The page after a deletion."""
    return _deleted_page(request, already=False)


def _deleted_page(request, *, already: bool):
    name = request.session.get(DELETED_KEY)
    if name is None:
        return redirect("home")
    return render(request, "accounts/deleted.html", {"name": name, "already": already}, status=410 if already else 200)


@login_required
def data_export(request):
    """Ask for one's data; the latest export asked for, with its link once ready."""
    if request.method == "POST":
        data_export_request(user=request.user)
        messages.success(
            request, _("Your data is being prepared. We will email you a link when it is ready; it is also here.")
        )
        return redirect("data_export")
    latest = DataExport.objects.filter(user=request.user).defer("archive").first()
    context = {
        "export": latest,
        "download_url": reverse("data_export_download", args=[export_token(latest)]) if latest else "",
        "days": EXPORT_KEPT.days,
    }
    return render(request, "accounts/data_export.html", context)


@login_required
def data_export_download(request, token: str):
    """The zip of an export, to its owner only, while its link lasts."""
    link = export_link_read(token, request.user)
    if link.problem:
        problems = {
            "expired": _("This download link has expired. Ask for your data again: it takes a minute or two."),
            "not yours": _(
                "This download link belongs to another account. Sign in as its owner, or ask for your own data."
            ),
            "invalid": _("This download link is not valid: copy the whole link from the email."),
            "not ready": _("Your data is still being prepared: we will email you when it is ready."),
        }
        statuses = {"expired": 410, "not yours": 403, "invalid": 404, "not ready": 409}
        context = {"problem": problems[link.problem]}
        return render(request, "accounts/data_export.html", context, status=statuses[link.problem])
    response = HttpResponse(link.archive, content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{link.filename}"'
    return response
