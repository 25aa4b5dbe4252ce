"""vCard folding and escaping on model objects, read back with vobject."""

import unicodedata

import pytest
import vobject
from hypothesis import given, settings
from hypothesis import strategies as st

from dalil.core.text import plain_text
from dalil.directory.model import Listing, Term
from dalil.exports.vcard import fold_line, listing_vcard


def make_listing(name, **fields):
    city = Term(kind="city", slug="fes", name="فاس", name_en="", name_fr="", province="FES",
                description="", source_path="", url="", save_as="")
    category = Term(kind="category", slug="cafes", name="مقاهي", name_en="", name_fr="",
                    province="", description="", source_path="", url="", save_as="")
    values = dict(slug="x", name=name, name_en="", name_fr="", category=category, city=city,
                  street="", postal_code="", country="", phone="", email="", website="",
                  image="", date=None, modified=None, summary="", content="",
                  status="published", source_path="", url="directory/listing/x/",
                  save_as="directory/listing/x/index.html")
    values.update(fields)
    return Listing(**values)


def check_octets(text):
    assert text.endswith("\r\n")
    for line in text.encode("utf-8").split(b"\r\n"):
        assert len(line) <= 75


def test_sixty_arabic_letters_are_folded_by_octets():
    # 63 characters but 123 octets: vobject alone leaves this line unfolded.
    text = listing_vcard(make_listing("م" * 60))
    check_octets(text)
    assert "\r\n " in text
    assert vobject.readOne(text).fn.value == "م" * 60


@pytest.mark.parametrize("length, folded", [(75, False), (76, True)])
def test_fold_boundary_in_ascii(length, folded):
    line = "FN:" + "a" * (length - 3)
    assert ("\r\n " in fold_line(line)) is folded
    assert fold_line(line).replace("\r\n ", "") == line + "\r\n"


@pytest.mark.parametrize("offset", range(4))
def test_fold_never_splits_a_four_byte_character(offset):
    line = "FN:" + "a" * (70 + offset) + "🍽" * 10
    folded = fold_line(line)
    for piece in folded.encode("utf-8").split(b"\r\n"):
        assert len(piece) <= 75
        piece.decode("utf-8")
    assert folded.replace("\r\n ", "") == line + "\r\n"


def test_escapes_comma_semicolon_backslash_and_newline_in_every_text_field():
    listing = make_listing("a,b;c\\d", street="شارع 1; رقم 2, يمين\nخلف", postal_code="30,000")
    text = listing_vcard(listing)
    unfolded = text.replace("\r\n ", "")
    assert "FN:a\\,b\\;c\\\\d\r\n" in unfolded
    assert "ADR;TYPE=WORK:;;شارع 1\\; رقم 2\\, يمين\\nخلف;فاس;FES;30\\,000;\r\n" in unfolded
    card = vobject.readOne(text)
    assert card.fn.value == "a,b;c\\d"
    assert card.adr.value.street == "شارع 1; رقم 2, يمين\nخلف"
    assert card.adr.value.code == "30,000"


names = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=300).map(
    plain_text).filter(bool)


@settings(max_examples=150, deadline=None)
@given(name=names, street=names)
def test_any_plain_text_name_folds_within_75_octets_and_parses_back(name, street):
    text = listing_vcard(make_listing(name, street=street))
    check_octets(text)
    card = vobject.readOne(text)
    assert card.fn.value == name
    assert card.adr.value.street == street
    assert unicodedata.is_normalized("NFC", card.fn.value)
