"""Django settings for the Nardy tournament service.

Everything comes from environment variables (see the table in README.md), with defaults that make
a fresh checkout run locally: DEBUG on, a SQLite file in the project, Celery in eager mode. A
malformed value stops start-up with ImproperlyConfigured naming the variable.
"""

import os
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from nardy_site.env import (
    env_bool,
    env_broker_url,
    env_cache,
    env_database,
    env_int,
    env_list,
    env_rate,
    env_str,
    env_timezone,
    env_url,
)
from nardy_site.logs import logging_config

BASE_DIR = Path(__file__).resolve().parent.parent

# --- Core -------------------------------------------------------------------------------------

# On by default so that `make run` works on a fresh clone; production sets DJANGO_DEBUG=0.
DEBUG = env_bool("DJANGO_DEBUG", True)

#: The key of local runs: known to everyone who reads this file, so refused when debug is off.
DEVELOPMENT_SECRET_KEY = "django-insecure-development-only-key-do-not-use-in-production"
SECRET_KEY = env_str("DJANGO_SECRET_KEY")
if SECRET_KEY is None:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY: required when DJANGO_DEBUG is off")
    SECRET_KEY = DEVELOPMENT_SECRET_KEY
elif SECRET_KEY == DEVELOPMENT_SECRET_KEY and not DEBUG:
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY: the development key is public; set a long random key when "
        "DJANGO_DEBUG is off"
    )

ALLOWED_HOSTS = env_list(
    "DJANGO_ALLOWED_HOSTS",
    ["localhost", "127.0.0.1", "[::1]", "testserver"] if DEBUG else [],
)
if not ALLOWED_HOSTS:
    raise ImproperlyConfigured("DJANGO_ALLOWED_HOSTS: required when DJANGO_DEBUG is off")

CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

# --- HTTPS, cookies and browser protections ---------------------------------------------------
# Off while debug is on (the dev server speaks plain HTTP); on by default in production. Each
# can be switched with its variable, e.g. when TLS is not terminated in front of Django at all.

#: Behind a TLS-terminating proxy or load balancer that sets X-Forwarded-Proto (and appends the
#: client's address to X-Forwarded-For): trust those headers. Only set it when every request
#: reaches Django through that proxy, which must overwrite X-Forwarded-Proto from clients.
BEHIND_TLS_PROXY = env_bool("DJANGO_BEHIND_TLS_PROXY", False)
#: How many trusted proxies append to X-Forwarded-For: the client's address is the one this many
#: places from the right (the leftmost entries are whatever the client sent, so never trusted).
TRUSTED_PROXY_COUNT = env_int("DJANGO_TRUSTED_PROXY_COUNT", 1, minimum=1, maximum=10)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if BEHIND_TLS_PROXY else None

SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", not DEBUG)
# The load balancer's health check speaks plain HTTP (matched against the path without its "/").
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 0 if DEBUG else 31_536_000, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", True)
# Preloading is a commitment made on hstspreload.org for the whole registrable domain and hard to
# undo, so it is opt-in; its deploy check (security.W021) is silenced while it is off.
SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", False)
SILENCED_SYSTEM_CHECKS: list[str] = []
if not SECURE_HSTS_PRELOAD:
    SILENCED_SYSTEM_CHECKS.append("security.W021")
if not SECURE_HSTS_INCLUDE_SUBDOMAINS:
    # Only when switched off on purpose (the default is on): the operator's decision.
    SILENCED_SYSTEM_CHECKS.append("security.W005")

_secure_cookies = env_bool("DJANGO_SECURE_COOKIES", not DEBUG)
SESSION_COOKIE_SECURE = _secure_cookies
CSRF_COOKIE_SECURE = _secure_cookies
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"

SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_ratelimit",
    "nardy_site.health",
    "nardy_site.accounts",
    "games",
    "tournaments",
    # The tournament app's sub-packages with models, tasks or subscriptions of their own: their
    # models keep the tournaments app's tables (app_label), so moving code changed no table.
    "tournaments.clubs",
    "tournaments.players",
    "tournaments.signups",
    "tournaments.seasons",
    "tournaments.ratings",
    "tournaments.analysis",
    "tournaments.matches.live",
    "tournaments.officials",
    "tournaments.norms",
]

