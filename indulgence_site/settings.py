"""Settings for Indulgence Online, read from environment variables.

Two modes, chosen by ``DJANGO_ENV``:

* ``development`` (default): safe to run on a laptop with no services. SQLite in
  ``var/``, a generated ``SECRET_KEY`` kept in ``var/secret_key``, and without
  ``REDIS_URL`` every Celery task runs in-process right after the transaction that
  queued it commits (see ``CELERY_TASK_ALWAYS_EAGER`` below).
* ``production``: ``SECRET_KEY`` is required, ``DEBUG`` defaults to off, secure cookies.

Every variable is listed in README.md ("Configuration").
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

import dj_database_url
from csp.constants import NONCE
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("INDULGENCE_VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool) -> bool:
    """Read a boolean environment variable ("1/true/yes/on" or "0/false/no/off")."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), got {raw!r}.")


def env_list(name: str, default: str) -> list[str]:
    """Read a comma-separated environment variable."""
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def _development_secret_key() -> str:
    """A random key generated once per checkout and kept in var/ (never committed)."""
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    key_file = VAR_DIR / "secret_key"
    if not key_file.exists():
        key_file.write_text(secrets.token_urlsafe(50))
        key_file.chmod(0o600)
    return key_file.read_text().strip()


DJANGO_ENV = os.environ.get("DJANGO_ENV", "development").strip().lower()
if DJANGO_ENV not in {"development", "production"}:
    raise ImproperlyConfigured(
        f"DJANGO_ENV must be 'development' or 'production', not {DJANGO_ENV!r}."
    )
PRODUCTION = DJANGO_ENV == "production"

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if PRODUCTION:
        raise ImproperlyConfigured("SECRET_KEY must be set when DJANGO_ENV=production.")
    SECRET_KEY = _development_secret_key()

DEBUG = env_bool("DEBUG", default=not PRODUCTION)
# Web, stream and worker processes freeze their start-up heap (indulgence_site.runtime).
GC_FREEZE = env_bool("GC_FREEZE", default=True)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")
# Reverse proxies whose X-Forwarded-For is believed (games/client_address.py); empty: none.
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES", "")
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "template_partials",
    "csp",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",  # the Content-Security-Policy below, on every response
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "games.web.middleware.PlayerLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, so that it sees the views' exceptions first: an unreachable database is a 503.
    "games.db_errors.DatabaseUnavailableMiddleware",
]

ROOT_URLCONF = "indulgence_site.urls"
WSGI_APPLICATION = "indulgence_site.wsgi.application"
ASGI_APPLICATION = "indulgence_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------
VAR_DIR.mkdir(parents=True, exist_ok=True)
DATABASE_URL = os.environ.get("DATABASE_URL", f"sqlite:///{VAR_DIR / 'db.sqlite3'}")
_db = dj_database_url.parse(DATABASE_URL)
# Server-side parameter binding lets psycopg prepare a statement on the server once a
# connection has run it twice; every request runs the same few statements, and PostgreSQL
# then skips parsing and planning them (measured: about half of PostgreSQL's CPU per move,
# docs/performance.md). Behind a pooler in transaction mode without prepared-statement
# support (PgBouncer < 1.21), set DB_SERVER_SIDE_BINDING=false.
POSTGRES_BINDING_OPTIONS: dict[str, Any] = (
    {"server_side_binding": True, "prepare_threshold": 2}
    if env_bool("DB_SERVER_SIDE_BINDING", default=True)
    else {}
)
if _db["ENGINE"] == "django.db.backends.postgresql":
    if env_bool("DB_POOL", default=False):
        # Under ASGI, persistent connections (CONN_MAX_AGE) leak one connection per
        # request; psycopg's pool is the supported way to reuse connections there.
        _db["CONN_MAX_AGE"] = 0
        _db.setdefault("OPTIONS", {})["pool"] = {
            "min_size": 1,
            "max_size": int(os.environ.get("DB_POOL_MAX", "10")),
        }
        # Django then has the pool test a connection as it leaves the pool and replace it
        # if dead (a PostgreSQL restart kills every idle one): the request gets a live one.
        _db["CONN_HEALTH_CHECKS"] = True
    else:
        _db["CONN_MAX_AGE"] = int(os.environ.get("DB_CONN_MAX_AGE", "60"))
        _db["CONN_HEALTH_CHECKS"] = True
    _db.setdefault("OPTIONS", {}).update(POSTGRES_BINDING_OPTIONS)
