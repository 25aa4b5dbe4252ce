"""The operational files: build-info.json, security.txt and the host header files."""

import json
import logging
import posixpath
from pathlib import Path

from pelican.generators import Generator

from dalil.core.dates import build_time
from dalil.core.errors import ContentErrors
from dalil.core.languages import writes_site_files
from dalil.core.output import output_files

from .buildinfo import build_info
from .headers import FINGERPRINTED, header_policy, headers_file, htaccess, nginx_snippet
from .securitytxt import YEAR_DAYS, security_txt
from .settings import sitefiles_settings

logger = logging.getLogger(__name__)
SETTINGS = "pelicanconf.py"  # where an operator fixes a setting error


class SiteFilesGenerator(Generator):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.config = sitefiles_settings(self.settings)
        self.built_at = None
        self.security_text = None
        self.policy = None

    def generate_context(self):
        cfg = self.config
        errors = ContentErrors()
        self.built_at = build_time()
        if cfg.security_txt_save_as:
            if not cfg.security_contact:
                logger.warning("dalil.sitefiles: DALIL_SITEFILES_SECURITY_CONTACT is not set, "
                               "so no %s is written", cfg.security_txt_save_as)
            else:
                if int(cfg.security_expires_days) >= YEAR_DAYS:
                    logger.warning(
                        "dalil.sitefiles: DALIL_SITEFILES_SECURITY_EXPIRES_DAYS is %s: RFC 9116 "
                        "asks for an Expires less than a year after the build",
                        cfg.security_expires_days)
                try:
                    self.security_text = security_txt(cfg, self.settings.get("SITEURL", ""),
                                                      self.built_at)
                except ValueError as error:
                    errors.add(SETTINGS, "security.txt: %s", error)
        try:
            self.policy = header_policy(self.settings)
        except ValueError as error:
            errors.add(SETTINGS, "DALIL_SITEFILES_CONTENT_SECURITY_POLICY: %s", error)
        errors.report(logger)

    def fingerprinted_files(self):
        """Fingerprinted names among the theme's and the content's static files."""
        paths = {static.save_as for static in self.context.get("staticfiles", [])}
        theme_dir = self.settings.get("THEME_STATIC_DIR", "theme")
        for static_path in self.settings.get("THEME_STATIC_PATHS", ["static"]):
            source = Path(self.theme, static_path)
            if source.is_dir():
                paths.update(posixpath.join(theme_dir, path.relative_to(source).as_posix())
                             for path in source.rglob("*") if path.is_file())
        return sorted(path for path in paths if FINGERPRINTED.search(path))

    def generate_output(self, writer):
        if not writes_site_files(self.settings):
            return  # the first language's build writes them
        cfg = self.config
        files = output_files(self.context)
        if cfg.build_info_save_as:
            info = build_info(self.context, self.settings, self.built_at)
            files.write(cfg.build_info_save_as,
                        json.dumps(info, ensure_ascii=False, allow_nan=False, indent=2) + "\n")
        if cfg.security_txt_save_as and self.security_text:
            files.write(cfg.security_txt_save_as, self.security_text)
        if self.policy is None:
            return
        if cfg.nginx_save_as:
            files.write(cfg.nginx_save_as, nginx_snippet(self.policy))
        if cfg.headers_save_as:
            files.write(cfg.headers_save_as, headers_file(self.policy, self.fingerprinted_files()))
        if cfg.htaccess_save_as:
            files.write(cfg.htaccess_save_as, htaccess(self.policy))
