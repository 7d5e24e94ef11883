"""A database address as it may be shown: in logs, in the operator's messages and in
`Settings`' repr, every secret of it hidden. Apart from the backends, so that whatever
reports on a database can import it without importing the database itself."""

from __future__ import annotations

from urllib.parse import unquote_plus, urlsplit, urlunsplit

#: Query parameters whose value is a secret, however a driver spells it (libpq and asyncpg
#: take `?password=`, `?sslpassword=`; other tools `pwd`, `passwd`, `token`, `secret`...).
SECRET_PARAMETER_PARTS = ("password", "passwd", "pwd", "pass", "secret", "token", "key")
#: Parameters that name a file or a choice, not a secret, although their names look like one.
PLAIN_PARAMETERS = frozenset({"sslkey", "passfile", "sslpasswordfile"})


def without_password(url: str) -> str:
    """`url` with every secret in it replaced by `***`, for logs and messages: the password
    of its user part and the value of any secret-looking query parameter.

    >>> without_password("postgresql://shogi:pw@db/shogi?sslmode=require&password=pw")
    'postgresql://shogi:***@db/shogi?sslmode=require&password=***'
    """
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:  # not an address at all (an unclosed [ in the host): show nothing of it
        return "(an address that cannot be read)"
    netloc = parts.netloc
    if password is not None:
        netloc = f"{parts.username or ''}:***@{parts.netloc.rsplit('@', 1)[1]}"
    query = "&".join(_hidden_parameter(field) for field in parts.query.split("&"))
    if netloc == parts.netloc and query == parts.query:
        return url
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def _hidden_parameter(field: str) -> str:
    name, equals, value = field.partition("=")
    if not equals or not value or not is_secret_parameter(unquote_plus(name)):
        return field
    return f"{name}=***"


def is_secret_parameter(name: str) -> bool:
    """Whether a URL query parameter of this name carries a secret (`password`, `sslpassword`,
    `PWD`, `api_token`, ...), case aside; `sslkey` (a file's path) does not."""
    lowered = name.strip().lower()
    if lowered in PLAIN_PARAMETERS:
        return False
    return any(part in lowered for part in SECRET_PARAMETER_PARTS)