elif _db["ENGINE"] == "django.db.backends.sqlite3":
    # WAL + a busy timeout let the web process and an embedded worker share the file.
    _db.setdefault("OPTIONS", {}).update(
        {"timeout": 20, "transaction_mode": "IMMEDIATE", "init_command": "PRAGMA journal_mode=WAL;"}
    )
DATABASES = {"default": _db}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis, cache, Celery -------------------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "").strip()


def redis_caches(url: str) -> dict[str, Any]:
    """The cache configuration with Redis (also used by the Redis fault test, so that it
    runs with exactly this). Timeouts: an unreachable Redis fails fast, and the throttles
    and rate limits then let requests through (games/api/throttles.py)."""
    return {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": url,
            "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2},
        }
    }


if REDIS_URL:
    CACHES = redis_caches(REDIS_URL)
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Without Redis there is no broker: tasks run in the web process, but only ever from
# ``transaction.on_commit`` callbacks (games.tasks.enqueue_on_commit), so they see
# committed data exactly as a real worker would. With Redis, real workers do the work.
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", default=not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_DEFAULT_QUEUE = "indulgence"
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Redis redelivers a task that was taken but not acknowledged (acks_late: the worker died
# mid-task) after this many seconds; keep it above the longest task's run time.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "300"))
}
CELERY_TIMEZONE = "UTC"
# Each worker writes a heartbeat into Redis this often; /healthz reads its age and counts a
# worker silent for three intervals as gone (indulgence_site.health).
WORKER_HEARTBEAT_SECONDS = float(os.environ.get("WORKER_HEARTBEAT_SECONDS", "10"))

# --- Auth, i18n, static ---------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    # Checks nothing: a changed password revokes the account's API tokens.
    {"NAME": "games.password_tokens.RevokeTokensOnPasswordChange"},
]
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("ja", "日本語")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", VAR_DIR / "staticfiles"))
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # whitenoise warns on every start without it
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

# --- Email ----------------------------------------------------------------------------
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend"
    if PRODUCTION
    else "django.core.mail.backends.console.EmailBackend",
)
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", default=False)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Indulgence Online <noreply@localhost>")
# How long the link that confirms an email address works (games/email_addresses.py).
EMAIL_CONFIRM_SECONDS = int(os.environ.get("EMAIL_CONFIRM_SECONDS", str(2 * 24 * 3600)))
# The header's bell polls this often while the account stream is closed (static/js/inbox.js).
INBOX_POLL_SECONDS = float(os.environ.get("INBOX_POLL_SECONDS", "15"))

# --- REST API -------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "games.api.authentication.BearerTokenAuthentication",
        "games.api.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": [
        "games.api.permissions.ReadPublicWriteAuthenticated",
        "games.api.permissions.TokenScopes",
    ],
    "DEFAULT_THROTTLE_CLASSES": [
        "games.api.throttles.AnonThrottle",
        "games.api.throttles.UserThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("API_RATE_ANON", "60/min"),
        "user": os.environ.get("API_RATE_USER", "1200/min"),
        "actions": os.environ.get("API_RATE_ACTIONS", "600/min"),
    },
    "DEFAULT_PAGINATION_CLASS": "games.api.pagination.Pagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "games.api.exceptions.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Indulgence Online API",
    "DESCRIPTION": "Play Indulgence by notification: games, actions, live streams.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": "/api/v1",
    "PREPROCESSING_HOOKS": ["games.api.schema.drop_alternate_routes"],
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "games.api.schema.add_stream_paths",  # the SSE streams (plain Django views)
    ],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "FamilyEnum": "games.api.shapes_indulgence.FAMILIES",
        "GameStatusEnum": "games.models.GameStatus",
        "DisputeStatusEnum": "games.models.DisputeStatus",
        "DeliveryStatusEnum": "games.models.DeliveryStatus",
        "NotificationKindEnum": "games.models.NotificationKind",
        "EmailStatusEnum": "games.models.EmailStatus",
        # Many games (issue 24): each game's own values, and every game's.
        "GameTypeEnum": "games.kinds.KEYS",
        "IndulgenceGameTypeEnum": ["indulgence"],
        "EleusisGameTypeEnum": ["eleusis"],
        "PaxGameTypeEnum": ["pax"],
        "VariantEnum": "games.models.Variant",
        "EleusisVariantEnum": "games.api.shapes_eleusis.VARIANTS",
        "PaxVariantEnum": "games.api.shapes_pax.VARIANTS",
        "AnyVariantEnum": "games.api.serializers.ALL_VARIANTS",
    },
}

