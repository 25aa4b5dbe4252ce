"""The exports generator: JSON and CSV exports, their schema, and one vCard per listing."""

import logging

from pelican.generators import Generator

from dalil.core.output import output_files
from dalil.directory.model import CONTEXT_KEY
from dalil.core.parallel import worker_count
from dalil.directory.settings import directory_settings

from .schema import export_schema
from .settings import export_settings
from .writers import write_exports

logger = logging.getLogger(__name__)


class ExportsGenerator(Generator):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.config = export_settings(self.settings)

    def generate_output(self, writer):
        directory = self.context.get(CONTEXT_KEY)
        if directory is None:
            logger.error("dalil.exports: no directory model; add dalil.directory to PLUGINS")
            return
        cfg = self.config
        siteurl = self.settings.get("SITEURL", "")
        files = output_files(self.context)
        workers = worker_count(directory_settings(self.settings).workers)
        count = write_exports(files, directory, cfg, siteurl, workers)
        if cfg.schema_save_as:
            files.write(cfg.schema_save_as, export_schema(siteurl, cfg.schema_save_as))
        logger.info("dalil.exports: %d listings exported, %d files", len(directory.listings), count)
