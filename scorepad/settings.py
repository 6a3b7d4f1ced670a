"""Schreiber settings: one file, configured from the environment.

DATABASE_URL          default: SQLite file db.sqlite3 in the project folder
DJANGO_DEBUG          "1"/"true" to debug (default off)
DJANGO_SECRET_KEY     required when not debugging
DJANGO_ALLOWED_HOSTS  comma-separated (default: localhost names)
SCHREIBER_CACHE_URL   redis://host:port/db, shared by all workers (default: memory per process)
SCHREIBER_ONE_PROCESS "1": the deployment is one process (default: on when debugging)
DJANGO_BEHIND_PROXY   "1": behind one reverse proxy that sets X-Forwarded-Proto/-For
SCHREIBER_TRUSTED_PROXIES  the proxies whose X-Forwarded-For counts: addresses or networks,
                      comma-separated (default 127.0.0.1,::1; gunicorn.conf.py reads it too)
SCHREIBER_IPV6_PREFIX  the bits of an IPv6 address that name one client for every limit
                      per address (default 64)
SCHREIBER_SIGNUPS_PER_HOUR  new accounts per client address and hour (default 10; 0: no limit)
SCHREIBER_GUEST_SESSIONS_PER_HOUR  sessions started without an account per client address
                      and hour (default 20; 0: no limit)
SCHREIBER_GUEST_DAYS  days after its last use that a guest never claimed is removed by
                      ``manage.py prune_guests`` (default 90)
EMAIL_URL             smtp://user:password@host:587?tls=1, smtps://..., console:// (default:
                      none: no mail; password resets by a staff member's link)
SCHREIBER_MAIL_FROM   the sender of mails (default: schreiber@<first allowed host>)
SCHREIBER_BASE_URL    https://host the site is reached at, for links printed by commands
"""

from __future__ import annotations

import ipaddress
import os
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def _flag(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return value.strip().lower() in ("1", "true", "yes", "on")


DEBUG = _flag("DJANGO_DEBUG")

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY is not set. Set it to a long random string (for example "
            "`python -c 'import secrets; print(secrets.token_urlsafe(50))'`), or set "
            "DJANGO_DEBUG=1 for local development."
        )
    SECRET_KEY = "insecure-debug-only-key"

ALLOWED_HOSTS = [
    h.strip()
    for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",")
    if h.strip()
]

#: The games this Schreiber keeps score for: one package each, in the order the pages offer
#: them (scorepad.games reads this; docs/games.md, "Adding a game"). Each is a Django app,
#: installed below: its templates, static files and translations are found as any app's.
#: Nothing else names a game.
SCHREIBER_GAMES = [
    "scorepad.games.mulatschak",
    "scorepad.games.mura",
    "scorepad.games.muller_matz",
]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "template_partials",
    "csp",
    "axes",
    "scorepad",
    *SCHREIBER_GAMES,
]

MIDDLEWARE = [
    # First: what a proxy says (https? which client?) only from a trusted proxy.
    "scorepad.middleware.ForwardedHeadersMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Static files right after the security headers (whitenoise's own advice): hashed,
    # precompressed, and without the pages' headers (a content security policy says
    # nothing to a script or a stylesheet, and cost ~240 bytes on each of a first
    # visit's files: bench/README.md, its Lighthouse section).
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "scorepad.middleware.BodyLimitMiddleware",
    # Pages compress ~4× (bench/page_weight.py); Django pads compressed answers against
    # BREACH. Static files come precompressed from whitenoise and are left alone.
    "scorepad.middleware.PageGZipMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "scorepad.middleware.CachedAuthenticationMiddleware",
    # A phone that plays without an account is logged in again by its cookie.
    "scorepad.guests.GuestMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # A tournament table's phone is its table on that table's pages (its cookie).
    "scorepad.tablephone.TablePhoneMiddleware",
    "axes.middleware.AxesMiddleware",
    # Last, so that its process_exception sees a view's error first: a lost database
    # connection answers 503 with Retry-After, not 500.
    "scorepad.middleware.DatabaseUnavailableMiddleware",
]

ROOT_URLCONF = "scorepad.urls"

