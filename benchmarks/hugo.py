"""The synthetic directory as a Hugo site doing Dalil's job, for ``invoke bench`` and
``invoke bench-languages`` to compare against.

From the same ``(relpath, text)`` pairs as the Dalil and plain Pelican builds: every
published listing a page at Dalil's URL (``/directory/listing/<slug>/``) showing its
name, address, contacts, category, city and body; category and city term pages of
24 listings each (Dalil's ``DALIL_DIRECTORY_PER_PAGE``); the news, blog and pages;
Hugo's own sitemap and the home page's RSS; and Dalil's data files through Hugo's custom
output formats: a vCard per published listing, the search index, the JSON and CSV
exports. Front matter is JSON (``json.dumps``).

``write_site(..., languages=("ar", "fr", "en"))`` is the same site in Hugo's multilingual
mode (``invoke bench-languages``): the first language at the root, each other under
``/{lang}/``, every page in every language (a listing's, category's or city's
``Name_{lang}`` as its title where it has one; a news item's ``Lang:`` translation where
there is one, else the page as written), ``hreflang`` links between a page's versions;
the data files written once, through output formats of the first language's pages only.
"""

import json
import shutil
from pathlib import Path

PER_PAGE = 24
RSS_LIMIT = 20

CONFIG = {
    "title": "دليل",
    "languageCode": "ar",
    "defaultContentLanguage": "ar",
    "timeZone": "Africa/Casablanca",
    "taxonomies": {"category": "categories", "city": "cities"},
    "paginate": PER_PAGE,
    "rssLimit": RSS_LIMIT,
    "permalinks": {"listings": "/directory/listing/:slug/"},
    "outputs": {"home": ["HTML", "RSS"], "page": ["HTML"], "section": ["HTML"],
                "taxonomy": ["HTML"], "term": ["HTML"]},
    "enableRobotsTXT": True,
    "disableHugoGeneratorInject": True,
}

BASE = """<!DOCTYPE html>
<html lang="ar" dir="rtl">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ .Title }} – {{ site.Title }}</title>
<link rel="canonical" href="{{ .Permalink }}">
{{ with site.Home.OutputFormats.Get "rss" }}<link rel="alternate" type="application/rss+xml" href="{{ .Permalink }}">{{ end }}
</head>
<body>
<header><a href="{{ site.Home.RelPermalink }}">{{ site.Title }}</a>
<nav>{{ range site.Sections }}<a href="{{ .RelPermalink }}">{{ .Title }}</a> {{ end }}</nav></header>
<main>{{ block "main" . }}{{ end }}</main>
<footer>{{ site.Title }}</footer>
</body>
</html>
"""

SINGLE = """{{ define "main" }}<article>
<h1>{{ .Title }}</h1>
{{ with .Params.name_en }}<p lang="en" dir="ltr">{{ . }}</p>{{ end }}
{{ with .Params.name_fr }}<p lang="fr" dir="ltr">{{ . }}</p>{{ end }}
<p>{{ range .GetTerms "categories" }}<a href="{{ .RelPermalink }}">{{ .LinkTitle }}</a>{{ end }}
{{ range .GetTerms "cities" }}<a href="{{ .RelPermalink }}">{{ .LinkTitle }}</a>{{ end }}</p>
<address>{{ .Params.street }}، {{ .Params.postal_code }} {{ .Params.country }}</address>
<ul>
{{ with .Params.phone }}<li><a href="tel:{{ . }}">{{ . }}</a></li>{{ end }}
{{ with .Params.email }}<li><a href="mailto:{{ . }}">{{ . }}</a></li>{{ end }}
{{ with .Params.website }}<li><a href="{{ . }}">{{ . }}</a></li>{{ end }}
</ul>
{{ with .Params.image }}<img src="{{ . }}" alt="">{{ end }}
<p>{{ .Summary }}</p>
{{ .Content }}
<time datetime="{{ .Lastmod.Format "2006-01-02T15:04:05Z07:00" }}">{{ .Lastmod.Format "2006-01-02" }}</time>
</article>{{ end }}
"""

