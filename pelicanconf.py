"""Pelican settings of the Dalil sample site (development build)."""

from dalil.conf import *  # noqa: F403

SITENAME = "دليل"
SITENAME_EN = "Dalil"
SITEURL = ""
AUTHOR = "فريق دليل"
TIMEZONE = "Africa/Casablanca"

DALIL_DIRECTORY_DEFAULT_COUNTRY = "المغرب"
# A placeholder: set the real address before publishing.
DALIL_SITEFILES_SECURITY_CONTACT = "security@dalil.example"

# Arabic at the root, French under /fr/ and English under /en/.
DALIL_LANGUAGES = ["ar", "fr", "en"]
DALIL_LANGUAGE_SETTINGS = {"fr": {"SITENAME": "Dalil"}, "en": {"SITENAME": "Dalil"}}
