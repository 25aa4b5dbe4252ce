"""Response headers per file, and the host header files written from them.

``response_headers(relpath, policy)`` decides every header of a file; the
nginx snippet, ``_headers`` and ``.htaccess`` express the same decisions in
their hosts' rule languages, and the development servers and the S3 upload
call it directly.

Cache-Control:
- ``no-cache`` for HTML, ``sw.js`` and ``build-info.json`` (always revalidated,
  so a deploy is seen at once and build-info tells which build is live);
- a year, ``immutable``, for fingerprinted assets: a CSS, JS, image or font file
  whose name carries a content hash (``dalil.3f9a1c2b.css``). The theme's own
  files keep stable names, so none of them is fingerprinted;
- ``public, max-age=0, must-revalidate`` for everything else (data files, theme
  files, images): the default of Cloudflare Pages and Netlify, so ``_headers``
  can leave it out and never sets one header twice for one URL.
"""

import posixpath
import re
from pathlib import PurePosixPath
from dataclasses import dataclass
from urllib.parse import urlsplit

from dalil.core.compression import PRECOMPRESSED
from dalil.core.languages import language_url, site_languages

from .content_types import (
    DEFAULT_TYPE, EXTENSION_TYPES, PATH_TYPES, PUBLISHED_JSON_AND_XML, SUFFIX_TYPES,
    content_type, path_type,
)
from .settings import DEFAULT_CSP, sitefiles_settings

NO_CACHE = "no-cache"
REVALIDATE = "public, max-age=0, must-revalidate"
IMMUTABLE = "public, max-age=31536000, immutable"
NO_CACHE_PATHS = ("build-info.json", "sw.js")
# Data files that browser clients on other sites may fetch.
DATA_EXTENSIONS = (".json", ".xml", ".csv", ".vcf", ".geojson", ".txt", ".webmanifest")
FINGERPRINT_EXTENSIONS = ("css", "js", "mjs", "svg", "png", "jpg", "jpeg", "gif", "webp",
                          "avif", "ico", "woff", "woff2", "ttf", "otf")
FINGERPRINT_PATTERN = r"\.[0-9a-f]{8,64}\.(%s)$" % "|".join(FINGERPRINT_EXTENSIONS)
FINGERPRINTED = re.compile(FINGERPRINT_PATTERN, re.IGNORECASE)
# A header value the three rule languages can hold without escaping.
_SAFE_VALUE = re.compile(r"[ !#%&'()*+,\-./0-9:;<=>?@A-Z\[\]^_`a-z{|}~]*")


@dataclass(frozen=True)
class HeaderPolicy:
    content_security_policy: str = DEFAULT_CSP
    # Host files that are never served (the nginx snippet, _headers, .htaccess).
    hidden: tuple = ()
    # The path of SITEURL ("" or "/sub"), before every URL the rules name.
    prefix: str = ""
    # The folders of the site's languages after the first ("fr/"): each has its own
    # ``PATH_TYPES`` files.
    language_folders: tuple = ()

    def __post_init__(self):
        if not _SAFE_VALUE.fullmatch(self.content_security_policy):
            raise ValueError("the Content-Security-Policy holds a character that a header "
                             'file cannot carry (one of " \\ $ or a control character)')


def header_policy(settings):
    """The policy a build with Pelican ``settings`` writes into its header files."""
    config = sitefiles_settings(settings)
    hidden = (config.nginx_save_as, config.headers_save_as, config.htaccess_save_as)
    return HeaderPolicy(
        content_security_policy=config.content_security_policy,
        hidden=tuple(name for name in hidden if name),
        prefix=urlsplit(settings.get("SITEURL") or "").path.rstrip("/"),
        language_folders=tuple(language_url(settings, lang)
                               for lang in site_languages(settings)[1:]),
    )


def typed_paths(policy):
    """The paths of ``PATH_TYPES`` files the site has: the root's, each language's."""
    return sorted(folder + path for folder in ("", *policy.language_folders)
                  for path in PATH_TYPES)


def _normal(relpath):
    return str(relpath).replace("\\", "/").lstrip("/")


def cache_control(relpath):
    relpath = _normal(relpath)
    name = posixpath.basename(relpath).lower()
    if name.endswith(".html") or relpath in NO_CACHE_PATHS:
        return NO_CACHE
    if FINGERPRINTED.search(name):
        return IMMUTABLE
    return REVALIDATE


