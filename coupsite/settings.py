"""Settings for the Coup play-by-email service.

Everything that differs between a laptop and production comes from the
environment (see README.md, "Configuration"). With no environment at all the
service runs embedded: SQLite in the project root, an in-memory cache, a Celery
broker in a folder under var/broker/ (`make run` starts the worker), and emails
stored in the Maildir var/mailbox/, listed at /mailbox/ when DEBUG is on.

DEBUG is off unless the environment turns it on (`make run` and `make test` do):
a server started with a forgotten variable is a production server, and it refuses
to start without a real SECRET_KEY.
"""

from pathlib import Path

from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _
from kombu import Queue

from coupsite.env import (
    cache_config,
    database_config,
    env_bool,
    env_int,
    env_list,
    env_str,
    mailer_config,
    secret_key_problem,
)
from games.kinds import APPS as GAME_KIND_APPS

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", False)

SECRET_KEY = env_str("SECRET_KEY")
if not DEBUG and (problem := secret_key_problem(SECRET_KEY)):
    # Whoever knows the key forges answer links, reply addresses and sessions.
    raise ImproperlyConfigured(
        f"{problem} Set SECRET_KEY to a long random string (e.g. `openssl rand -base64 48`), "
        "or DEBUG=1 on a development machine."
    )
if not SECRET_KEY:
    SECRET_KEY = "django-insecure-dev-only-do-not-use-in-production"
# Earlier keys, after a rotation: they still open what they signed or encrypted
# (sessions, links, the second factors' secrets) but sign nothing new.
SECRET_KEY_FALLBACKS = env_list("SECRET_KEY_FALLBACKS", [])

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    # Django's admin, on a site that refuses staff without a second factor (coupsite/admin.py).
    "coupsite.apps.AdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    # allauth's list of passkeys says when each was last used ("2 hours ago").
    "django.contrib.humanize",
    "allauth",
    "allauth.account",
    # Passkeys, authenticator apps and recovery codes; the list of signed-in sessions.
    "allauth.mfa",
    "allauth.usersessions",
    "anymail",
    "accounts",
    "games",
    "outbox",
    "ratings",
    *GAME_KIND_APPS,  # each game kind is an app, for its templates and template tags
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "coupsite.middleware.PermissionsPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # After authentication: a signed-in player's profile language wins.
    "accounts.middleware.ProfileLanguageMiddleware",
    # A game whose state cannot be read says so on its pages instead of failing.
    "games.web.middleware.UnreadableGameMiddleware",
    # Last: the refusal is worded in the language the middleware above chose.
    "coupsite.middleware.NulCharacterRefusedMiddleware",
]

ROOT_URLCONF = "coupsite.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.csp",
                "games.web.context_processors.kind_stylesheets",
                "games.web.context_processors.games_waiting",
            ],
        },
    },
]

WSGI_APPLICATION = "coupsite.wsgi.application"
ASGI_APPLICATION = "coupsite.asgi.application"

DATABASES = {"default": database_config(BASE_DIR)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env_str("REDIS_URL")
CACHES = {
    "default": cache_config(),
    # Page fragments the same for everyone who reads the site in one language (the
    # head's links, the header, the footer's language choice; a game page's card
    # reference and rules, per kind and variants): each process keeps those it
    # rendered. None with DEBUG on, where templates are edited live.
    "fragments": {
        "BACKEND": "django.core.cache.backends." + ("dummy.DummyCache" if DEBUG else "locmem.LocMemCache"),
        "LOCATION": "fragments",
    },
}

# Celery runs deadlines and sends email. With Redis it is the broker; without it
# (the embedded default) a folder under var/ is, and `make run` starts the workers
# beside the web server, so deadlines and emails work on one machine unchanged.
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL") or REDIS_URL or "filesystem://"
# One attempt to connect when handing a task over: the outbox relay is the retry
# (outbox/services.py), and a click must not wait for a broker that is down.
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, int | str] = {"max_retries": 0}
if CELERY_BROKER_URL == "filesystem://":
    CELERY_BROKER_FOLDER = BASE_DIR / "var" / "broker"
    CELERY_BROKER_FOLDER.mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS |= {
        "data_folder_in": str(CELERY_BROKER_FOLDER),
        "data_folder_out": str(CELERY_BROKER_FOLDER),
        "control_folder": str(CELERY_BROKER_FOLDER / "control"),
    }
