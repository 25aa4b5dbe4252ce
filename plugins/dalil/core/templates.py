"""Plugin templates sit below the theme's, so a theme overrides any of them."""

import hashlib
import marshal
import os
import re
from pathlib import Path

import jinja2
import markupsafe
from jinja2 import ChoiceLoader, FileSystemBytecodeCache, FileSystemLoader, meta, nodes
from jinja2.compiler import CodeGenerator, optimizeconst
from jinja2.ext import Extension
from jinja2.visitor import NodeTransformer
from markupsafe import Markup


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
    # Filters, not calls: Jinja binds a template's filters once, where each call goes
    # through ``Context.call`` and a ``{% call %}`` makes a ``Macro`` on every page.
    KNOWN, TEXT = "dalil_once_known", "dalil_once_text"

    def __init__(self, environment):
        super().__init__(environment)
        self.rendered = {}  # key -> (text, the values it was made from: their ids stay theirs)
        self._found = None  # the text the last KNOWN test found
        environment.filters[self.KNOWN] = self._known
        environment.filters[self.TEXT] = self._text

    def parse(self, parser):
        """``{% if values|known(part) %}{{ values|text }}{% else %}{% call _render(part,
        values) %}body{% endcall %}{% endif %}``: made with its page the first time only."""
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(("name:endonce",), drop_needle=True)
        part = nodes.Template(body, lineno=lineno).set_environment(self.environment)
        names = sorted(meta.find_undeclared_variables(part))
        values = nodes.List([nodes.Name(name, "load") for name in names])
        name = nodes.Const(f"{parser.name}:{lineno}")
        known = nodes.Filter(values, self.KNOWN, [name], [], None, None)
        # On the values again, not a constant: Jinja would run the filter as it compiles.
        text = nodes.Output([nodes.Filter(values, self.TEXT, [], [], None, None)])
        render = nodes.CallBlock(self.call_method("_render", [name, values]), [], [], body)
        return nodes.If(known, [text], [], [render]).set_lineno(lineno)

    def _known(self, values, part):
        known = self.rendered.get((part, *map(_value_key, values)))
        self._found = None if known is None else known[0]
        return known is not None

    def _text(self, _):
        return self._found

    def _render(self, part, values, caller):
        key = (part, *map(_value_key, values))
        known = self.rendered.get(key)
        if known is None:
            known = self.rendered[key] = (caller(), values)
        return known[0]


_PLAIN = (str, int, float, bool, type(None))


def _value_key(value):
    """``value`` as part of a dict key: plain data as itself, an undefined name as such,
    a list or dict of plain data as its ``marshal`` bytes (made in C; version 2 keeps no
    references, so equal data give equal bytes, and ``True`` stays apart from ``1``),
    anything else by identity (``RenderOnce`` keeps it, so that no other object takes it)."""
    if isinstance(value, _PLAIN):
        return value
    if isinstance(value, jinja2.Undefined):
        return jinja2.Undefined
    if value.__class__ in (list, tuple, dict):
        try:
            return (value.__class__, marshal.dumps(value, 2))
        except ValueError:  # holds something else: item by item
            pass
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


# This module's code makes the templates' code (PageCodeGenerator): compiled code made by
# another version of it is not reused.
_THIS_CODE = hashlib.blake2b(Path(__file__).read_bytes(), digest_size=16).hexdigest()


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
        code_generator = environment.code_generator_class
        # Folded interface text is part of the code: its catalog is part of the key.
        catalogs = sorted((name, gettext.catalog) for name, gettext in interface_text(environment).items())
        options = repr((jinja2.__version__, _THIS_CODE, sorted(environment.extensions),
                        [getattr(environment, option, None) for option in self.OPTIONS],
                        f"{code_generator.__module__}.{code_generator.__qualname__}", catalogs))
        return super().get_bucket(environment, f"{options}\n{name}", filename, source)


def _escape_text_replacing(text):
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace("'", "&#39;").replace('"', "&#34;"))


# MarkupSafe 3's escaping without the Markup around it; the same replacements otherwise.
_escape_inner = getattr(markupsafe, "_escape_inner", _escape_text_replacing)


class _Joined:
    append = staticmethod(lambda part: part)
    extend = staticmethod("".join)


JOINED = _Joined()


def escape_text(value):
    """``markupsafe.escape(value)`` as a plain str: what a compiled template shows."""
    if value.__class__ is str:
        return _escape_inner(value)
    html = getattr(value, "__html__", None)
    if html is not None:
        shown = html()
        return shown if isinstance(shown, str) else str(shown)
    return _escape_inner(str(value))


# Names that a template calls for interface text.
GETTEXT_NAMES = ("_", "gettext")


def interface_text(environment):
    """name -> the environment's gettext global that gives a message's text in the build's
    catalog at compile time (``translated``, ``catalog``: ``i18n.remembered_gettext``)."""
    return {name: gettext for name in GETTEXT_NAMES
            if hasattr(gettext := environment.globals.get(name), "translated")}


# A message whose every placeholder is ``%(name)s`` (``%%`` aside).
_NAMED_STRINGS_ONLY = re.compile(r"(?:[^%]|%%|%\([^)]*\)s)*", re.DOTALL)