def is_data_file(relpath):
    return posixpath.splitext(_normal(relpath).lower())[1] in DATA_EXTENSIONS


def response_headers(relpath, policy=HeaderPolicy(), csp=True):
    """Every header Dalil sends with the file at ``relpath`` (under the output folder)."""
    headers = {
        "Content-Type": content_type(relpath),
        "Cache-Control": cache_control(relpath),
        "X-Content-Type-Options": "nosniff",
    }
    if csp and policy.content_security_policy:
        headers["Content-Security-Policy"] = policy.content_security_policy
    if is_data_file(relpath):
        headers["Access-Control-Allow-Origin"] = "*"
    return headers


def is_hidden(relpath, policy):
    """A host file or a dot file (but ``.well-known/``): never served or uploaded."""
    # PurePosixPath drops "." parts: "." is the output folder itself (the servers ask
    # about it for "/"), not a dot file.
    parts = PurePosixPath(_normal(relpath)).parts
    if "/".join(parts) in policy.hidden:
        return True
    return any(part.startswith(".") and part != ".well-known" for part in parts)


def _without_type(relpath, policy):
    headers = response_headers(relpath, policy)
    del headers["Content-Type"]
    return headers


# -- nginx -----------------------------------------------------------------

# Types nginx compresses on the fly (text/html always is), and what it precompresses:
# the build writes .br and .gz copies of the search index and the exports.
COMPRESSIBLE_TYPES = ("text/css", "text/javascript", "application/json", "application/xml",
                      "text/plain", "text/csv", "text/vcard", "application/manifest+json",
                      "image/svg+xml", "application/rss+xml", "application/feed+json",
                      "application/opensearchdescription+xml", "application/schema+json",
                      "application/geo+json")
PRECOMPRESSED_EXTENSIONS = (".json", ".csv", ".geojson")


def _bare(media_type):
    """The type without parameters: nginx adds the charset itself (``charset_types``);
    a type declared with one never matches ``gzip_types``."""
    return media_type.split(";")[0].strip()


def _charset_types():
    """The text types besides text/html, which nginx always includes (naming it warns)."""
    types = (*EXTENSION_TYPES.values(), *PATH_TYPES.values(), *SUFFIX_TYPES.values())
    return sorted({_bare(media_type) for media_type in types
                   if "charset=utf-8" in media_type} - {"text/html"})


def _nginx_location(match, headers, media_type=None, extra=()):
    lines = [f"location {match} {{"]
    if media_type:
        lines += ["    types { }", f'    default_type "{_bare(media_type)}";']
    lines += [f"    {line}" for line in extra]
    lines += [f'    add_header {name} "{value}" always;' for name, value in headers.items()]
    return lines + ["}"]


