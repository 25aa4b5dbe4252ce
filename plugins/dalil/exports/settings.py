"""Settings of the exports, with their defaults (prefix ``DALIL_EXPORTS_``)."""

from dataclasses import dataclass

from dalil.core.settings import read_settings, setting


@dataclass(frozen=True)
class ExportSettings:
    json_save_as: str = setting("directory/export.json", "the JSON export")
    csv_save_as: str = setting("directory/export.csv", "the CSV export")
    schema_save_as: str = setting("schemas/directory-export.schema.json",
                                  "the JSON Schema of the JSON export")
    geojson_save_as: str = setting("directory/export.geojson", "the GeoJSON export")
    geojson_schema_save_as: str = setting("schemas/directory-geojson.schema.json",
                                          "the JSON Schema of the GeoJSON export")
    datapackage_save_as: str = setting("directory/datapackage.json",
                                       "the data package describing the exports")
    datapackage_schema_save_as: str = setting("schemas/datapackage.schema.json",
                                              "the JSON Schema of the data package")
    license_title: str = setting(("Non-commercial use with attribution; commercial use or "
                                  "republication by request to the operator"),
                                 "the data package's licence terms")
    license_url: str = setting("open-data/", "the page stating them, under `SITEURL`")
    # Next to the listing page, which links "contact.vcf" relative to its URL.
    vcard_save_as: str = setting("directory/listing/{slug}/contact.vcf",
                                 "each listing's vCard (keep it beside the listing page, "
                                 "which links `contact.vcf`)")


def export_settings(settings):
    return read_settings(ExportSettings, settings, "DALIL_EXPORTS_")