LIST = """{{ define "main" }}<h1>{{ .Title }}</h1>
{{ .Content }}
{{ $paginator := .Paginate .Pages }}
<ul>{{ range $paginator.Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a> {{ .Summary }}</li>{{ end }}</ul>
{{ template "_internal/pagination.html" . }}
{{ end }}
"""

TAXONOMY = """{{ define "main" }}<h1>{{ .Title }}</h1>
<ul>{{ range .Data.Terms.ByCount }}<li><a href="{{ .Page.RelPermalink }}">{{ .Page.Title }}</a> ({{ .Count }})</li>{{ end }}</ul>
{{ end }}
"""

HOME = """{{ define "main" }}<h1>{{ site.Title }}</h1>
<ul>{{ range first 8 (where site.RegularPages "Section" "listings").ByLastmod.Reverse }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul>
{{ end }}
"""

LAYOUTS = {
    "_default/baseof.html": BASE,
    "_default/single.html": SINGLE,
    "_default/list.html": LIST,
    "_default/term.html": LIST,
    "_default/taxonomy.html": TAXONOMY,
    "index.html": HOME,
}


# Dalil's data files as Hugo output formats (plain text: no HTML escaping).
DATA_FORMATS = {
    "mediaTypes": {"text/vcard": {"suffixes": ["vcf"]}},
    "outputFormats": {
        "vcard": {"mediaType": "text/vcard", "baseName": "contact", "isPlainText": True,
                  "notAlternative": True},
        "searchindex": {"mediaType": "application/json", "baseName": "search-index",
                        "isPlainText": True, "notAlternative": True},
        "exportjson": {"mediaType": "application/json", "baseName": "export",
                       "path": "directory", "isPlainText": True, "notAlternative": True},
        "exportcsv": {"mediaType": "text/csv", "baseName": "export", "path": "directory",
                      "isPlainText": True, "notAlternative": True},
    },
}
# The first language's home page and published listings carry the data outputs; other
# languages' pages are pages only, so each data file is written once.
HOME_DATA_OUTPUTS = ["HTML", "RSS", "searchindex", "exportjson", "exportcsv"]
LISTING_DATA_OUTPUTS = ["HTML", "vcard"]

LANGUAGE_NAMES = {"ar": ("العربية", "rtl", "دليل"), "fr": ("Français", "ltr", "Dalil"),
                  "en": ("English", "ltr", "Dalil")}

# A page's language and direction, and its versions in the other languages.
BASE_LANGUAGES = BASE.replace(
    '<html lang="ar" dir="rtl">',
    '<html lang="{{ site.Language.Lang }}" dir="{{ site.Language.LanguageDirection }}">'
).replace(
    '<link rel="canonical" href="{{ .Permalink }}">\n',
    '<link rel="canonical" href="{{ .Permalink }}">\n'
    '{{ if .IsTranslated }}{{ range .AllTranslations }}<link rel="alternate" '
    'hreflang="{{ .Language.Lang }}" href="{{ .Permalink }}">{{ end }}'
    '<link rel="alternate" hreflang="x-default" href="{{ (index .AllTranslations 0).Permalink }}">'
    '{{ end }}\n')

# vCard 3.0 as Dalil writes it (CRLF, , ; \\ escaped; no line folding).
VCARD = "\r\n".join([
    "BEGIN:VCARD", "VERSION:3.0",
    '{{ $n := replaceRE `([,;\\\\])` `\\$1` .Title }}FN:{{ $n }}', "N:{{ $n }};;;;",
    "{{ with .Params.phone }}TEL;TYPE=WORK,VOICE:{{ . }}\r\n{{ end }}"
    "ADR;TYPE=WORK:;;{{ replaceRE `([,;\\\\])` `\\$1` .Params.street }};"
    "{{ .Params.city_name }};{{ .Params.province }};{{ .Params.postal_code }};{{ .Params.country }}",
    "ORG:{{ .Params.category_name }}",
    "{{ with .Params.website }}URL:{{ . }}\r\n{{ end }}"
    "{{ with .Params.email }}EMAIL;TYPE=INTERNET,WORK:{{ . }}\r\n{{ end }}"
    'REV:{{ .Lastmod.UTC.Format "2006-01-02T15:04:05Z" }}',
    "END:VCARD", ""])

LISTINGS = '{{ $listings := sort (where site.RegularPages "Section" "listings") "Params.slug" }}'