MIDDLEWARE = [
    "nardy_site.logs.RequestLogMiddleware",  # first: it times and names every request
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # Before anything reads a body (the CSRF check, forms, the API's parsers); after the locale,
    # so that its 413 speaks the user's language.
    "nardy_site.body_limit.BodyLimitMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Who changed something is served nothing older than the change (nardy_site.page_cache).
    "nardy_site.page_cache.ChangeMakersMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "nardy_site.urls"

# --- Logs: one line per event on stderr; JSON in production ------------------------------------

LOGGING = logging_config(level=env_str("LOG_LEVEL", "INFO"), json=env_bool("LOG_JSON", not DEBUG))
WSGI_APPLICATION = "nardy_site.wsgi.application"
ASGI_APPLICATION = "nardy_site.asgi.application"

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
                # The reader's inbox count (partials/own_nav.html), read only when drawn.
                "tournaments.web.inbox.inbox",
            ],
        },
    },
]

# --- Database ---------------------------------------------------------------------------------

DATABASES = {
    "default": env_database(
        "DATABASE_URL",
        {"ENGINE": "django.db.backends.sqlite3", "NAME": BASE_DIR / "db.sqlite3"},
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 0, minimum=0),
    )
}
# Kept connections are checked before reuse, so a restarted database costs no failed request.
DATABASES["default"]["CONN_HEALTH_CHECKS"] = DATABASES["default"].get("CONN_MAX_AGE", 0) > 0
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool(
    "DATABASE_PREPARED_STATEMENTS", True
):
    # Statements are bound on the server and prepared once a kept connection has run them twice,
    # so a page's or an entry's queries are planned once per connection, not per request: planning
    # a join of five tables costs PostgreSQL more than running it. (Off behind PgBouncer in
    # transaction mode, which cannot keep a prepared statement between transactions.)
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"server_side_binding": True, "prepare_threshold": 2}
    )
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Writers (the site, a worker, threads) wait for each other instead of failing with
    # "database is locked": write transactions take the lock when they begin.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 30, "transaction_mode": "IMMEDIATE"}
    )
    _sqlite_name = Path(DATABASES["default"]["NAME"])
    if str(_sqlite_name) != ":memory:":
        # A file, not the in-memory default, so that a Celery worker started by the integration
        # test (another process) sees the same test database (it is given its path); one per
        # test run, so that two runs on one checkout never share (and destroy) each other's.
        DATABASES["default"]["TEST"] = {
            "NAME": _sqlite_name.with_name(f"test_{os.getpid()}_{_sqlite_name.name}"),
        }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Cache ------------------------------------------------------------------------------------

# The login rate limits count failures here. The default memory cache is per process: with
# several gunicorn workers each counts alone, so production sets CACHE_URL to a shared Redis
# (`check --deploy` warns when it does not).
CACHES = {
    "default": {
        **env_cache(
            "CACHE_URL",
            {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "nardy"},
        ),
        "KEY_PREFIX": "nardy",
    }
}
#: Public pages are shared among visitors who are not logged in (nardy_site.page_cache): a page
#: is rendered again at most this often while results come in, so such a visitor may see it up
#: to this many seconds old. Logged-in users always get pages as they are now.
PUBLIC_PAGE_REFRESH_SECONDS = env_int("PUBLIC_PAGE_REFRESH_SECONDS", 3, minimum=0)
#: A match recorded at the table (tournaments.matches.live) that its last entry decided: its
#: players may take that entry back for this many seconds after it was made (the server's clock),
#: and the match is played on; an organizer may take it back later too.
LIVE_UNDO_WINDOW_SECONDS = env_int("LIVE_UNDO_WINDOW_SECONDS", 30, minimum=0, maximum=3600)
#: A spectator's follow of a match being recorded (GET …/live/next with the ETag it has) waits
#: this long for the next entry before it answers 304 (tournaments.matches.live.follow). Below
#: nginx's proxy_read_timeout (35 s in the README).
LIVE_FOLLOW_WAIT_SECONDS = env_int("LIVE_FOLLOW_WAIT_SECONDS", 25, minimum=0, maximum=30)
#: Under WSGI a waiting follow holds a thread: fine for runserver (a thread per request), not for
#: gunicorn's few threads, which answer at once (production serves follows from an ASGI server).
LIVE_FOLLOW_WAIT_UNDER_WSGI = env_bool("LIVE_FOLLOW_WAIT_UNDER_WSGI", DEBUG)
#: Where writers publish each new state to the follow servers: the cache's Redis, when it is one.
_CACHE_IS_REDIS = CACHES["default"]["BACKEND"].endswith("RedisCache")
LIVE_FOLLOW_REDIS_URL = CACHES["default"]["LOCATION"] if _CACHE_IS_REDIS else ""

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Every password check (the site's login, the admin's) goes through this backend, which refuses
# without checking the password once a username or a client address has too many recent failures.
AUTHENTICATION_BACKENDS = ["nardy_site.accounts.backends.RateLimitedModelBackend"]
#: Failed logins allowed per username, and per client address, within the window (seconds);
#: more are answered 429 until the window that began with the first failure ends.
LOGIN_FAILURES_PER_USERNAME = env_int("LOGIN_FAILURES_PER_USERNAME", 5, minimum=1)
LOGIN_FAILURES_PER_IP = env_int("LOGIN_FAILURES_PER_IP", 20, minimum=1)
LOGIN_FAILURE_WINDOW_SECONDS = env_int("LOGIN_FAILURE_WINDOW_SECONDS", 900, minimum=1)