def nginx_snippet(policy):
    """Directives for inside the site's ``server { }`` block (``include`` this file there).

    nginx applies the ``add_header`` lines of one location only, so every
    location below repeats the full set for its files.
    """
    prefix = policy.prefix
    lines = [
        "# Dalil: written by the build. Include it inside the site's server block, after",
        "# root, e.g.  root /var/www/dalil;  include /var/www/dalil/nginx.conf.snippet;",
        "types {",
        *(f'    "{_bare(media_type)}" {ext[1:]};'
          for ext, media_type in sorted(EXTENSION_TYPES.items())),
        "}",
        "default_type application/octet-stream;",
        "charset utf-8;",
        f"charset_types {' '.join(_charset_types())};",
        "gzip on;",
        "gzip_vary on;",
        "gzip_min_length 256;",
        "gzip_proxied any;",
        f"gzip_types {' '.join(COMPRESSIBLE_TYPES)};",
        "gzip_static on;",  # file.gz beside file: sent as it is
        f"error_page 404 {prefix}/404.html;",
    ]
    lines += [f'add_header {name} "{value}" always;'
              for name, value in _without_type("x.css", policy).items()]
    # Host files and dot files (temporary files of an interrupted write) are not the site.
    for name in policy.hidden:
        if not name.startswith("."):
            lines += [f"location = {prefix}/{name} {{ return 404; }}"]
    lines += [r"location ~ /\.(?!well-known/) { return 404; }"]
    for path in sorted(set(typed_paths(policy)) | set(NO_CACHE_PATHS)):
        lines += _nginx_location(f"= {prefix}/{path}", _without_type(path, policy),
                                 path_type(path))
    for suffix, media_type in SUFFIX_TYPES.items():
        example = "x" + suffix
        lines += _nginx_location(f'~* "{re.escape(suffix)}$"', _without_type(example, policy),
                                 media_type)
    lines += _nginx_location(f'~* "{FINGERPRINT_PATTERN}"',
                             _without_type("x.0123abcd.css", policy))
    lines += _nginx_location('~* "\\.html$"', _without_type("index.html", policy))
    data = "|".join(ext[1:] for ext in DATA_EXTENSIONS)
    # file.br beside file, for a client that takes br: nginx-light has no brotli module,
    # so the request is sent on to the copy (an internal location, below).
    brotli = ['set $dalil_br "";',
              'if ($http_accept_encoding ~* "(^|[ ,])br($|[ ,;])") { set $dalil_br "br"; }',
              'if (-f $request_filename.br) { set $dalil_br "${dalil_br}+file"; }',
              'if ($dalil_br = "br+file") { rewrite ^ $uri.br last; }']
    lines += _nginx_location(f'~* "\\.({data})$"', _without_type("x.json", policy),
                             extra=brotli)
    for ext in PRECOMPRESSED_EXTENSIONS:
        headers = {**_without_type("x" + ext, policy), "Content-Encoding": "br",
                   "Vary": "Accept-Encoding"}
        lines += _nginx_location(f'~* "\\{ext}\\.br$"', headers, EXTENSION_TYPES[ext],
                                 extra=("internal;", "gzip off;"))
    # gzip_static sends file.gz for its file's URL without looking it up as a location,
    # so the copy's own URL answers 404, as file.br's does.
    exts = "|".join(ext[1:] for ext in PRECOMPRESSED_EXTENSIONS)
    lines += [f'location ~* "\\.({exts})\\.gz$" {{ return 404; }}']
    return "\n".join(lines) + "\n"


# -- Cloudflare Pages and Netlify -------------------------------------------

def headers_file_rules(policy, fingerprinted=()):
    """``{url pattern: {header: value}}`` for ``_headers``.

    Both hosts apply every rule whose pattern matches a URL and join the
    values of a header set by several, so each header is set by exactly one
    pattern per URL: disjoint patterns, and default values left to the host.
    """
    prefix = policy.prefix
    rules = {}

    def add(pattern, name, value):
        rules.setdefault(prefix + pattern, {})[name] = value

    add("/*", "X-Content-Type-Options", "nosniff")
    if policy.content_security_policy:
        add("/*", "Content-Security-Policy", policy.content_security_policy)
    for pattern in ("/", "/*/", "/*.html", *(f"/{path}" for path in NO_CACHE_PATHS)):
        add(pattern, "Cache-Control", NO_CACHE)
    for path in sorted(fingerprinted):
        add(f"/{path}", "Cache-Control", IMMUTABLE)
    # Extensions with an exception (feed.json, rss.xml, …) get a rule per published file.
    excepted = {posixpath.splitext(path)[1] for path in (*PATH_TYPES, *SUFFIX_TYPES)}
    for pattern in ("/", "/*/"):  # pages, served from their index.html
        add(pattern, "Content-Type", EXTENSION_TYPES[".html"])
    for ext, media_type in EXTENSION_TYPES.items():
        if ext not in excepted:
            add(f"/*{ext}", "Content-Type", media_type)
    for pattern in PUBLISHED_JSON_AND_XML:
        add(f"/{pattern}", "Content-Type", content_type(pattern.replace("*", "x")))
    for path in typed_paths(policy):
        add(f"/{path}", "Content-Type", content_type(path))
    for ext in DATA_EXTENSIONS:
        add(f"/*{ext}", "Access-Control-Allow-Origin", "*")
    # Both hosts compress every response themselves: the .br and .gz copies are files.
    for suffix in PRECOMPRESSED:
        add(f"/*{suffix}", "Content-Type", DEFAULT_TYPE)
    return rules


def headers_file(policy, fingerprinted=()):
    lines = ["# Dalil: written by the build; response headers for Cloudflare Pages and Netlify."]
    for pattern, headers in headers_file_rules(policy, fingerprinted).items():
        lines.append(pattern)
        lines += [f"  {name}: {value}" for name, value in headers.items()]
    return "\n".join(lines) + "\n"