class _FoldMessages(NodeTransformer):
    """``_("…")`` and ``{% trans %}`` become the translated text in the compiled code, and
    their variables a plain ``%``: no gettext call on every page (a listing page makes
    about twenty), the same value as Jinja's newstyle gettext, ``Markup(text) % variables``."""

    def __init__(self, translators):
        self.translators = translators  # name -> message -> the catalog's text

    def visit_Call(self, node):
        node = self.generic_visit(node)
        translated = self.translators.get(node.node.name) if isinstance(node.node, nodes.Name) else None
        if (translated is None or len(node.args) != 1 or node.dyn_args or node.dyn_kwargs
                or not isinstance(node.args[0], nodes.Const) or not isinstance(node.args[0].value, str)):
            return node
        text = Markup(translated(node.args[0].value))
        if node.kwargs:
            if _NAMED_STRINGS_ONLY.fullmatch(text):
                # Markup's % escapes each value through a helper object for each
                # placeholder; where every one is %(name)s, the escaped values do as well.
                escaped = nodes.Dict([nodes.Pair(nodes.Const(keyword.key),
                                                 nodes.Filter(keyword.value, "escape", [], [], None, None),
                                                 lineno=node.lineno)
                                      for keyword in node.kwargs], lineno=node.lineno)
                return nodes.MarkSafe(nodes.Mod(nodes.Const(str(text)), escaped), lineno=node.lineno)
            variables = nodes.Dict([nodes.Pair(nodes.Const(keyword.key), keyword.value, lineno=node.lineno)
                                    for keyword in node.kwargs], lineno=node.lineno)
            return nodes.Mod(nodes.MarkSafe(nodes.Const(str(text))), variables, lineno=node.lineno)
        try:
            text = text % {}
        except (TypeError, ValueError, KeyError):  # the page's rendering fails on it as before
            return node
        return nodes.MarkSafe(nodes.Const(str(text)), lineno=node.lineno)


def _names_bound_in(template):
    """Every name a template binds (a variable, a parameter, a macro, an import)."""
    bound = {name.name for name in template.find_all(nodes.Name) if name.ctx != "load"}
    bound.update(macro.name for macro in template.find_all(nodes.Macro))
    bound.update(imported.target for imported in template.find_all(nodes.Import))
    for imported in template.find_all(nodes.FromImport):
        bound.update(name if isinstance(name, str) else name[1] for name in imported.names)
    return bound


class PageCodeGenerator(CodeGenerator):
    """Jinja's code generator, with costs of every page moved to compile time; the
    rendered text is the same (tests/perf/test_templates.py compares it with Jinja's).

    A value shown on a page is escaped by ``escape_text``, not ``markupsafe.escape``:
    Jinja joins a page's parts into a str, and wraps the parts of macros, blocks and
    ``{% set %}`` in Markup itself, so the Markup ``escape`` makes of each value is only
    thrown away. Interface text is folded in (``_FoldMessages``) where a template
    is escaped throughout (no ``{% autoescape %}``) and does not rebind ``_``. Output
    runs, blocks and extends yield their parts joined (``visit_Output``, ``writeline``),
    and an attribute is read inline (``visit_Getattr``)."""

    def visit_Template(self, node, frame=None):
        self.writeline("from dalil.core.templates import escape_text, JOINED as _joined")
        environment = self.environment
        translators = {name: gettext.translated for name, gettext in interface_text(environment).items()}
        if (translators and environment.autoescape is True
                and not any(node.find_all((nodes.EvalContextModifier, nodes.ScopedEvalContextModifier)))
                and not _names_bound_in(node) & set(GETTEXT_NAMES)):
            node = _FoldMessages(translators).visit(node)
        super().visit_Template(node, frame)

    def visit_Output(self, node, frame):
        """The parts of an output run joined and yielded once, not one yield each through
        every level of blocks and extends; one part, or text alone, is yielded as it is."""
        if (frame.buffer is not None or self.environment.is_async or len(node.nodes) == 1
                or all(isinstance(child, nodes.TemplateData) for child in node.nodes)):
            return super().visit_Output(node, frame)
        frame.buffer = "yield _joined"
        try:
            super().visit_Output(node, frame)
        finally:
            frame.buffer = None

    def writeline(self, x, node=None, extra=0):
        # A block, the template extended or an include is joined and yielded once, not
        # each of its parts through this level too.
        if x.startswith("yield from ") and not self.environment.is_async:
            x = f"yield ''.join({x[len('yield from '):]})"
        super().writeline(x, node, extra)

    @optimizeconst
    def visit_Getattr(self, node, frame):
        """``x.name`` as ``getattr(x, "name", missing)``, inline, and ``Environment.getattr``
        only where that finds nothing: a listing page reads about seventy attributes, each
        a Python call to it (a tenth of the page's rendering)."""
        if self.environment.is_async or type(self.environment).getattr is not jinja2.Environment.getattr:
            return super().visit_Getattr(node, frame)
        # Walrus names: an inner x.y is whole before the outer one assigns them.
        self.write("(_dalil_value if (_dalil_value := getattr(_dalil_object := ")
        self.visit(node.node, frame)
        self.write(f", {node.attr!r}, missing)) is not missing "
                   f"else environment.getattr(_dalil_object, {node.attr!r}))")

    def _output_child_pre(self, node, frame, finalize):
        if frame.eval_ctx.autoescape and not frame.eval_ctx.volatile:
            self.write("escape_text(")
            if finalize.src is not None:
                self.write(finalize.src)
            return
        super()._output_child_pre(node, frame, finalize)


def compile_page_code(generator):
    """``generator_init``: templates compile with ``PageCodeGenerator``."""
    generator.env.code_generator_class = PageCodeGenerator


def reuse_compiled_templates(generator):
    """``generator_init``: with ``CACHE_CONTENT``, compiled templates are kept in CACHE_PATH
    and reused while a template's source and the environment's options are unchanged,
    so a rebuild does not compile the theme again."""
    settings = generator.settings
    if settings.get("CACHE_CONTENT") and settings.get("CACHE_PATH"):
        folder = os.path.join(settings["CACHE_PATH"], "dalil_templates")
        os.makedirs(folder, exist_ok=True)
        generator.env.bytecode_cache = _CompiledTemplates(folder)
