"""Templates compiled by ``PageCodeGenerator`` render what Jinja's own code renders."""

from types import SimpleNamespace

import jinja2
import markupsafe
import pytest
from hypothesis import example, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from jinja2.compiler import CodeGenerator

from dalil.core import templates
from dalil.core.i18n import install_interface


def environment(code_generator, lang, **options):
    env = jinja2.Environment(autoescape=True, **options)
    env.code_generator_class = code_generator
    install_interface(SimpleNamespace(env=env, settings={"DALIL_INTERFACE_LANG": lang}, context={}))
    return env


class Shown:
    def __html__(self):
        return "<em>shown</em>"


SOURCES = {
    "messages": '{{ _("Directory") }}|{{ gettext("Phone") }}|{% trans %}Breadcrumbs{% endtrans %}'
                '|{{ _("Not in any catalog: <b> & 100%%") }}',
    "variables": "{% trans category=text, city=markup %}{{ category }} in {{ city }}{% endtrans %}"
                 '|{{ _("In %(city)s time", city=text) }}|{{ _("In %(city)s time", city=markup) }}'
                 '|{{ _("In %(city)s time", city="<const>") }}|{{ _("Directory", unused=text) }}',
    "plural": "{% trans count=number %}{{ count }} listing{% pluralize %}{{ count }} listings{% endtrans %}",
    "as values": '{% set title = _("Directory") %}{{ title|upper }}|{{ title is string }}'
                 '|{{ (_("Phone") ~ text)|length }}|{{ [_("City"), text]|join(", ") }}',
    "values": "{{ text }}|{{ markup }}|{{ number }}|{{ 2.5 }}|{{ none }}|{{ missing }}|{{ shown }}"
              "|{{ flag }}|{{ items }}|{{ text|e }}|{{ text|safe }}|{{ markup ~ text }}",
    "buffers": "{% macro box() %}<div>{{ caller() }}{{ text }}</div>{% endmacro %}"
               "{% call box() %}{{ text }}{{ markup }}{% endcall %}"
               "{% filter upper %}{{ text }}{% endfilter %}{% set part %}{{ text }}{% endset %}"
               "{{ part }}{{ part|length }}",
    "loop binds _": '{% for _ in [text] %}{{ _ }}{% endfor %}{{ _("Directory") }}',
    "parameter binds _": '{% macro m(_) %}{{ _ }}{% endmacro %}{{ m(text) }}{{ _("Phone") }}',
    "set binds gettext": '{{ gettext("Phone") }}{% set gettext = none %}{{ gettext }}',
    "escaping off": '{% autoescape false %}{{ _("Directory") }}{{ text }}{% endautoescape %}{{ text }}',
    "attributes": "{{ obj.name }}|{{ obj.inner.name }}|{{ mapping.key }}|{{ mapping.items }}"
                  "|{{ obj.absent is defined }}|{{ items.0 }}"
                  "|{{ text.upper() }}|{{ [obj.name, mapping.key]|join }}|{{ obj.absent }}",
    "placeholders": '{{ _("%(n)d items", n=number) }}|{{ _("%(a)s and %(b)s %%", a=text, b=markup) }}'
                    '|{{ _("%(a)r", a=text) }}',
}
VALUES = {"text": "<مطعم & 'مقهى' \"x\">", "markup": markupsafe.Markup("<span>فاس</span>"),
          "number": 3, "none": None, "shown": Shown(), "flag": True, "items": ["<a>", 1],
          "obj": SimpleNamespace(name="<b>", inner=SimpleNamespace(name="داخل")),
          "mapping": {"key": "<k>", "items": 1}}


@pytest.mark.parametrize("lang", ["ar", "fr"])
@pytest.mark.parametrize("name", sorted(SOURCES))
def test_page_code_renders_what_jinja_s_code_renders(name, lang):
    source = SOURCES[name]
    expected = environment(CodeGenerator, lang).from_string(source).render(VALUES)
    assert environment(templates.PageCodeGenerator, lang).from_string(source).render(VALUES) == expected


@pytest.mark.parametrize("lang", ["ar", "fr"])
def test_blocks_extends_and_includes_render_what_jinja_s_code_renders(lang):
    loader = jinja2.DictLoader({
        "base.html": "<title>{% block title %}{{ text }}{% endblock %}</title>{% block body %}"
                     "{% endblock %}{% include 'part.html' %}|{% block tail scoped %}{% endblock %}",
        "part.html": "<p>{{ text }}{% for item in items %}{{ item }}{% endfor %}</p>",
        "page.html": "{% extends 'base.html' %}{% block title %}{{ super() }} · {{ _('Directory') }}"
                     "{% endblock %}{% block body %}{% for x in items %}{{ x }}{% block inner %}"
                     "{{ markup }}{% endblock %}{% endfor %}{% endblock %}",
    })
    expected = environment(CodeGenerator, lang, loader=loader).get_template("page.html").render(VALUES)
    rendered = environment(templates.PageCodeGenerator, lang, loader=loader).get_template("page.html")
    assert rendered.render(VALUES) == expected


