"""Plugin templates sit below the theme's, so a theme overrides any of them."""

import os

import jinja2
from jinja2 import ChoiceLoader, FileSystemBytecodeCache, FileSystemLoader, meta, nodes
from jinja2.ext import Extension


def add_plugin_templates(generator, templates_dir):
    """Let ``generator`` load templates from ``templates_dir`` after the theme's."""
    generator.env.loader = ChoiceLoader([generator.env.loader, FileSystemLoader(str(templates_dir))])
    generator._templates_path.append(str(templates_dir))
    # Plugin templates are written for autoescaping, whatever the site's setting.
    generator.env.autoescape = True


def escape_by_default(generator):
    """``generator_init``: every template escapes, whatever ``JINJA_ENVIRONMENT`` says.

    The theme is written for autoescaping: names from content reach pages as text,
    also on a site made by ``pelican-quickstart``, whose settings leave it off.
    """
    generator.env.autoescape = True


class RenderOnce(Extension):
    """``{% once %}…{% endonce %}``: a part of the page made from what every page shares
    (the header, the footer: a third of a listing page's rendering) is rendered once per
    environment, which is one generator's in one build, and copied into every page whose
    values for it are the same. The key is the part and the value of every variable it
    reads (found when it is compiled), so the bytes are those of rendering it each time."""

    tags = {"once"}

    def __init__(self, environment):
        super().__init__(environment)
        self.rendered = {}  # key -> (text, the values it was made from: their ids stay theirs)

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(("name:endonce",), drop_needle=True)
        part = nodes.Template(body, lineno=lineno).set_environment(self.environment)
        names = sorted(meta.find_undeclared_variables(part))
        values = nodes.List([nodes.Name(name, "load") for name in names])
        method = self.call_method("_render", [nodes.Const(f"{parser.name}:{lineno}"), values])
        return nodes.CallBlock(method, [], [], body).set_lineno(lineno)

    def _render(self, part, values, caller):
        key = (part, *map(_value_key, values))
        known = self.rendered.get(key)
        if known is None:
            known = self.rendered[key] = (caller(), values)
        return known[0]


_PLAIN = (str, int, float, bool, type(None))


def _value_key(value):
    """``value`` as part of a dict key: plain data as itself, an undefined name as such,
    anything else by identity (``RenderOnce`` keeps it, so that no other object takes it)."""
    if isinstance(value, _PLAIN):
        return value
    if isinstance(value, jinja2.Undefined):
        return jinja2.Undefined
    if isinstance(value, (list, tuple)):
        return (type(value), *map(_value_key, value))
    if isinstance(value, dict):
        return (dict, *((key, _value_key(item)) for key, item in value.items()))
    return (object, id(value))


def render_once_parts(generator):
    """``generator_init``: the theme's ``{% once %}`` parts (see ``RenderOnce``)."""
    generator.env.add_extension(RenderOnce)


def load_templates_once(generator):
    """``generator_init``: a template is loaded once per build, not checked on disk (a
    stat of each file it extends or imports) on every page; each build has new
    generators, so a template edited during ``--autoreload`` is still seen."""
    generator.env.auto_reload = False


class _CompiledTemplates(FileSystemBytecodeCache):
    """Jinja keys a template's bytecode by its name and source, but the code also
    depends on the environment's options (autoescape, trim_blocks, extensions, …):
    they join the key, so code compiled under other options is never reused. An
    option whose repr is not stable (a function) only makes every build compile."""

    OPTIONS = ("autoescape", "trim_blocks", "lstrip_blocks", "keep_trailing_newline",
               "newline_sequence", "block_start_string", "block_end_string",
               "variable_start_string", "variable_end_string", "comment_start_string",
               "comment_end_string", "line_statement_prefix", "line_comment_prefix",
               "optimized", "finalize", "enable_async", "newstyle_gettext")

    def get_bucket(self, environment, name, filename, source):
        options = repr((jinja2.__version__, sorted(environment.extensions),
                        [getattr(environment, option, None) for option in self.OPTIONS]))
        return super().get_bucket(environment, f"{options}\n{name}", filename, source)


def reuse_compiled_templates(generator):
    """``generator_init``: with ``CACHE_CONTENT``, compiled templates are kept in CACHE_PATH
    and reused while a template's source and the environment's options are unchanged,
    so a rebuild does not compile the theme again."""
    settings = generator.settings
    if settings.get("CACHE_CONTENT") and settings.get("CACHE_PATH"):
        folder = os.path.join(settings["CACHE_PATH"], "dalil_templates")
        os.makedirs(folder, exist_ok=True)
        generator.env.bytecode_cache = _CompiledTemplates(folder)
