"""robots.txt: what crawlers may fetch, and where the sitemaps are."""

from urllib.parse import urlsplit

from dalil.core.urls import root_path


def disallowed_paths(siteurl, disallow):
    """``/saved/`` under SITEURL's own path, percent-encoded (so no setting can add a line)."""
    base = urlsplit(siteurl).path.rstrip("/")
    return [root_path(base + "/" + path.lstrip("/")) for path in disallow]


def robots_txt(disallowed, sitemap_urls):
    lines = ["User-agent: *"]
    lines += [f"Disallow: {path}" for path in disallowed] or ["Disallow:"]
    if sitemap_urls:
        lines.append("")
        lines += [f"Sitemap: {url}" for url in sitemap_urls]
    return "\n".join(lines) + "\n"
