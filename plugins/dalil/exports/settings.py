"""Settings of the exports, with their defaults (prefix ``DALIL_EXPORTS_``)."""

from dataclasses import dataclass

from dalil.core.settings import read_settings


@dataclass(frozen=True)
class ExportSettings:
    json_save_as: str = "directory/export.json"
    csv_save_as: str = "directory/export.csv"
    schema_save_as: str = "schemas/directory-export.schema.json"
    geojson_save_as: str = "directory/export.geojson"
    geojson_schema_save_as: str = "schemas/directory-geojson.schema.json"
    datapackage_save_as: str = "directory/datapackage.json"
    datapackage_schema_save_as: str = "schemas/datapackage.schema.json"
    # The data package's licence: the terms, and the page that states them (under SITEURL).
    license_title: str = ("Non-commercial use with attribution; commercial use or "
                          "republication by request to the operator")
    license_url: str = "open-data/"
    # Next to the listing page, which links "contact.vcf" relative to its URL.
    vcard_save_as: str = "directory/listing/{slug}/contact.vcf"


def export_settings(settings):
    return read_settings(ExportSettings, settings, "DALIL_EXPORTS_")
