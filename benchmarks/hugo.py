"""The synthetic directory as a Hugo site, for ``invoke bench`` to compare against.

From the same ``(relpath, text)`` pairs as the Dalil and plain Pelican builds: every
published listing a page at Dalil's URL (``/directory/listing/<slug>/``) showing its
name, address, contacts, category, city and body; category and city term pages of
24 listings each (Dalil's ``DALIL_DIRECTORY_PER_PAGE``); the news, blog and pages;
Hugo's own sitemap and the home page's RSS. Front matter is JSON (``json.dumps``).
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


def front_matter(kind, fields):
    """Hugo's front matter (a dict) for one synthetic file of folder ``kind``."""
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
        status = fields.get("status")
        if status == "draft":
            matter["draft"] = True
        elif status == "hidden":
            matter["_build"] = {"list": "never"}  # a page, in no list
    return matter


def write_site(folder, files, baseurl):
    """Write the Hugo site for ``files`` (``(relpath, text)`` pairs) into ``folder`` (emptied)."""
    folder = Path(folder)
    if folder.exists():
        shutil.rmtree(folder)
    config = {**CONFIG, "baseURL": baseurl.rstrip("/") + "/"}
    (folder / "content").mkdir(parents=True)
    (folder / "config.json").write_text(json.dumps(config, ensure_ascii=False, indent=1),
                                        encoding="utf-8")
    for relpath, text in LAYOUTS.items():
        path = folder / "layouts" / relpath
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for relpath, text in files:
        kind, name = relpath.split("/", 1)
        if kind == "images":
            target = folder / "static" / relpath
        elif kind in ("categories", "cities"):
            # A term's own page: its title and description on the term list page.
            target = folder / "content" / kind / name[:-3] / "_index.md"
        else:
            target = folder / "content" / relpath
        target.parent.mkdir(parents=True, exist_ok=True)
        if kind == "images":
            target.write_text(text, encoding="utf-8")
            continue
        fields, body = split_metadata(text)
        matter = front_matter(kind, fields)
        target.write_text(json.dumps(matter, ensure_ascii=False, indent=1) + "\n\n" + body,
                          encoding="utf-8")
    return folder