# --- Rate limits on the expensive writes (nardy_site.throttle, with django-ratelimit) ----------
# Each is "count/period" (s, m, h or d, optionally after a number: "60/10m"), counted per user
# and per tournament in fixed windows in the default cache; one more is answered 429 with
# Retry-After and changes nothing. A correction is matches/<id>/correct; an upload is a result
# write that carries games or a .mat (and records/validate); an analysis request is an upload
# stored for a Short Nardy match (gnubg analyses it). A burst across a window's edge may pass
# up to twice a count, so the per-user correction limit stays under 10: 20 corrections in a
# second are always refused. An organizer entering 40 results with .mat files in an hour, each
# checked first, stays far below every limit.
CORRECTIONS_PER_USER = env_rate("CORRECTIONS_PER_USER", "5/m")
CORRECTIONS_PER_TOURNAMENT = env_rate("CORRECTIONS_PER_TOURNAMENT", "30/h")
UPLOADS_PER_USER = env_rate("UPLOADS_PER_USER", "60/10m")
UPLOADS_PER_TOURNAMENT = env_rate("UPLOADS_PER_TOURNAMENT", "600/h")
ANALYSES_PER_USER = env_rate("ANALYSES_PER_USER", "60/h")
ANALYSES_PER_TOURNAMENT = env_rate("ANALYSES_PER_TOURNAMENT", "240/h")
# A public page drawn for one request alone (a search), per user or client address: the shared
# copies serve everything else. An entry form's name field searches as one types (every 250 ms).
DRAWINGS_PER_CLIENT = env_rate("DRAWINGS_PER_CLIENT", "120/m")
RATELIMIT_USE_CACHE = "default"
# The cache down (a miss on every call): the writes go on unlimited, as logins do, and the
# throttle logs it. TolerantRedisCache itself turns a Redis error into a miss.
RATELIMIT_FAIL_OPEN = True
# django-ratelimit's own checks: E003 refuses the in-process cache of local mode (one process,
# so its counts are right); a production without a shared cache is what accounts.W001 reports
# under `check --deploy`. W001 ("not officially supported") predates Django's own Redis cache,
# whose add and incr are atomic (SET NX, INCR), as TolerantRedisCache's are.
if CACHES["default"]["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache":
    SILENCED_SYSTEM_CHECKS.append("django_ratelimit.E003")
SILENCED_SYSTEM_CHECKS.append("django_ratelimit.W001")

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# --- Internationalisation ---------------------------------------------------------------------

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("ru", _("Russian")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = env_timezone("TIME_ZONE", "UTC")
USE_TZ = True

# --- Static files (served by WhiteNoise) ------------------------------------------------------

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# The site's own CSS and JS, served locally: clubs play where the internet is bad.
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # The manifest storage needs `manage.py collectstatic`, which production runs on deploy.
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage",
    },
}
# Look for files on each request in local mode (as runserver does) instead of scanning STATIC_ROOT
# once at start-up, which only exists after collectstatic.
WHITENOISE_AUTOREFRESH = DEBUG

# --- Celery -----------------------------------------------------------------------------------

# Unset broker: eager mode, tasks run in-process when enqueued and their exceptions propagate.
_broker_url = env_broker_url("CELERY_BROKER_URL")
CELERY_TASK_ALWAYS_EAGER = _broker_url is None
CELERY_TASK_EAGER_PROPAGATES = True
# In eager mode Celery still takes a producer from the (in-memory) transport: naming its host
# keeps kombu from warning "No hostname was supplied" on every start.
CELERY_BROKER_URL = _broker_url or "memory://localhost/"
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_RESULT_BACKEND = env_url("CELERY_RESULT_BACKEND")
CELERY_TASK_IGNORE_RESULT = CELERY_RESULT_BACKEND is None
# Tasks are written to be safe to run twice, so a task is acknowledged only once it has run.
CELERY_TASK_ACKS_LATE = True
#: Match analysis by GNU Backgammon: "auto" (when gnubg is installed), "on" or "off"; the plies
#: of its evaluation (0 is fast); the most seconds one match may take (the task's time limit).
ANALYSIS = (env_str("ANALYSIS", "auto") or "auto").lower()
if ANALYSIS not in ("auto", "on", "off"):
    raise ImproperlyConfigured(f"ANALYSIS: auto, on or off, not {ANALYSIS!r}")
