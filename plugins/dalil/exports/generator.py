"""The exports generator: JSON and CSV exports, their schema, and one vCard per listing."""

import logging

from pelican.generators import Generator

from dalil.core.dates import build_time
from dalil.core.languages import writes_site_files
from dalil.core.output import output_files
from dalil.directory.model import CONTEXT_KEY
from dalil.directory.settings import build_workers

from .datapackage import data_package
from .schema import datapackage_schema, export_schema, geojson_schema
from .settings import export_settings
from .writers import write_exports

logger = logging.getLogger(__name__)


class ExportsGenerator(Generator):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.config = export_settings(self.settings)
        self.started = False
        # A cached rebuild has its model already (see DirectoryGenerator): the exports
        # start now, beside the other generators' contexts, instead of with the output.
        if self.context.get(CONTEXT_KEY) is not None:
            self._start(now=True)

    def generate_context(self):
        if not self.started:
            self._start(now=True)

    def _start(self, now):
        # The exports read only the directory model, complete once its generator has run
        # (it comes first): with a second core they are written while the rest of the
        # build reads and renders, as nothing else reads them.
        self.started = True
        if not writes_site_files(self.settings):
            return  # the first language's build writes them
        directory = self.context.get(CONTEXT_KEY)
        if directory is None:
            logger.error("dalil.exports: no directory model; add dalil.directory to PLUGINS")
            return
        files = output_files(self.context)
        # Here: the forked writer would copy the memory page of each listing it read.
        has_osm_data = any(listing.osm for listing in directory.listings)
        files.in_background(lambda: self._write(files, directory, has_osm_data),
                            forked=build_workers(self.settings) > 1, now=now)

    def _write(self, files, directory, has_osm_data):
        cfg = self.config
        siteurl = self.settings.get("SITEURL", "")
        count = write_exports(files, directory, cfg, siteurl)
        for save_as, make_schema in ((cfg.schema_save_as, export_schema),
                                     (cfg.geojson_schema_save_as, geojson_schema),
                                     (cfg.datapackage_schema_save_as, datapackage_schema)):
            if save_as:
                files.write(save_as, make_schema(siteurl, save_as))
                count += 1
        package = data_package(cfg, siteurl, self.settings.get("SITENAME", ""), build_time(),
                               has_osm_data)
        if cfg.datapackage_save_as and package:
            files.write(cfg.datapackage_save_as, package)
            count += 1
        logger.info("dalil.exports: %d listings exported, %d files", len(directory.listings), count)