WSGI_APPLICATION = "scorepad.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            # What template_partials would set up by itself: its loader around Django's two
            # default loaders, cached (the second finds each game's templates in its app).
            "loaders": [("template_partials.loader.Loader", [
                ("django.template.loaders.cached.Loader", [
                    "django.template.loaders.filesystem.Loader",
                    "django.template.loaders.app_directories.Loader",
                ]),
            ])],
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "scorepad.pwa.owner_context",
                "scorepad.guests.context",
                "scorepad.tablephone.context",
            ],
        },
    },
]

# --- database -----------------------------------------------------------------
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=60,
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # IMMEDIATE transactions let concurrent writers queue instead of failing with
    # "database is locked"; WAL lets readers go on while one writes. FULL
    # flushes every commit to disk: a saved deal survives a power cut, not only a crash
    # of the app (NORMAL may lose the last commits); bench/sqlite_sync.py measures it.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;",
    }
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / "test-db.sqlite3")}
elif (DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
      and _flag("DJANGO_DB_PREPARED", True)):
    # Server-side binding lets psycopg prepare a statement the fifth time a connection
    # runs it: PostgreSQL then skips planning it, which cost more than running it for the
    # deal write's statements (bench/README.md). A pooler in transaction mode (PgBouncer
    # before 1.21) cannot keep prepared statements: DJANGO_DB_PREPARED=0 turns it off.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"server_side_binding": True, "prepare_threshold": 5})

# How long a write waits for a session's lock that another write holds (dealwrite.lock,
# PostgreSQL's lock_timeout) before it answers 503 with Retry-After
# (docs/deploy.md, "A write that waits too long"). SQLite's writers wait for its busy
# timeout (above) instead.
try:
    SCHREIBER_LOCK_SECONDS = float(os.environ.get("SCHREIBER_LOCK_SECONDS") or 5)
except ValueError:
    SCHREIBER_LOCK_SECONDS = -1.0
if not 0 < SCHREIBER_LOCK_SECONDS <= 60:
    raise ImproperlyConfigured("SCHREIBER_LOCK_SECONDS must be a number of seconds, 0 to 60")

# --- cache ----------------------------------------------------------------------------
# Rendered scoreboards are cached under keys naming the session's version
# (scorepad/cache/answers.py): never stale, correct per process. The fast poll
# (scorepad/cache/grants.py) also keeps each session's version and the access generations in
# the cache, and those must be seen by every process: SCHREIBER_CACHE_URL (Redis) shares
# the cache between workers and app servers. Without it each process has its own memory
# cache, and polls read the version from the database unless SCHREIBER_ONE_PROCESS says
# this whole deployment is one process (runserver, the tests).
CACHE_URL = (os.environ.get("SCHREIBER_CACHE_URL") or os.environ.get("DJANGO_REDIS_URL")
             or "").strip()
if CACHE_URL:
    if not CACHE_URL.startswith(("redis://", "rediss://", "unix://")):
        raise ImproperlyConfigured("SCHREIBER_CACHE_URL must be a redis:// URL")
    CACHES = {"default": {"BACKEND": "scorepad.cache.backend.RedisCache",
                          "LOCATION": CACHE_URL, "KEY_PREFIX": "schreiber"}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                          "LOCATION": "schreiber", "OPTIONS": {"MAX_ENTRIES": 2000}}}
#: May polls trust versions and access generations kept in the cache? Only when every
#: process sees the same cache: a shared one, or a deployment of one process.
SCHREIBER_CACHE_SHARED = bool(CACHE_URL) or _flag("SCHREIBER_ONE_PROCESS", DEBUG)
#: Login sessions in the database, read through the shared cache when every process sees
#: it (a page then asks no query for its login; accounts.sessions_end forgets the cached
#: copies of the sessions it ends).
SESSION_ENGINE = ("scorepad.cache.login_sessions" if SCHREIBER_CACHE_SHARED  # cached_db
                  else "django.contrib.sessions.backends.db")

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "scorepad:home"
LOGOUT_REDIRECT_URL = "scorepad:home"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- language -----------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("de", "Deutsch"), ("hu", "Magyar")]
LOCALE_PATHS = [BASE_DIR / "locale"]
#: Dates in each language's own way everywhere (pages and chart axes alike).
FORMAT_MODULE_PATH = ["scorepad.formats"]
USE_I18N = True
TIME_ZONE = "Europe/Vienna"
USE_TZ = True