# Dalil's short keys: type, slug, name, url; a listing's category, address, phone, image,
# English and French names, category and city slugs.
SEARCH_INDEX = LISTINGS + """[{{ range $i, $p := $listings }}{{ if $i }},{{ end }}\
{{ dict "t" "listing" "s" .Params.slug "n" .Title "url" .RelPermalink "c" .Params.category_name \
"a" (printf "%s، %s" .Params.street .Params.city_name) "p" .Params.phone "img" .Params.image \
"n_en" .Params.name_en "n_fr" .Params.name_fr "cs" (index .Params.categories 0) \
"ls" (index .Params.cities 0) | jsonify }}{{ end }}\
{{ range $kind, $type := dict "categories" "category" "cities" "location" }}\
{{ range (site.GetPage $kind).Pages }},{{ dict "t" $type "s" .Params.slug "n" .Title "url" .RelPermalink "n_en" .Params.name_en \
"n_fr" .Params.name_fr | jsonify }}{{ end }}{{ end }}\
{{ range where site.RegularPages "Section" "in" (slice "news" "blog" "pages") }},\
{{ dict "t" .Section "s" .Params.slug "n" .Title "url" .RelPermalink | jsonify }}{{ end }}]
"""

# Dalil's nine export fields, ordered by slug.
EXPORT_FIELDS = """{{ $fields := slice .Title .Params.category_name .Params.phone .Params.email \
.Params.website (printf "%s، %s %s، %s" .Params.street .Params.postal_code .Params.city_name \
.Params.country) (absURL .Params.image) .Permalink (.Lastmod.UTC.Format "2006-01-02T15:04:05Z") }}"""
EXPORT_JSON = LISTINGS + """[{{ range $i, $p := $listings }}{{ if $i }},{{ end }}""" \
    + EXPORT_FIELDS + """{{ dict "name" (index $fields 0) "category" (index $fields 1) \
"phone" (index $fields 2) "email" (index $fields 3) "website" (index $fields 4) \
"address" (index $fields 5) "image" (index $fields 6) "url" (index $fields 7) \
"dateModified" (index $fields 8) | jsonify }}{{ end }}]
"""
# RFC 4180 with a byte-order mark: every cell quoted, quotes doubled, CRLF.
EXPORT_CSV = "\ufeff" + LISTINGS \
    + "name,category,phone,email,website,address,image,url,dateModified\r\n" \
    + "{{ range $listings }}" + EXPORT_FIELDS \
    + '{{ range $i, $cell := $fields }}{{ if $i }},{{ end }}"{{ replace $cell `"` `""` }}"{{ end }}' \
    + "\r\n{{ end }}"

DATA_LAYOUTS = {
    "_default/single.vcard.vcf": VCARD,
    "index.searchindex.json": SEARCH_INDEX,
    "index.exportjson.json": EXPORT_JSON,
    "index.exportcsv.csv": EXPORT_CSV,
}


def split_metadata(text):
    """``(fields, body)`` of a synthetic Markdown file (``Key: value`` lines, a blank line)."""
    head, body = text.split("\n\n", 1)
    fields = {}
    for line in head.splitlines():
        key, value = line.split(":", 1)
        fields[key.strip().lower()] = value.strip()
    return fields, body


def hugo_date(value):
    """``2026-11-21 12:00`` as Hugo reads it (ISO 8601)."""
    return value.replace(" ", "T") + ":00" if value else None


def front_matter(kind, fields, names=None):
    """Hugo's front matter (a dict) for one synthetic file of folder ``kind``.

    ``names`` (``{"categories": {slug: name}, "cities": {...}}``) adds a listing's
    category and city names, which its data outputs show."""
    matter = {"title": fields["title"], "slug": fields.get("slug", "")}
    if "date" in fields:
        matter["date"] = hugo_date(fields["date"])
    if "modified" in fields:
        matter["lastmod"] = hugo_date(fields["modified"])
    if "summary" in fields:
        matter["summary"] = fields["summary"]
    if kind == "listings":
        matter["categories"] = [fields["category"]]
        matter["cities"] = [fields["city"]]
        for key in ("name_en", "name_fr", "street", "postal_code", "country", "phone", "email",
                    "website", "image"):
            if key in fields:
                matter[key] = fields[key]
        if names is not None:
            category, city = names["categories"][fields["category"]], names["cities"][fields["city"]]
            matter.update(category_name=category["title"], city_name=city["title"],
                          province=city.get("province", ""))
        status = fields.get("status")
        if status == "draft":
            matter["draft"] = True
        elif status == "hidden":
            matter["_build"] = {"list": "never"}  # a page, in no list
    return matter