# --- Play by notification (issue 5): streams, deadlines, notifications, webhooks ----------
# Added by the notifications/streams work; every value can be set from the environment.
# The built-in bot that moves for a player whose time ran out (and takes the seat over
# after AUTOPILOT_HANDOVER_AFTER autopilot moves in a row).
AUTOPILOT_BOT = os.environ.get("AUTOPILOT_BOT", "heuristic")
# The least time a searching bot takes over a move, in seconds. ISMCTS usually thinks about
# half a second to a second; without a floor it answered at once when it held a single
# legal card, and the public move times told everyone so (issue 26).
BOT_MIN_THINK_SECONDS = {"ismcts": float(os.environ.get("BOT_MIN_THINK_ISMCTS", "0.5"))}
AUTOPILOT_HANDOVER_AFTER = 3
TURN_REMINDER_FRACTION = 0.8  # the reminder goes out at 80% of the time allowed
# Celery beat runs games.deadlines_sweep this often (without beat: manage.py sweep_deadlines).
DEADLINE_SWEEP_SECONDS = float(os.environ.get("DEADLINE_SWEEP_SECONDS", "10"))
# A game waiting on a bot or a settlement for this long gets its task queued again.
STALLED_GAME_SECONDS = float(os.environ.get("STALLED_GAME_SECONDS", "30"))
# Email delivery (games.notifications): attempts before an email is marked failed, the
# first retry's wait (doubled each time), how long a pending email may wait in the queue
# before the sweep queues it again (its message was lost) and how old a "sending" claim
# must be before the sweep takes it back (the worker died mid-send).
EMAIL_MAX_ATTEMPTS = int(os.environ.get("EMAIL_MAX_ATTEMPTS", "6"))
EMAIL_RETRY_BASE_SECONDS = float(os.environ.get("EMAIL_RETRY_BASE_SECONDS", "30"))
EMAIL_REQUEUE_SECONDS = float(os.environ.get("EMAIL_REQUEUE_SECONDS", "60"))
EMAIL_CLAIM_STALE_SECONDS = float(os.environ.get("EMAIL_CLAIM_STALE_SECONDS", "600"))
# Separate queues let several stacks (or test sessions) share one Redis database.
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_TASK_DEFAULT_QUEUE", CELERY_TASK_DEFAULT_QUEUE)
# Webhook deliveries and emails wait in their own queue (games.tasks.route_task), so that
# bot turns and settlements never wait behind a slow receiver or mail server; compose.yaml
# gives it its own worker. A worker started without -Q consumes both queues.
# Empty: the default queue's name + "-notify" (games.tasks.notify_queue).
TASK_NOTIFY_QUEUE = os.environ.get("CELERY_NOTIFY_QUEUE", "").strip()
CELERY_TASK_ROUTES = ("games.tasks.route_task",)
CELERY_TASK_QUEUES = {
    name: {"exchange": name, "routing_key": name}
    for name in (
        CELERY_TASK_DEFAULT_QUEUE,
        TASK_NOTIFY_QUEUE or f"{CELERY_TASK_DEFAULT_QUEUE}-notify",
    )
}
CELERY_BEAT_SCHEDULE = {
    "deadlines-sweep": {"task": "games.deadlines_sweep", "schedule": DEADLINE_SWEEP_SECONDS},
}
# Web page writes (games.web.ratelimit): "N/sec|min|hour|day", or "" for no limit.
WEB_RATE_LIMITS = {
    scope: os.environ.get(f"WEB_RATE_{scope.upper()}", default)
    for scope, default in {
        "act": "120/min",
        "create": "20/min",
        "login": "10/min",
        "login_address": "30/min",
        "signup": "10/hour",
        "profile": "30/min",
        "check": "30/min",
    }.items()
}
# What makes the server email someone (games.mail_limits): challenges, disputes, password
# resets, per account and per client address; "N/sec|min|hour|day", or "" for no limit.
MAIL_RATE_LIMITS = {
    name: os.environ.get(f"MAIL_RATE_{name.upper()}", default)
    for name, default in {
        "challenge_account": "20/hour",
        "challenge_address": "60/hour",
        "dispute_account": "5/hour",
        "dispute_address": "20/hour",
        "password_reset_account": "3/hour",
        "password_reset_address": "10/hour",
        "email_confirm_account": "3/hour",
        "email_confirm_address": "10/hour",
    }.items()
}
# Server-Sent Events (games.streams).
EVENTS_CHANNEL_PREFIX = os.environ.get("EVENTS_CHANNEL_PREFIX", "indulgence")
STREAM_KEEPALIVE_SECONDS = float(os.environ.get("STREAM_KEEPALIVE_SECONDS", "15"))
STREAM_MAX_SECONDS = float(os.environ.get("STREAM_MAX_SECONDS", "300"))
STREAM_POLL_SECONDS = float(os.environ.get("STREAM_POLL_SECONDS", "0.5"))  # without Redis
STREAM_FALLBACK_POLL_SECONDS = float(os.environ.get("STREAM_FALLBACK_POLL_SECONDS", "5"))
STREAM_RETRY_MILLISECONDS = int(os.environ.get("STREAM_RETRY_MILLISECONDS", "2000"))
# Open streams at once per client address and per account (games.stream_slots); 0: no limit.
STREAM_MAX_PER_ADDRESS = int(os.environ.get("STREAM_MAX_PER_ADDRESS", "20"))
STREAM_MAX_PER_ACCOUNT = int(os.environ.get("STREAM_MAX_PER_ACCOUNT", "10"))
# Webhooks (games.webhooks): retry n waits base * 2**(n-1) seconds.
WEBHOOK_RETRY_BASE_SECONDS = float(os.environ.get("WEBHOOK_RETRY_BASE_SECONDS", "10"))
WEBHOOK_MAX_ATTEMPTS = int(os.environ.get("WEBHOOK_MAX_ATTEMPTS", "8"))
WEBHOOK_TIMEOUT_SECONDS = float(os.environ.get("WEBHOOK_TIMEOUT_SECONDS", "5"))
WEBHOOK_ALLOW_PRIVATE_ADDRESSES = env_bool(
    "WEBHOOK_ALLOW_PRIVATE_ADDRESSES", default=not PRODUCTION
)
# Ports a webhook URL may use (games.webhook_net); empty: any (the development default).
WEBHOOK_ALLOWED_PORTS = [
    int(port) for port in env_list("WEBHOOK_ALLOWED_PORTS", "80,443" if PRODUCTION else "")
]
# At most this much of a receiver's answer is read (only its status line matters).
WEBHOOK_MAX_RESPONSE_BYTES = int(os.environ.get("WEBHOOK_MAX_RESPONSE_BYTES", "65536"))

# --- Content-Security-Policy (django-csp) ------------------------------------------------
# Every page loads its scripts and styles from /static/ only: no inline script, style or
# event handler, and htmx runs without eval (base.html's htmx-config: allowEval false,
# includeIndicatorStyles false). A page that needs an inline block (the API's Swagger page)
# marks it with request.csp_nonce, which adds that one nonce to the header.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'", NONCE],
        "style-src": ["'self'", NONCE],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# --- Security in production -----------------------------------------------------------
if PRODUCTION:
    # Browsers keep to HTTPS for this long once they saw the site over HTTPS (sent only on
    # HTTPS responses). 0 turns it off; start low when first moving a site to HTTPS.
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(365 * 24 * 3600)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=False)
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", default=True)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_CONTENT_TYPE_NOSNIFF = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}
