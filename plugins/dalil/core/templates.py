"""Plugin templates sit below the theme's, so a theme overrides any of them."""

import os

import jinja2
from jinja2 import ChoiceLoader, FileSystemBytecodeCache, FileSystemLoader


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
