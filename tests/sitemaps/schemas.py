"""The official schemas kept offline in ``shared/schemas/``, beside the repository."""

import json
from pathlib import Path

import pytest

SCHEMAS = Path(__file__).resolve().parent.parent.parent.parent / "shared" / "schemas"


def schema_path(name):
    path = SCHEMAS / name
    if not path.is_file():
        pytest.fail(f"schema {name} not found at {path}: the folder holding the repository "
                    "must also hold shared/schemas/ (schemas are never fetched)", pytrace=False)
    return path


def xml_schema(name):
    from lxml import etree

    return etree.XMLSchema(etree.parse(str(schema_path(name))))


def json_schema(name):
    return json.loads(schema_path(name).read_text(encoding="utf-8"))