# --- static files ---------------------------------------------------------------
STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "scorepad.minified.MinifiedStorage"  # whitenoise's, our files minified
        )
    },
}
# Tests and `manage.py check` run without collectstatic: fall back to finders then.
WHITENOISE_USE_FINDERS = True
WHITENOISE_MANIFEST_STRICT = False

# --- API ------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["scorepad.api.parsers.JSONParser"],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "scorepad.api.negotiation.FormatFirst",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "scorepad.api.auth.CachedTokenAuthentication",
        "scorepad.api.auth.TableCodeAuthentication",
        "scorepad.api.auth.AccountSessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "EXCEPTION_HANDLER": "scorepad.api.errors.exception_handler",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Schreiber API",
    "DESCRIPTION": (
        "The scorekeeper and referee for card tables (the games: `GET /api/v1/rules`). "
        "Rule violations answer 422 with every violation; malformed input answers 400."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # A PATCH takes the same shape as its serializer says (SessionPatchIn requires
    # "status"), not one with every field made optional.
    "COMPONENT_SPLIT_PATCH": False,
    # a tournament's status, and the one a PATCH sets (docs/tournaments.md)
    "ENUM_NAME_OVERRIDES": {
        "TournamentStatusEnum": ["registering", "playing", "finished"],
        "TournamentEndEnum": ["finished"],
        "StatusEnum": ["open", "closed"],
    },
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums",
                             "scorepad.api.scorepad_serializers.bodies_required"],
}

# --- security ---------------------------------------------------------------------
# The largest request body (a deal is < 2 KB): larger API requests answer 413 in JSON
# (scorepad.middleware); the reverse proxy should cut off at the same size (docs/deploy.md).
DATA_UPLOAD_MAX_MEMORY_SIZE = 256 * 1024
#: Export files larger than this are refused by the import endpoints and the upload form.
try:
    SCHREIBER_IMPORT_MAX_BYTES = int(os.environ.get("SCHREIBER_IMPORT_MAX_BYTES") or 5 << 20)
except ValueError:
    raise ImproperlyConfigured("SCHREIBER_IMPORT_MAX_BYTES must be a number of bytes") from None
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# No inline script anywhere: htmx and our one script come from our own static files.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
    }
}
# Login throttling by username *and* address: at a pub every phone shares one public IP,
# so three typos must not lock out the whole table (docs/using.md, "Several phones at one table").
AXES_ENABLED = _flag("DJANGO_LOGIN_THROTTLE", True)
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "scorepad.views.locked_out"
#: Behind the documented proxy every request comes from 127.0.0.1: the client's address is
#: the one the proxy appended to X-Forwarded-For, believed only from the trusted proxies
#: (addresses or networks; gunicorn.conf.py's forwarded_allow_ips reads the same variable).
#: Every limit per address counts an IPv6 client by its network of SCHREIBER_IPV6_PREFIX
#: bits (scorepad.limits.client_address; docs/deploy.md, "10. Accounts and access").
SCHREIBER_BEHIND_PROXY = _flag("DJANGO_BEHIND_PROXY")


def networks(value: str) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """Addresses and networks, comma-separated (``127.0.0.1,::1``, ``10.0.0.0/8``; ``*``:
    every address, as gunicorn's forwarded_allow_ips); ValueError for anything else."""
    out: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
    for item in (i.strip() for i in value.split(",")):
        if item == "*":
            out += [ipaddress.ip_network("0.0.0.0/0"), ipaddress.ip_network("::/0")]
        elif item:
            out.append(ipaddress.ip_network(item, strict=False))
    return out


try:
    SCHREIBER_TRUSTED_PROXIES = networks(
        os.environ.get("SCHREIBER_TRUSTED_PROXIES") or "127.0.0.1,::1")
    SCHREIBER_IPV6_PREFIX = int(os.environ.get("SCHREIBER_IPV6_PREFIX") or 64)
    if not 1 <= SCHREIBER_IPV6_PREFIX <= 128:
        raise ValueError(SCHREIBER_IPV6_PREFIX)