def test_a_message_that_fails_fails_as_in_jinja_s_code():
    source = '{{ _("%(name)s") }}'
    with pytest.raises(KeyError):
        environment(CodeGenerator, "ar").from_string(source).render()
    with pytest.raises(KeyError):
        environment(templates.PageCodeGenerator, "ar").from_string(source).render()


def test_interface_text_is_compiled_in():
    env = environment(templates.PageCodeGenerator, "ar")
    code = env.compile(SOURCES["messages"] + SOURCES["variables"], raw=True)
    assert "gettext" not in code and "context.call" not in code
    assert env.from_string('{{ _("Directory") }}').render() in code
    # Where a template binds ``_``, it stays a call.
    assert "context.call" in env.compile(SOURCES["parameter binds _"], raw=True)


@given(text=st.text())
@example(text="<&'\">")
@hypothesis_settings(max_examples=500, deadline=None, derandomize=True)
def test_escape_text_escapes_as_markupsafe(text):
    expected = str(markupsafe.escape(text))
    assert templates.escape_text(text) == expected
    assert templates._escape_text_replacing(text) == expected
    assert type(templates.escape_text(text)) is str


def test_compiled_templates_are_kept_apart_by_code_generator_and_catalog(tmp_path):
    loader = jinja2.DictLoader({"t.html": '{{ _("Directory") }}'})
    shown = set()
    for code_generator in (CodeGenerator, templates.PageCodeGenerator):
        for lang in ("ar", "fr"):
            env = environment(code_generator, lang, loader=loader)
            env.bytecode_cache = templates._CompiledTemplates(str(tmp_path))
            shown.add((lang, env.get_template("t.html").render()))
    assert len(list(tmp_path.iterdir())) == 4
    assert len(shown) == 2


def test_compiled_templates_are_not_reused_by_another_version_of_the_code_generator(tmp_path, monkeypatch):
    loader = jinja2.DictLoader({"t.html": "<b>{{ x }}</b>"})
    for version in ("this", "the next"):
        monkeypatch.setattr(templates, "_THIS_CODE", version)
        env = environment(templates.PageCodeGenerator, "ar", loader=loader)
        env.bytecode_cache = templates._CompiledTemplates(str(tmp_path))
        assert env.get_template("t.html").render(x="<") == "<b>&lt;</b>"
    assert len(list(tmp_path.iterdir())) == 2


def test_the_names_templates_read_are_kept_for_the_next_build(tmp_path, monkeypatch):
    """A build parses a template only when no earlier build kept the names its source
    reads (CACHE_PATH); an edited template is parsed again, and its digest follows."""
    from dalil.core import pagecache

    sources = {"base.html": "<title>{{ SITENAME }}</title>{% block body %}{% endblock %}",
               "page.html": '{% extends "base.html" %}{% block body %}{{ menu }}{% endblock %}'}
    context = {"CACHE_CONTENT": True, "LOAD_CONTENT_CACHE": True, "CACHE_PATH": str(tmp_path),
               "SITENAME": "دليل", "menu": ["a", "b"]}
    parsed = []

    def digest_in_a_new_process():
        env = jinja2.Environment(loader=jinja2.DictLoader(sources))
        original = env.parse
        monkeypatch.setattr(env, "parse", lambda source, *args: parsed.append(source) or original(
            source, *args))
        return pagecache.template_digest(env, context, ["page.html"], set())

    first = digest_in_a_new_process()
    assert len(parsed) == 2 and (tmp_path / pagecache.TEMPLATE_NAMES_CACHE).is_file()
    parsed.clear()
    assert digest_in_a_new_process() == first and parsed == []
    context["menu"] = ["a", "c"]  # a value the template reads: another digest, no parse
    assert digest_in_a_new_process() != first and parsed == []
    sources["page.html"] = '{% extends "base.html" %}{% block body %}{{ footer }}{% endblock %}'
    edited = digest_in_a_new_process()
    assert parsed == [sources["page.html"]] and edited != first
    context["LOAD_CONTENT_CACHE"] = False  # the cache not loaded: both parsed again
    parsed.clear()
    assert digest_in_a_new_process() == edited and len(parsed) == 2
