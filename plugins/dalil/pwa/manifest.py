"""``manifest.webmanifest``: installation metadata and exactly four shortcuts."""

import json
import posixpath

from .worker import relative_url

# (file under the theme's icons/, size, purpose)
ICONS = (
    ("icon-192.png", 192, "any"),
    ("icon-512.png", 512, "any"),
    ("icon-maskable-512.png", 512, "maskable"),
)
SHORTCUT_ICON_SIZE = 96


def manifest_json(settings, cfg, shortcuts, interface, description, home=""):
    """The manifest's text, in the ``interface``'s language and direction, its app
    starting at ``home`` (its language's home page). URLs are relative to the manifest,
    so it works under any host."""
    base_dir = posixpath.dirname(cfg.manifest_save_as)
    icons_dir = settings.get("THEME_STATIC_DIR", "theme") + "/icons/"

    def icon(name, size, purpose=None):
        data = {"src": relative_url(icons_dir + name, base_dir), "sizes": f"{size}x{size}",
                "type": "image/png"}
        if purpose:
            data["purpose"] = purpose
        return data

    sitename = settings.get("SITENAME", "")
    manifest = {
        "name": cfg.name or sitename,
        "short_name": cfg.short_name or sitename,
        "description": description,
        "lang": interface.lang,
        "dir": interface.dir,
        "id": relative_url(home, base_dir),
        "start_url": relative_url(home, base_dir),
        "scope": relative_url(home, base_dir),
        "display": "standalone",
        "theme_color": cfg.theme_color,
        "background_color": cfg.background_color,
        "categories": ["business", "navigation"],
        "icons": [icon(name, size, purpose) for name, size, purpose in ICONS],
        "shortcuts": [
            {"name": name, "short_name": name, "description": description,
             "url": relative_url(url, base_dir), "icons": [icon(icon_name, SHORTCUT_ICON_SIZE)]}
            for name, description, url, icon_name in shortcuts
        ],
    }
    return json.dumps(manifest, ensure_ascii=False, allow_nan=False, indent=1) + "\n"
