"""``/.well-known/security.txt`` (RFC 9116).

No library writes security.txt; its fields are checked here (one line each,
no whitespace in URIs) and joined as ``Name: value`` lines.
"""

import datetime as dt
import re

from dalil.core.dates import rfc3339
from dalil.core.urls import absolute_url

_EMAIL = re.compile(r"[^@\s:/<>\"]+@[^@\s/<>\"]+\.[^@\s/<>\"]+")
_URI = re.compile(r"(mailto:|https://|tel:)\S+")
_LANGUAGE = re.compile(r"[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*")
YEAR_DAYS = 365


def contact_uris(value):
    """``security@x.example`` -> ``mailto:security@x.example``; URIs are kept."""
    values = [value] if isinstance(value, str) else list(value or ())
    uris = []
    for item in values:
        item = str(item).strip()
        if _EMAIL.fullmatch(item):
            uris.append("mailto:" + item)
        elif _URI.fullmatch(item):
            uris.append(item)
        else:
            raise ValueError(f"{item!r} is neither an e-mail address nor a mailto:, https: "
                             "or tel: URI")
    return uris


def site_uri(siteurl, value):
    """An https URI for a setting that may be a path of the site.

    A path needs an https SITEURL (RFC 9116 asks for https URIs): a development
    build without one gets ``""``, and the field is left out.
    """
    value = str(value or "").strip()
    if not value:
        return ""
    if value.startswith(("http://", "https://")):
        if not value.startswith("https://") or not _URI.fullmatch(value):
            raise ValueError(f"{value!r} is not an https URL")
        return value
    return absolute_url(siteurl, value) if siteurl.startswith("https://") else ""


def security_txt(config, siteurl, built_at):
    """The file's text; Canonical and Policy only where they are https URIs."""
    days = int(config.security_expires_days)
    if days < 1:
        raise ValueError(f"DALIL_SITEFILES_SECURITY_EXPIRES_DAYS is {days}: it must be 1 or more")
    languages = list(config.security_preferred_languages)
    for language in languages:
        if not _LANGUAGE.fullmatch(str(language)):
            raise ValueError(f"{language!r} in DALIL_SITEFILES_SECURITY_PREFERRED_LANGUAGES "
                             "is not a language tag")
    fields = [("Contact", uri) for uri in contact_uris(config.security_contact)]
    fields.append(("Expires", rfc3339(built_at + dt.timedelta(days=days))))
    if languages:
        fields.append(("Preferred-Languages", ", ".join(languages)))
    canonical = site_uri(siteurl or "", config.security_txt_save_as)
    if canonical:
        fields.append(("Canonical", canonical))
    policy = site_uri(siteurl or "", config.security_policy)
    if policy:
        fields.append(("Policy", policy))
    return "".join(f"{name}: {value}\n" for name, value in fields)
