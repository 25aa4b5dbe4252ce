"""Plugin templates sit below the theme's, so a theme overrides any of them."""

from jinja2 import ChoiceLoader, FileSystemLoader


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
