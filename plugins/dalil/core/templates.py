"""Plugin templates sit below the theme's, so a theme overrides any of them."""

from jinja2 import ChoiceLoader, FileSystemLoader


def add_plugin_templates(generator, templates_dir):
    """Let ``generator`` load templates from ``templates_dir`` after the theme's."""
    generator.env.loader = ChoiceLoader([generator.env.loader, FileSystemLoader(str(templates_dir))])
    generator._templates_path.append(str(templates_dir))
    # Plugin templates are written for autoescaping, whatever the site's setting.
    generator.env.autoescape = True
