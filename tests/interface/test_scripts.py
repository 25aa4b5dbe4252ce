"""The scripts' interface text in Chromium: i18n.js reads the build's messages script,
plural forms by the browser's CLDR rules (Intl.PluralRules)."""

import pytest

from dalil.core.i18n import script_messages, script_messages_js
from tests import sitebuilder as sb

from . import fixtures
from .checks import PHONE, browsing
from .test_catalogs import COUNTS, PLURALS

pytestmark = pytest.mark.browser
I18N_JS = sb.THEME / "static" / "js" / "i18n.js"


@pytest.mark.parametrize("lang", ["ar", "fr"])
def test_plural_forms_in_scripts_follow_cldr(chromium_browser, lang):
    messages = script_messages(lang, "messages")  # the templates' plurals, as scripts get them
    page = chromium_browser.new_page()
    page.set_content(f'<html lang="{lang}"><head></head></html>')
    page.add_script_tag(content=script_messages_js(messages))
    page.add_script_tag(content=I18N_JS.read_text(encoding="utf-8"))
    texts = page.evaluate("counts => counts.map(n => dalilPlural('%(num)s listing', "
                          "'%(num)s listings', n))", list(COUNTS))
    assert texts == PLURALS[(lang, "%(num)s listing")]
    page.close()


@pytest.fixture(scope="module")
def french(tmp_path_factory):
    result = sb.build_site(tmp_path_factory.mktemp("french-scripts"), fixtures.files(),
                           DALIL_INTERFACE_LANG="fr")
    assert result.returncode == 0, result.log
    return result


def test_scripts_speak_the_interface_language(chromium_browser, french):
    with browsing(chromium_browser, french.output, PHONE, saved=["zaytouna", "long-name"]) as open_page:
        page = open_page("/search/?q=zaytouna")
        page.locator(".search-results li").first.wait_for()
        assert page.locator("#search-status").inner_text() == "Résultats : 1."
        page.close()
        page = open_page("/compare/")
        page.locator("#compare-table thead th").nth(1).wait_for()
        labels = page.locator("#compare-table tbody th").all_inner_texts()
        assert labels == ["Catégorie", "Ville", "Téléphone", "Site web", "Adresse"]
        assert page.locator("#saved-status").inner_text() == \
            "Établissements affichés côte à côte : 2."
        page.close()
