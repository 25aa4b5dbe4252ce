"""Field rules for listing metadata: each returns a clean value or raises ValueError."""

import re
from urllib.parse import urlsplit

from dalil.core.text import plain_text

# "+212 522-12 34 56", "(05) 22.12/34": a digit first, or "+" or "(" before it.
_PHONE = re.compile(r"\+?\(?[0-9][0-9 ()./-]*")
_EMAIL = re.compile(r"[A-Za-z0-9._%+'-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+")
STATUSES = ("published", "hidden", "draft")


def clean_phone(value):
    phone = plain_text(value)
    if phone and not _PHONE.fullmatch(phone):
        raise ValueError(f"Phone {phone!r} is not a phone number (digits, spaces, + ( ) . / -)")
    return phone


def clean_email(value):
    email = plain_text(value)
    if email and not _EMAIL.fullmatch(email):
        raise ValueError(f"Email {email!r} is not an e-mail address")
    return email


def clean_website(value):
    website = plain_text(value)
    if not website:
        return ""
    parts = urlsplit(website)
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc or " " in website:
        raise ValueError(f"Website {website!r} is not an http(s) URL")
    return website


def clean_image(value):
    """A root-relative path under the site (``/images/x.jpg``) or an http(s) URL."""
    image = plain_text(value)
    if not image:
        return ""
    if image.startswith(("http://", "https://")):
        return clean_website(image)
    path = "/" + image.lstrip("/")
    if ".." in path.split("/") or ":" in path or "\\" in path or any(c in path for c in "\"'<>?#"):
        raise ValueError(f"Image {image!r} is not a path inside the site")
    return path


def clean_status(value):
    status = (value or "published").strip().lower()
    if status not in STATUSES:
        raise ValueError(f"Status {status!r} is not one of {', '.join(STATUSES)}")
    return status


def clean_keywords(value):
    """A category's ``Keywords``: comma-separated (Latin or Arabic comma), each plain text;
    a repeated ``Keywords:`` line adds to the list. Empty and repeated words are dropped."""
    lines = value if isinstance(value, list) else [value or ""]
    words = (plain_text(word) for line in lines for word in re.split(r"[,،]", str(line)))
    return tuple(dict.fromkeys(word for word in words if word))