ANALYSIS_PLIES = env_int("ANALYSIS_PLIES", 0, minimum=0, maximum=4)
#: Long Nardy is analysed by the project's own engine (games.engine), always at hand: 1-ply
#: (each of the opponent's rolls looked at, seconds a match) where a worker does it; 0-ply (the
#: network alone, a fraction of a second) where tasks run in the request (no broker: make run);
#: 2-ply (each of those replies' rolls too, pruned as gnubg prunes) takes about 100 s for a
#: median match to 3 points: a long match needs a longer ANALYSIS_TIMEOUT.
LONG_ANALYSIS_PLIES = env_int(
    "LONG_ANALYSIS_PLIES", 0 if CELERY_TASK_ALWAYS_EAGER else 1, minimum=0, maximum=2
)
#: gnubg's analysis has a queue of its own: ratings never wait behind it.
CELERY_TASK_ROUTES = {"tournaments.analysis.tasks.analysis_run": {"queue": "analysis"}}
ANALYSIS_TIMEOUT = env_int("ANALYSIS_TIMEOUT", 600, minimum=10)

CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = TIME_ZONE

#: A single rating change larger than this (points, FIBS or Elo) is held for a rating officer
#: to confirm before it counts (tournaments.ledger).
RATING_REVIEW_THRESHOLD = env_int("RATING_REVIEW_THRESHOLD", 100, minimum=1)

# --- REST API ---------------------------------------------------------------------------------

REST_FRAMEWORK = {
    # Token first: an unauthenticated request is answered 401 with "WWW-Authenticate: Token".
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "nardy_site.accounts.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": [
        "django_filters.rest_framework.DjangoFilterBackend",
        "rest_framework.filters.OrderingFilter",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "nardy_site.api_errors.exception_handler",
    # Numbers are JSON numbers: a decimal (a score, points) is never written as a string. Their
    # one precision is tournaments.api.serializers' POINTS_PLACES and RATING_PLACES.
    "COERCE_DECIMAL_TO_STRING": False,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Nardy tournaments API",
    "DESCRIPTION": (
        "Tournaments, results, standings and ratings of Long Nardy and Short Nardy clubs, and "
        'the rules engine: every error is {"error": {"code", "message", "details"}}.'
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # The API's pages load Swagger UI and Redoc from the site's own static files.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "MatchSideEnum": "games.models.Game.SIDES",
        "VariantEnum": "tournaments.models.Tournament.Variant",
        # A tournament's dave_progression, and the live kit's match rules' progression.
        "DaveProgressionEnum": "tournaments.models.Tournament.Progression",
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
        "MatchSideNameEnum": ["home", "away"],
        "ColourEnum": ["white", "black"],
        "MatchStatusEnum": "tournaments.models.Match.Status",
        "KindEnum": "tournaments.api.inbox.KINDS",
        "LiveFrameKindEnum": "tournaments.api.live_schema.FRAME_KINDS",
        "TimeControlKindEnum": "tournaments.scoring.clock.KINDS",
        "JudgeRoleEnum": "tournaments.officials.models.Judge.Role",
        "RoleEnum": "tournaments.clubs.models.Membership.Role",
        # {"double": true}, {"take": true}, {"drop": true}: one name for the three.
        "TrueEnum": [(True, True)],
    },
    # The spectators' long-poll, a plain async view drf-spectacular does not see, is declared
    # by a hook (after drf-spectacular's own, which names the enums).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "tournaments.api.live_schema.add_live_next",
    ],
}
#: The largest request body the site and the API read (a .mat upload): a larger one is refused
#: with 413, unread (nardy_site.body_limit). Django's own limit on what it reads into memory is
#: the same number, so there is one rule.
API_MAX_UPLOAD_BYTES = env_int("API_MAX_UPLOAD_BYTES", 2_000_000, minimum=1_000)
DATA_UPLOAD_MAX_MEMORY_SIZE = API_MAX_UPLOAD_BYTES