def _write_page(target, matter, body):
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(matter, ensure_ascii=False, indent=1) + "\n\n" + body,
                      encoding="utf-8")


def _write_layouts(folder, layouts):
    for relpath, text in layouts.items():
        path = folder / "layouts" / relpath
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def write_site(folder, files, baseurl, languages=("ar",)):
    """Write the Hugo site for ``files`` (``(relpath, text)`` pairs) into ``folder`` (emptied):
    Hugo's multilingual mode with every page in each of ``languages`` (one by default) and
    Dalil's data files (see the module).

    ``files`` come in ``synthetic.generate_files``'s order (categories and cities before the
    listings that name them, a translation after its original) and are written as they come,
    so a million listings are never held at once."""
    folder = Path(folder)
    if folder.exists():
        shutil.rmtree(folder)
    languages = list(languages)
    first = languages[0]
    config = {**CONFIG, **DATA_FORMATS, "baseURL": baseurl.rstrip("/") + "/",
              "defaultContentLanguage": first, "defaultContentLanguageInSubdir": False,
              "languages": {lang: {"weight": weight, "languageCode": lang,
                                   "languageName": LANGUAGE_NAMES[lang][0],
                                   "languageDirection": LANGUAGE_NAMES[lang][1],
                                   "title": LANGUAGE_NAMES[lang][2]}
                            for weight, lang in enumerate(languages, 1)}}
    (folder / "content").mkdir(parents=True)
    (folder / "config.json").write_text(json.dumps(config, ensure_ascii=False, indent=1),
                                        encoding="utf-8")
    _write_layouts(folder, {**LAYOUTS, "_default/baseof.html": BASE_LANGUAGES, **DATA_LAYOUTS})

    names = {"categories": {}, "cities": {}}
    translated = set()  # (kind, stem, lang) of each page written from its own translation
    for relpath, text in files:
        kind, name = relpath.split("/", 1)
        if kind == "images":
            target = folder / "static" / relpath
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
            continue
        fields, body = split_metadata(text)
        lang = fields.get("lang", first)
        stem = fields.get("slug") or name[:-3]
        if kind in names and lang == first:
            names[kind][stem] = fields
        # A file in the first language is every language's page until a translation
        # (which comes after it) replaces that language's.
        for version in languages if lang == first else [lang]:
            if (kind, stem, version) not in translated:
                _write_version(folder, kind, stem, fields, body, version, first, names)
        if lang != first:
            translated.add((kind, stem, lang))
    for lang in languages:
        home = {"title": LANGUAGE_NAMES[lang][2],
                "outputs": HOME_DATA_OUTPUTS if lang == first else ["HTML", "RSS"]}
        suffix = "" if lang == first else f".{lang}"
        _write_page(folder / "content" / f"_index{suffix}.md", home, "")
    return folder


def _write_version(folder, kind, stem, fields, body, lang, first, names):
    """One page of a synthetic file in ``lang``; a published listing's first-language page
    also has its vCard."""
    matter = front_matter(kind, fields, names)
    if kind in names:  # a term's other names, for the search index
        matter.update({key: fields[key] for key in ("name_en", "name_fr") if key in fields})
    if lang != first and fields.get(f"name_{lang}"):
        matter["title"] = fields[f"name_{lang}"]
    suffix = "" if lang == first else f".{lang}"
    if kind in names:
        # A term's own page: its title and description on the term list page.
        target = folder / "content" / kind / stem / f"_index{suffix}.md"
    else:
        target = folder / "content" / kind / f"{stem}{suffix}.md"
        if (kind == "listings" and lang == first and not matter.get("draft")
                and "_build" not in matter):
            matter["outputs"] = LISTING_DATA_OUTPUTS
    _write_page(target, matter, body)
