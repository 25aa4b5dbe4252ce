"""Settings of the operational files, with their defaults (prefix ``DALIL_SITEFILES_``)."""

from dataclasses import dataclass

from dalil.core.settings import read_settings, setting

# Strict: nothing inline, nothing from another host but images (listings may
# show an image by URL). JSON-LD blocks are data, which CSP does not block.
DEFAULT_CSP = (
    "default-src 'self'; img-src 'self' https:; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'none'"
)


@dataclass(frozen=True)
class SiteFilesSettings:
    build_info_save_as: str = setting("build-info.json", "build information")
    security_txt_save_as: str = setting(".well-known/security.txt",
                                        "the RFC 9116 file (written only with a contact)")
    security_contact: object = setting(
        "", "an e-mail address (written `mailto:`), a `mailto:`, `https:` or `tel:` URI, or a "
            "tuple of them (the sample: `security@dalil.example`, a placeholder)")
    # RFC 9116 advises under a year.
    security_expires_days: int = setting(
        180, "`Expires` = build time + this many days; 365 or more is warned about")
    security_preferred_languages: tuple = setting(("ar", "en", "fr"), "`Preferred-Languages`")
    security_policy: str = setting(
        "", "`Policy`: an https URL or a path of the site (`security-policy/`); `\"\"`: none")
    # The nginx snippet is included by the server's config and refuses to serve itself.
    nginx_save_as: str = setting("nginx.conf.snippet", "the nginx snippet")
    headers_save_as: str = setting("_headers", "Cloudflare Pages / Netlify headers")
    htaccess_save_as: str = setting(".htaccess", "Apache headers")
    content_security_policy: str = setting(
        DEFAULT_CSP, "the CSP of every header file and `invoke serve`")


def sitefiles_settings(settings):
    return read_settings(SiteFilesSettings, settings, "DALIL_SITEFILES_")
