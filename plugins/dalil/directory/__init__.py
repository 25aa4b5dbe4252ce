"""The directory: listings, categories and cities, their model and their pages."""

from pelican import signals

from dalil.core.errors import install_log_filters
from dalil.core.i18n import install_interface
from dalil.core.languages import install_languages, prepare_first_language
from dalil.core.memory import collect_previous_build, return_large_buffers
from dalil.core.static import keep_unchanged_static
from dalil.core.templates import (compile_page_code, escape_by_default, load_templates_once,
                                  render_once_parts, reuse_compiled_templates)
from dalil.core.writer import get_writer

from .articles import (check_article_slugs, check_page_slugs, claim_directory_folders,
                       fix_content_urls, forget_memoized_content, index_taxonomy_articles,
                       keep_relative_source_path, publish_page_links, sanitize_content,
                       save_content_pages, share_url_wrappers, show_at_own_urls, tell_languages,
                       wait_for_dates, write_articles_beside, write_empty_categories)
from .generator import DirectoryGenerator
from .images import check_listing_images
from .reader import use_for_content


def get_generators(pelican_object):
    collect_previous_build()  # once a build, before any of its generators is made
    return DirectoryGenerator


def register():
    install_log_filters()
    return_large_buffers()
    signals.initialized.connect(prepare_first_language)
    signals.initialized.connect(claim_directory_folders)
    signals.readers_init.connect(use_for_content)
    signals.generator_init.connect(escape_by_default)
    signals.generator_init.connect(install_interface)
    signals.generator_init.connect(install_languages)
    signals.generator_init.connect(render_once_parts)
    signals.generator_init.connect(compile_page_code)
    signals.generator_init.connect(reuse_compiled_templates)
    signals.generator_init.connect(load_templates_once)
    signals.get_generators.connect(get_generators)
    signals.get_writer.connect(get_writer)
    signals.static_generator_finalized.connect(keep_unchanged_static)
    signals.static_generator_finalized.connect(check_listing_images)
    signals.article_generator_context.connect(tell_languages)
    signals.page_generator_context.connect(tell_languages)
    signals.article_generator_context.connect(share_url_wrappers)
    signals.page_generator_context.connect(share_url_wrappers)
    signals.article_generator_pretaxonomy.connect(wait_for_dates)
    signals.article_generator_finalized.connect(show_at_own_urls)
    signals.article_generator_finalized.connect(check_article_slugs)
    signals.article_generator_finalized.connect(fix_content_urls)
    signals.article_generator_finalized.connect(index_taxonomy_articles)
    signals.page_generator_finalized.connect(show_at_own_urls)
    signals.page_generator_finalized.connect(fix_content_urls)
    signals.page_generator_finalized.connect(check_page_slugs)
    signals.page_generator_finalized.connect(publish_page_links)
    signals.content_object_init.connect(sanitize_content)
    signals.content_object_init.connect(keep_relative_source_path)
    signals.all_generators_finalized.connect(write_articles_beside)
    signals.article_writer_finalized.connect(write_empty_categories)
    signals.article_writer_finalized.connect(save_content_pages)
    signals.page_writer_finalized.connect(save_content_pages)
    signals.finalized.connect(forget_memoized_content)