# -- Apache httpd -------------------------------------------------------------

def htaccess(policy):
    """``.htaccess`` for Apache httpd; needs ``AllowOverride FileInfo`` and mod_headers.

    Later sections override earlier ones (and ``<If>`` overrides ``<FilesMatch>``),
    so it goes from the general to the particular; every header is set with
    ``always``, as mod_headers keeps the two kinds in separate tables and would
    send both.
    """
    prefix = policy.prefix
    default = _without_type("x.css", policy)
    lines = [
        "# Dalil: written by the build; response headers for Apache httpd.",
        f"ErrorDocument 404 {prefix}/404.html",
        "<IfModule mod_headers.c>",
        *(f'  Header always set {name} "{value}"' for name, value in default.items()),
        "</IfModule>",
    ]
    hidden = "|".join(re.escape(name) for name in policy.hidden if not name.startswith(".ht"))
    # Dot files (the build's record of its files, temporary files of an interrupted
    # write) are not the site, as in the nginx snippet; httpd itself hides only .ht*.
    lines += ["<IfModule mod_alias.c>",
              *([f'  RedirectMatch 404 "^{re.escape(prefix)}/({hidden})$"'] if hidden else []),
              '  RedirectMatch 404 "/\\.(?!well-known/)"', "</IfModule>"]

    def section(opening, closing, relpath, media_type):
        extra = {name: value for name, value in _without_type(relpath, policy).items()
                 if default.get(name) != value}
        body = [f'  ForceType "{media_type}"'] if media_type else []
        body += [f'  Header always set {name} "{value}"' for name, value in extra.items()]
        return [opening, *body, closing] if body else []

    for ext, media_type in sorted(EXTENSION_TYPES.items()):
        lines += section(f'<FilesMatch "(?i){re.escape(ext)}$">', "</FilesMatch>",
                         "x" + ext, media_type)
    for suffix, media_type in SUFFIX_TYPES.items():
        lines += section(f'<FilesMatch "(?i){re.escape(suffix)}$">', "</FilesMatch>",
                         "x" + suffix, media_type)
    lines += section(f'<FilesMatch "(?i){FINGERPRINT_PATTERN}">', "</FilesMatch>",
                     "x.0123abcd.css", None)
    for path in sorted(set(typed_paths(policy)) | set(NO_CACHE_PATHS)):
        lines += section(f"<If \"%{{REQUEST_URI}} == '{prefix}/{path}'\">", "</If>", path,
                         path_type(path))
    lines += _htaccess_compression(section)
    return "\n".join(lines) + "\n"


def _htaccess_compression(section):
    """file.br or file.gz for a client that takes it, sent with the file's type and
    headers; mod_deflate compresses the other text files."""
    exts = "|".join(re.escape(ext[1:]) for ext in PRECOMPRESSED_EXTENSIONS)
    lines = ["<IfModule mod_rewrite.c>", "  RewriteEngine On"]
    for suffix, encoding in ((".br", "br"), (".gz", "gzip")):
        lines += [f'  RewriteCond "%{{HTTP:Accept-Encoding}}" "(^|[ ,]){encoding}($|[ ,;])"',
                  f'  RewriteCond "%{{REQUEST_FILENAME}}{suffix}" -f',
                  f'  RewriteRule "^(.+\\.({exts}))$" "$1{suffix}" [L,E=no-gzip:1,E=no-brotli:1]']
    lines += ["</IfModule>",
              "<IfModule mod_mime.c>",
              "  RemoveType .br .gz",
              "  AddEncoding br .br",
              "  AddEncoding gzip .gz",
              "</IfModule>"]
    for ext in PRECOMPRESSED_EXTENSIONS:
        lines += section(f'<FilesMatch "(?i){re.escape(ext)}\\.(br|gz)$">', "</FilesMatch>",
                         "x" + ext, EXTENSION_TYPES[ext])
    lines += [f'<FilesMatch "(?i)\\.({exts})(\\.(br|gz))?$">',
              "  <IfModule mod_headers.c>",
              '    Header always merge Vary "Accept-Encoding"',
              "  </IfModule>",
              "</FilesMatch>",
              "<IfModule mod_deflate.c>",
              f"  AddOutputFilterByType DEFLATE text/html {' '.join(COMPRESSIBLE_TYPES)}",
              "</IfModule>"]
    return lines
