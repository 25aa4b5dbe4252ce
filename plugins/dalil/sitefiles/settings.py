"""Settings of the operational files, with their defaults (prefix ``DALIL_SITEFILES_``)."""

from dataclasses import dataclass

from dalil.core.settings import read_settings

# Strict: nothing inline, nothing from another host but images (listings may
# show an image by URL). JSON-LD blocks are data, which CSP does not block.
DEFAULT_CSP = (
    "default-src 'self'; img-src 'self' https:; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'none'"
)


@dataclass(frozen=True)
class SiteFilesSettings:
    build_info_save_as: str = "build-info.json"
    security_txt_save_as: str = ".well-known/security.txt"
    # An e-mail address (written as mailto:) or a mailto:, https: or tel: URI; or a tuple.
    security_contact: object = ""
    # Expires = build time + this many days; RFC 9116 advises under a year.
    security_expires_days: int = 180
    security_preferred_languages: tuple = ("ar", "en", "fr")
    # A URL, or a path of the site such as "security-policy/"; "" for none.
    security_policy: str = ""
    # Host header files. The nginx snippet is included by the server's config
    # and refuses to serve itself; "" turns any of them off.
    nginx_save_as: str = "nginx.conf.snippet"
    headers_save_as: str = "_headers"
    htaccess_save_as: str = ".htaccess"
    content_security_policy: str = DEFAULT_CSP


def sitefiles_settings(settings):
    return read_settings(SiteFilesSettings, settings, "DALIL_SITEFILES_")
