"""Sign a Mini App's ``initData`` as Telegram does (written from Telegram's documentation, not
with aiogram's checker, so the tests compare two independent implementations).

https://core.telegram.org/bots/webapps#validating-data-received-via-the-web-app: the data-check
string is every field but ``hash``, ``key=value`` sorted by key and joined by newlines; the
secret key is HMAC-SHA256 of the bot's token keyed with ``"WebAppData"``; ``hash`` is the hex
HMAC-SHA256 of the data-check string with that secret key.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from datetime import datetime
from urllib.parse import parse_qsl, urlencode


def sign_init_data(token: str, user_id: int, auth_date: datetime, *,
                   first_name: str = "Host", language_code: str = "en",
                   query_id: str = "AAE-test") -> str:
    user = json.dumps({"id": user_id, "first_name": first_name,
                       "language_code": language_code}, separators=(",", ":"))
    fields = {"auth_date": str(int(auth_date.timestamp())), "query_id": query_id,
              "user": user}
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    fields["hash"] = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return urlencode(fields)


def forge(init_data: str, user_id: int) -> str:
    """Signed data with another user id put in, its hash kept (which no longer matches)."""
    fields = dict(parse_qsl(init_data))
    user = json.loads(fields["user"])
    user["id"] = user_id
    fields["user"] = json.dumps(user, separators=(",", ":"))
    return urlencode(fields)