# Set where the outbox relay runs as a process of its own (`manage.py outbox_relay`,
# as docker compose runs it): the site then leaves every hand-over to it.
OUTBOX_RELAY_PROCESS = env_bool("OUTBOX_RELAY_PROCESS", False)
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
# A worker survives a broker outage of any length, tries to reconnect every second,
# and asks for an outbox relay once it is back (coupsite/celery.py).
CELERY_WORKER_CONSUMER = "coupsite.celery:Consumer"
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# A task running when the broker goes finishes (it sends its email): cancelled, it
# would be lost with its message if Redis came back empty (Celery 6 may default to True).
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False
# Beat survives a failed write of its schedule file (coupsite/celery.py).
CELERY_BEAT_SCHEDULER = "coupsite.celery:Scheduler"
CELERY_TASK_ACKS_LATE = True  # every task is idempotent, so a redelivery is harmless
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = "UTC"
# Deadlines have a queue of their own, consumed by a worker that takes nothing else
# (`-Q deadlines`; see README, "Deadlines and emails"): however many emails and
# chores wait on the default queue, and however slow a mail server is, a deadline
# is applied when it falls due. Which queue a free worker reads first (the Redis
# transport's queue order) would not give that: a worker busy sending email reads
# no queue at all. A worker started without -Q consumes both (a small site).
CELERY_TASK_DEFAULT_QUEUE = "celery"
DEADLINE_QUEUE = "deadlines"
CELERY_TASK_QUEUES = [Queue(CELERY_TASK_DEFAULT_QUEUE), Queue(DEADLINE_QUEUE)]
# A player with the game's page open answers there: the email asking them for a
# decision waits this many seconds, and is sent only if the decision still waits.
DECISION_EMAIL_DELAY = env_int("DECISION_EMAIL_DELAY", 180)
# A reminder leaves its reader at least this many seconds to answer: an email may
# take seconds to arrive and more to be read, so one sent with less time left only
# arrives after the deadline. A reminder being sent when a quarter of the time is
# left, decisions shorter than four times this (a live game's) get none.
REMINDER_LEAST_NOTICE = env_int("REMINDER_LEAST_NOTICE", 60)
# The lobby's limits: seats one player may hold in open games not yet started, open
# games one host may have gathering; and how long a host whose open game did not
# fill has, once offered bots for its empty seats, before it is cancelled.
LOBBY_SEATS_WAITING = env_int("LOBBY_SEATS_WAITING", 10)
LOBBY_GAMES_PER_HOST = env_int("LOBBY_GAMES_PER_HOST", 3)
LOBBY_BOTS_OFFER_HOURS = env_int("LOBBY_BOTS_OFFER_HOURS", 24)

# Strangers meet at public games: how much one account may say, in every chat of
# every game together, in a minute, and how many games it may create in an hour.
CHAT_MESSAGES_PER_MINUTE = env_int("CHAT_MESSAGES_PER_MINUTE", 12)
GAMES_CREATED_PER_HOUR = env_int("GAMES_CREATED_PER_HOUR", 30)

CELERY_TASK_ROUTES = {
    "games.tasks.expire_deadline": {"queue": DEADLINE_QUEUE},
    "games.tasks.sweep_deadlines": {"queue": DEADLINE_QUEUE},
    "games.tasks.remind_game": {"queue": DEADLINE_QUEUE},  # timed like a deadline
    "games.tasks.sweep_holidays": {"queue": DEADLINE_QUEUE},  # holds and releases clocks
}
CELERY_BEAT_SCHEDULE = {
    # The sweep is what makes deadlines reliable; ETA tasks only make short ones prompt.
    "sweep-deadlines": {"task": "games.tasks.sweep_deadlines", "schedule": 60.0},
    "send-reminders": {"task": "games.tasks.send_reminders", "schedule": 60.0},
    # Holidays begin and end within a minute of their moment.
    "sweep-holidays": {"task": "games.tasks.sweep_holidays", "schedule": 60.0},
    # Every hour, the daily digest of the players whose chosen hour it now is in their zone.
    "send-digests": {"task": "games.tasks.send_digests", "schedule": crontab(minute=0)},
    # Tasks the broker could not take when their change was saved (outbox/services.py);
    # a run not started within the interval is dropped, the next one does its work.
    "relay-outbox": {"task": "outbox.tasks.relay", "schedule": 10.0, "options": {"expires": 10.0}},
    # Open games past the time their host chose: the offer of bots, then the end.
    "sweep-open-games": {"task": "games.tasks.sweep_open_games", "schedule": 600.0},
    # Every game's snapshot checked against a replay of its log.
    "verify-games": {"task": "games.tasks.verify_games", "schedule": crontab(minute=30, hour=3)},
    "forget-sent-emails": {"task": "games.tasks.forget_sent_emails", "schedule": crontab(minute=45, hour=3)},
    "forget-data-exports": {"task": "games.tasks.forget_data_exports", "schedule": crontab(minute=50, hour=3)},
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]