except ValueError:
    raise ImproperlyConfigured(
        "SCHREIBER_TRUSTED_PROXIES must be addresses or networks (127.0.0.1,::1 or "
        "10.0.0.0/8), comma-separated, and SCHREIBER_IPV6_PREFIX a number of bits from 1 "
        "to 128") from None
AXES_CLIENT_IP_CALLABLE = "scorepad.limits.client_address"
# New accounts per client address and hour (answers 429 with Retry-After beyond).
try:
    SCHREIBER_SIGNUPS_PER_HOUR = int(os.environ.get("SCHREIBER_SIGNUPS_PER_HOUR") or 10)
except ValueError:
    raise ImproperlyConfigured("SCHREIBER_SIGNUPS_PER_HOUR must be a whole number") from None
# Playing without an account ("Just play", scorepad/guests.py): sessions started per
# client address and hour, and the days a guest never claimed is kept after its last use.
try:
    SCHREIBER_GUEST_SESSIONS_PER_HOUR = int(
        os.environ.get("SCHREIBER_GUEST_SESSIONS_PER_HOUR") or 20)
    SCHREIBER_GUEST_DAYS = int(os.environ.get("SCHREIBER_GUEST_DAYS") or 90)
except ValueError:
    raise ImproperlyConfigured(
        "SCHREIBER_GUEST_SESSIONS_PER_HOUR and SCHREIBER_GUEST_DAYS must be whole numbers"
    ) from None
if not DEBUG:
    SECURE_SSL_REDIRECT = _flag("DJANGO_SECURE_SSL_REDIRECT", True)
    SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^ping$"]
    if SCHREIBER_BEHIND_PROXY:
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = 31_536_000
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = _flag("DJANGO_SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
    if SESSION_COOKIE_SECURE:
        SESSION_COOKIE_NAME = "__Host-sessionid"
        CSRF_COOKIE_NAME = "__Host-csrftoken"


# --- mail (optional) ----------------------------------------------------------------------
def email_settings(url: str) -> dict[str, Any]:
    """Django's mail settings from one URL: ``smtp://user:password@host:port?tls=1``
    (STARTTLS), ``smtps://...`` (TLS from the start, port 465 by default), ``console://``
    (mails printed to the log, for trying it out)."""
    parts = urlsplit(url)
    if parts.scheme == "console":
        return {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}
    if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
        raise ImproperlyConfigured("EMAIL_URL must look like smtp://user:password@host:587")
    query = parse_qs(parts.query)
    ssl = parts.scheme == "smtps" or query.get("ssl", [""])[0] in ("1", "true")
    return {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": parts.hostname,
        "EMAIL_PORT": parts.port or (465 if ssl else 25),
        "EMAIL_HOST_USER": unquote(parts.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
        "EMAIL_USE_SSL": ssl,
        "EMAIL_USE_TLS": not ssl and query.get("tls", [""])[0] in ("1", "true"),
        "EMAIL_TIMEOUT": 20,
    }


#: Is a mail server configured? Then forgotten passwords can also be reset by mail.
SCHREIBER_MAIL = bool((os.environ.get("EMAIL_URL") or "").strip())
if SCHREIBER_MAIL:
    globals().update(email_settings(os.environ["EMAIL_URL"].strip()))
DEFAULT_FROM_EMAIL = (os.environ.get("SCHREIBER_MAIL_FROM")
                      or f"schreiber@{(ALLOWED_HOSTS or ['localhost'])[0].strip('[]')}")
# One-time reset links (staff's or a mail's) are good for a day (and until used, and until
# the account's next login).
PASSWORD_RESET_TIMEOUT = 86400
#: Where the site is reached (https://schreiber.example.org): `manage.py reset_link`
#: prints full links under it (without it, and without --base-url, the path).
SCHREIBER_BASE_URL = os.environ.get("SCHREIBER_BASE_URL", "").strip().rstrip("/")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}
