"""A listing's contact card: vCard 3.0 in the interface's line order.

vobject is the reference (``listing_card``, ``listing_vcard_vobject``). It writes the
lines sorted by name and folds by counting characters, not octets (a line of 60
Arabic letters, 120 octets, stays unfolded). So the card uses a vobject behaviour
that lists the interface's order first, and vobject's unfolded lines are then folded
here at 75 octets, never inside a UTF-8 sequence.

A build writes ``listing_vcard``: the same lines made directly, with vobject's own
escaping (``backslashEscape``), twenty times faster. tests/exports/test_vcard_writer.py
proves the two byte-identical on the sample site, the test fixtures and fuzzed
listings; a change to one of them must be made to both.
"""

from vobject.base import Component, backslashEscape
from vobject.vcard import Address, Name, VCard3_0

CRLF = "\r\n"
LINE_LIMIT = 75  # octets, without the CRLF (RFC 2425 section 5.8.1)
_NO_FOLDING = 1 << 30


class _ListingCard(VCard3_0):
    """vCard 3.0 whose lines come in the interface's order (vobject sorts the rest)."""

    sortFirst = ("version", "fn", "n", "tel", "adr", "org", "url", "email", "geo", "rev")


def fold_line(line, limit=LINE_LIMIT):
    """``line`` folded into CRLF-ended pieces of at most ``limit`` octets each."""
    if len(line) <= limit // 4:  # four octets a character at most: fits whatever it holds
        return line + CRLF
    data = line.encode("utf-8")
    if len(data) <= limit:
        return line + CRLF
    pieces, start, width = [], 0, limit
    while True:
        end = min(start + width, len(data))
        while end < len(data) and data[end] & 0xC0 == 0x80:  # inside a UTF-8 sequence
            end -= 1
        pieces.append(data[start:end])
        if end == len(data):
            break
        start, width = end, limit - 1  # a continuation line starts with one space
    return b"\r\n ".join(pieces).decode("utf-8") + CRLF


def listing_card(listing):
    """The vobject component for ``listing``; a line whose data is missing is left out."""
    card = Component("VCARD")
    card.behavior, card.isNative = _ListingCard, False
    card.add("fn").value = listing.name
    card.add("n").value = Name()  # required by RFC 2426; empty for a business
    if listing.phone:
        tel = card.add("tel")
        tel.value, tel.type_param = listing.phone, ["WORK", "VOICE"]
    adr = card.add("adr")
    adr.value = Address(street=listing.street, city=listing.city.name,
                        region=listing.city.province, code=listing.postal_code,
                        country=listing.country)
    adr.type_param = "WORK"
    card.add("org").value = [listing.category.name]
    if listing.website:
        card.add("url").value = listing.website
    if listing.email:
        email = card.add("email")
        email.value, email.type_param = listing.email, ["INTERNET", "WORK"]
    if listing.has_coordinates:
        # RFC 2426 3.4.2: two floats separated by a semicolon, a structure vobject keeps as text.
        card.add("geo").value = ";".join(listing.coordinates_text)
    if listing.date_modified:
        card.add("rev").value = listing.date_modified
    return card


def listing_vcard_vobject(listing):
    """The card's text made by vobject (the reference): CRLF line ends, folded at 75 octets."""
    unfolded = listing_card(listing).serialize(lineLength=_NO_FOLDING)
    return "".join(fold_line(line) for line in unfolded.split(CRLF) if line)


def card_lines(listing):
    """The unfolded lines vobject writes for ``listing_card(listing)``, in its order."""
    lines = ["BEGIN:VCARD", "VERSION:3.0", "FN:" + backslashEscape(listing.name), "N:;;;;"]
    if listing.phone:
        lines.append("TEL;TYPE=WORK,VOICE:" + backslashEscape(listing.phone))
    address = ("", "", listing.street, listing.city.name, listing.city.province,
               listing.postal_code, listing.country)
    lines.append("ADR;TYPE=WORK:" + ";".join(backslashEscape(part) for part in address))
    lines.append("ORG:" + backslashEscape(listing.category.name))
    if listing.website:
        lines.append("URL:" + backslashEscape(listing.website))
    if listing.email:
        lines.append("EMAIL;TYPE=INTERNET,WORK:" + backslashEscape(listing.email))
    if listing.has_coordinates:
        lines.append("GEO:" + ";".join(listing.coordinates_text))  # vobject writes it raw
    if listing.date_modified:
        lines.append("REV:" + backslashEscape(listing.date_modified))
    lines.append("END:VCARD")
    return lines


def listing_vcard(listing):
    """The card's text as ``listing_vcard_vobject`` makes it: CRLF ends, folded at 75 octets."""
    return "".join(fold_line(line) for line in card_lines(listing))