# django-allauth: the email address is the login; codes by email instead of passwords
# are offered too, which suits a service whose players live in their inbox.
ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
# Following the link in the confirmation email (in the browser that signed up) signs the player in.
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
# allauth's messages and emails name a player by their display name, never the username.
ACCOUNT_USER_DISPLAY = "accounts.models.display_name_of"
ACCOUNT_LOGIN_BY_CODE_ENABLED = True
ACCOUNT_UNIQUE_EMAIL = True
# Sign-up also asks for the name shown at the table and the language (accounts.Profile).
ACCOUNT_SIGNUP_FORM_CLASS = "accounts.forms.SignupForm"
# Sends nothing to an address that asked for no email (accounts.mail).
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
# Sign-up, login and password reset never tell whether an address has an account.
ACCOUNT_PREVENT_ENUMERATION = True
# allauth's rate limits count in the default cache: Redis when REDIS_URL is set, so
# every web process shares the counters. The defaults, written out to be visible.
ACCOUNT_RATE_LIMITS = {
    "login": "30/m/ip",
    "login_failed": "10/m/ip,5/300s/key",
    "signup": "20/m/ip",
    "request_login_code": "20/m/ip,3/m/key",
    "reset_password": "20/m/ip,5/m/key",
    "confirm_email": "1/180s/key",
}
# Behind a reverse proxy every request comes from the proxy's address, so one
# abuser would lock every player out: count the client address the trusted
# proxies put in X-Forwarded-For instead (the number of proxies in front).
ALLAUTH_TRUSTED_PROXY_COUNT = env_int("ALLAUTH_TRUSTED_PROXY_COUNT", 0)
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Coup] "
# A second factor for everyone who wants one, and for staff at the admin (coupsite/admin.py):
# passkeys (WebAuthn; also a sign-in of their own, without the password), codes from an
# authenticator app (TOTP), and recovery codes for the day the phone is lost.
MFA_SUPPORTED_TYPES = ["webauthn", "totp", "recovery_codes"]
# The TOTP keys and recovery-code seeds are stored encrypted (accounts/mfa_secrets.py).
MFA_ADAPTER = "accounts.mfa_secrets.MFAAdapter"
MFA_PASSKEY_LOGIN_ENABLED = True
MFA_FORMS = {"add_webauthn": "accounts.forms.AddPasskeyForm"}
# The name an authenticator app shows beside the codes (not translated: it names the site).
MFA_TOTP_ISSUER = "Coup by email"
LOGIN_REDIRECT_URL = "/"
LOGIN_URL = "account_login"

# Internationalization
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("es", _("Spanish")),
    ("pt-br", _("Brazilian Portuguese")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_HTTPONLY = True  # no script reads it
LANGUAGE_COOKIE_SAMESITE = "Lax"
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
if not DEBUG:
    # WhiteNoise serves /static/ under gunicorn: production needs no separate file server.
    MIDDLEWARE.insert(1, "whitenoise.middleware.WhiteNoiseMiddleware")
    STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }

# Email: SMTP when EMAIL_HOST is set, otherwise stored in the Maildir var/mailbox/.
MAILERS = {"default": mailer_config(BASE_DIR)}
# The site's public address, for links in emails.
SITE_URL = env_str("SITE_URL", "http://127.0.0.1:8000")
# Notifications are sent with a per-seat Reply-To (play+<seat tag>@domain); replies
# to it play the answer written on their first line.
REPLY_ADDRESS = env_str("REPLY_ADDRESS", "play@localhost")
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Coup by email <coup@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# DKIM: with a private key (PEM), mail sent over SMTP is signed as the domain of
# DEFAULT_FROM_EMAIL under this selector (coupsite/dkim_signing.py); `manage.py
# mail_check` prints the DNS records to publish.
DKIM_PRIVATE_KEY_FILE = env_str("DKIM_PRIVATE_KEY_FILE")
DKIM_SELECTOR = env_str("DKIM_SELECTOR", "mail")
# VERP: mail sent over SMTP leaves with an envelope sender of its own per recipient,
# bounce+<id>.<signature>@<domain of DEFAULT_FROM_EMAIL> (coupsite/smtp.py), where
# delivery reports come back to be read by read_mail (games/mail/bounces.py). Turn it
# off when the SMTP server is an email provider's relay that sets its own Return-Path.
VERP_BOUNCES = env_bool("VERP_BOUNCES", True)
# Replies may also arrive from an ESP through django-anymail's inbound webhook,
# /anymail/<INBOUND_ESP>/inbound/ (games/mail/inbound.py), mounted only when INBOUND_ESP
# names the provider; it must send the HTTP basic auth "user:password" set in
# ANYMAIL_WEBHOOK_SECRET (outside DEBUG the site refuses to start without it).
INBOUND_ESP = env_str("INBOUND_ESP").strip().lower()
ANYMAIL = {"WEBHOOK_SECRET": env_str("ANYMAIL_WEBHOOK_SECRET")}
# Or from a plain mailbox: `manage.py read_mail --imap --watch` reads the folder of
# IMAP_URL (imaps://user:password@host/INBOX) as mail arrives (games/mail/imap.py),
# with IDLE, or looking every IMAP_POLL_SECONDS on a server without it, and moves each
# message it handled to the first folder below, or one it could not to the second.
IMAP_URL = env_str("IMAP_URL")
IMAP_POLL_SECONDS = env_int("IMAP_POLL_SECONDS", 60)
IMAP_PROCESSED_FOLDER = env_str("IMAP_PROCESSED_FOLDER", "Processed")
IMAP_SET_ASIDE_FOLDER = env_str("IMAP_SET_ASIDE_FOLDER", "Set aside")

# HTTPS hardening, on by default in production. Set HTTPS=0 only when serving
# plain HTTP on purpose (e.g. trying the docker compose stack on localhost).
HTTPS = env_bool("HTTPS", not DEBUG)
if HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 60 * 60 * 24 * 30)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)

# Content-Security-Policy (Django's own): pages load scripts, styles, images and
# htmx requests from the site only. Templates hold no inline script, style or
# event handler, and htmx is told to evaluate nothing, so neither
# 'unsafe-inline' nor 'unsafe-eval' is needed. The nonce is for the admin's own
# inline <style>, which Django marks with it.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF, CSP.NONCE],
    "img-src": [CSP.SELF, "data:"],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}
# No page uses these browser features: no script (ours or injected) may either.
PERMISSIONS_POLICY: dict[str, list[str]] = {
    feature: []
    for feature in (
        "accelerometer",
        "camera",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "payment",
        "usb",
    )
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}

# Computer players: how long a bot waits before it answers (so a table of bots does
# not play a whole game in a second), the strong level's CPU time per decision, and
# the level that plays for a player who is away.
BOT_DELAY_SECONDS = float(env_str("BOT_DELAY_SECONDS") or 2)
BOT_BUDGET_SECONDS = float(env_str("BOT_BUDGET_SECONDS") or 1)
BOT_STAND_IN_LEVEL = "easy"
# A second opinion on a decision of a finished game (the replay's "what would the
# strong bot have done?"): the deals of the unseen cards it imagines (a count, not a
# time, so the answer is the same on any machine), and how many a player may ask
# for in 24 hours (each keeps a worker busy for a second or two).
SECOND_OPINION_WORLDS = env_int("SECOND_OPINION_WORLDS", 300)
SECOND_OPINIONS_PER_DAY = env_int("SECOND_OPINIONS_PER_DAY", 20)
