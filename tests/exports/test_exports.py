"""export.json, its schema, export.csv and the vCards of the fixture site, each read with
an independent reader (json + jsonschema, csv, vobject) and checked value by value."""

import csv
import io
import json

import jsonschema
import pytest
import vobject
from bs4 import BeautifulSoup

from tests import sitebuilder as sb

from .fixtures import FIELDS, FULL_WEBSITE, LONG_NAME, TRICKY_NAME, expected_records

PUBLISHED = ["atlas-pharmacy", "formula", "friends-cafe", "long-name", "zaytouna"]


def vcard_path(slug):
    return f"directory/listing/{slug}/contact.vcf"


def read_card(site, slug):
    """The card's text with its CRLFs (``site.read`` would translate them)."""
    return site.read(vcard_path(slug), "rb").decode("utf-8")


# -- export.json -------------------------------------------------------------

@pytest.fixture(scope="module")
def records(exports_site):
    raw = exports_site.read("directory/export.json", "rb")
    assert not raw.startswith(b"\xef\xbb\xbf")
    return json.loads(raw.decode("utf-8"))


@pytest.fixture(scope="module")
def schema(exports_site):
    schema = json.loads(exports_site.read("schemas/directory-export.schema.json"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema


def test_json_export_holds_the_expected_records_in_slug_order(records):
    assert records == expected_records()
    for record in records:
        assert list(record) == FIELDS  # the seed's field order


def test_json_export_is_valid_against_its_schema(records, schema):
    validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
    validator.validate(records)
    assert schema["$id"] == sb.SITEURL + "/schemas/directory-export.schema.json"


@pytest.mark.parametrize("change", [
    {"dateModified": "2026-10-02 16:30"}, {"url": "/directory/listing/x/"}, {"phone": None},
    {"fax": "1"}, {"image": "images/z.svg"}, {"name": ""},
])
def test_schema_rejects_records_that_break_the_rules(records, schema, change):
    record = dict(records[-1])
    for key, value in change.items():
        if value is None:
            del record[key]
        else:
            record[key] = value
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate([record], schema)


def test_json_is_utf8_without_escapes(exports_site):
    text = exports_site.read("directory/export.json")
    assert "مطعم الزيتونة" in text and "\\u" not in text


def test_draft_and_hidden_listings_are_absent_everywhere(exports_site, records):
    for relpath in ("directory/export.json", "directory/export.csv"):
        text = exports_site.read(relpath)
        for value in ("مخبزة قادمة", "future-bakery", "draft@bakery.example", "متجر مخفي",
                      "secret-shop", "+212 500 000 00"):
            assert value not in text, (relpath, value)
    for slug in ("future-bakery", "secret-shop"):
        assert not any(slug in path for path in exports_site.files()
                       if not path.endswith(".html")), slug
    assert not exports_site.path(vcard_path("future-bakery")).exists()
    assert not exports_site.path("drafts/listing/future-bakery/contact.vcf").exists()


# -- export.csv --------------------------------------------------------------

@pytest.fixture(scope="module")
def csv_rows(exports_site):
    raw = exports_site.read("directory/export.csv", "rb")
    assert raw.startswith(b"\xef\xbb\xbf")
    text = raw.decode("utf-8-sig")
    return list(csv.reader(io.StringIO(text, newline="")))


def test_csv_has_bom_and_crlf_line_ends(exports_site):
    raw = exports_site.read("directory/export.csv", "rb")
    assert raw.count(b"\r\n") == len(PUBLISHED) + 1
    assert raw.count(b"\n") == raw.count(b"\r\n") and raw.endswith(b"\r\n")


def test_csv_holds_the_json_records_with_formulas_neutralised(csv_rows, records):
    assert csv_rows[0] == FIELDS
    guarded = {"=1+2": "'=1+2", "-x@formula.example": "'-x@formula.example",
               "@SUM(1;2)، الدار البيضاء، المغرب": "'@SUM(1;2)، الدار البيضاء، المغرب"}
    expected = [[guarded.get(record[name], record[name]) for name in FIELDS] for record in records]
    assert csv_rows[1:] == expected
    assert [row[2] for row in csv_rows[1:]] == ["", "+212 661-234567", "", "0522 98 76 54",
                                                "+212 522 123 456"]


def test_csv_quotes_the_tricky_name(exports_site, csv_rows):
    assert csv_rows[3][0] == TRICKY_NAME
    text = exports_site.read("directory/export.csv")
    quoted = '"' + TRICKY_NAME.replace('"', '""') + '"'
    assert quoted in text


# -- vCards ------------------------------------------------------------------

def unfolded_lines(raw):
    return raw.replace("\r\n ", "").split("\r\n")[:-1]


@pytest.mark.parametrize("slug", PUBLISHED)
def test_every_vcard_is_crlf_and_folded_at_75_octets(exports_site, slug):
    raw = exports_site.read(vcard_path(slug), "rb")
    assert raw.endswith(b"\r\n") and raw.count(b"\n") == raw.count(b"\r\n")
    for line in raw.split(b"\r\n"):
        assert len(line) <= 75, line
        line.decode("utf-8")  # no line ends inside a UTF-8 sequence


def test_full_vcard_lines_in_interface_order(exports_site):
    raw = read_card(exports_site, "zaytouna")
    assert unfolded_lines(raw) == [
        "BEGIN:VCARD",
        "VERSION:3.0",
        "FN:مطعم الزيتونة",
        "N:;;;;",
        "TEL;TYPE=WORK,VOICE:+212 522 123 456",
        "ADR;TYPE=WORK:;;12 شارع محمد الخامس، الطابق 2;الدار البيضاء;CAS;20000;المغرب",
        "ORG:مطاعم",
        "URL:https://zaytouna.example/menu?a=1\\,2\\;b=3",
        "EMAIL;TYPE=INTERNET,WORK:contact@zaytouna.example",
        "GEO:33.5731;-7.5898",
        "REV:" + expected_records()[-1]["dateModified"],
        "END:VCARD",
    ]


def test_full_vcard_parses_back(exports_site):
    card = vobject.readOne(read_card(exports_site, "zaytouna"))
    assert card.version.value == "3.0"
    assert card.fn.value == "مطعم الزيتونة"
    assert card.tel.value == "+212 522 123 456"
    assert card.tel.params["TYPE"] == ["WORK", "VOICE"]
    adr = card.adr.value
    assert (adr.box, adr.extended, adr.street, adr.city, adr.region, adr.code, adr.country) == (
        "", "", "12 شارع محمد الخامس، الطابق 2", "الدار البيضاء", "CAS", "20000", "المغرب")
    assert card.adr.params["TYPE"] == ["WORK"]
    assert card.org.value == ["مطاعم"]
    assert card.url.value == FULL_WEBSITE
    assert card.email.value == "contact@zaytouna.example"
    assert card.email.params["TYPE"] == ["INTERNET", "WORK"]
    assert card.rev.value == expected_records()[-1]["dateModified"]
    latitude, longitude = (float(part) for part in card.geo.value.split(";"))
    assert (latitude, longitude) == (33.5731, -7.5898)


def test_vcard_geo_is_plain_decimals_and_absent_without_coordinates(exports_site):
    assert vobject.readOne(read_card(exports_site, "long-name")).geo.value == "0.00001;0"
    assert "geo" not in vobject.readOne(read_card(exports_site, "atlas-pharmacy")).contents


def test_minimal_vcard_leaves_out_missing_lines(exports_site):
    raw = read_card(exports_site, "atlas-pharmacy")
    assert unfolded_lines(raw) == [
        "BEGIN:VCARD", "VERSION:3.0", "FN:صيدلية الأطلس", "N:;;;;",
        "ADR;TYPE=WORK:;;;الدار البيضاء;CAS;;المغرب", "ORG:صيدليات", "END:VCARD",
    ]
    card = vobject.readOne(raw)
    assert sorted(card.contents) == ["adr", "fn", "n", "org", "version"]


def test_tricky_name_is_escaped_and_read_back_collapsed(exports_site):
    raw = read_card(exports_site, "friends-cafe")
    fn_line = next(line for line in unfolded_lines(raw) if line.startswith("FN:"))
    assert fn_line == ('FN:مقهى "الأصدقاء" & شركاؤهم\\; فرع <الميناء>\\, طنجة \\\\ الجديدة'
                       " الفرع الثاني")
    card = vobject.readOne(raw)
    # The source name held a newline; plain text collapses it to one space.
    assert card.fn.value == TRICKY_NAME and "\n" not in card.fn.value
    assert card.adr.value.city == "الرباط" and card.adr.value.region == "RAB"


def test_long_name_is_folded_and_parses_back_exactly(exports_site):
    raw = exports_site.read(vcard_path("long-name"), "rb")
    fn_lines = raw.split(b"\r\n")[2:]
    assert fn_lines[0].startswith(b"FN:") and fn_lines[1].startswith(b" ")
    assert len(LONG_NAME.encode()) > 3 * 75
    card = vobject.readOne(raw.decode("utf-8"))
    assert card.fn.value == LONG_NAME
    assert card.tel.value == "0522 98 76 54"
    assert card.url.value == "https://long.example/"


def test_every_published_listing_page_links_its_card(exports_site):
    cards = sorted(path.split("/")[2] for path in exports_site.files()
                   if path.endswith("/contact.vcf"))
    assert cards == PUBLISHED
    for slug in PUBLISHED:
        page = BeautifulSoup(exports_site.read(f"directory/listing/{slug}/index.html"),
                             "html.parser")
        link = page.find("a", href=f"{sb.SITEURL}/{vcard_path(slug)}")
        assert link is not None and link.has_attr("download"), slug


# -- settings ----------------------------------------------------------------

def test_empty_save_as_turns_outputs_off(tmp_path):
    files = sb.base_files()
    files.update(sb.listing("one", "مطعم واحد"))
    result = sb.build_site(tmp_path, files, DALIL_EXPORTS_CSV_SAVE_AS="",
                           DALIL_EXPORTS_VCARD_SAVE_AS="", DALIL_EXPORTS_SCHEMA_SAVE_AS="",
                           DALIL_EXPORTS_JSON_SAVE_AS="data/all.json")
    assert result.returncode == 0, result.log
    outputs = [path for path in result.files() if not path.endswith(".html")]
    assert not any(path.endswith((".csv", ".vcf")) or "directory-export" in path
                   for path in outputs), outputs
    assert [record["name"] for record in json.loads(result.read("data/all.json"))] == ["مطعم واحد"]
