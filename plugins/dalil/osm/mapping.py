"""Which OpenStreetMap tags become which categories: the default table, and a TOML file
that overrides or extends it."""

import tomllib
from dataclasses import dataclass
from importlib.resources import files

from dalil.core.text import plain_text
from dalil.directory import validate
from dalil.directory.sourcefiles import ImportFailed

DEFAULT_MAPPING = "categories.toml"
# Where the house number goes in Street; a mapping file may say "{housenumber} {street}".
ADDRESS_FORMAT = "{street} {housenumber}"
_NAME_KEYS = ("ar", "fr", "en")
_ENTRY_KEYS = (*_NAME_KEYS, "schema_type")


@dataclass(frozen=True)
class Category:
    tag: str  # "amenity=cafe"
    name: str  # Arabic
    name_fr: str
    name_en: str
    schema_type: str


@dataclass(frozen=True)
class Mapping:
    categories: dict  # key -> value -> Category, keys in the order they are tried
    address_format: str

    def category_of(self, tags):
        """The ``Category`` of the first mapped tag in ``tags``, else None."""
        for key, values in self.categories.items():
            value = tags.get(key)
            if value is not None and value in values:
                return values[value]
        return None


def _table(text, where):
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ImportFailed(f"{where}: not TOML: {error}") from None


def _merge(table, override, where):
    """``table`` with ``override``'s entries merged in: per tag, its fields replace the
    default's; ``key.value = false`` drops the tag."""
    merged = {key: {value: dict(entry) for value, entry in values.items()}
              for key, values in table.items() if isinstance(values, dict)}
    for key, values in override.items():
        if key == "address_format":
            continue
        if not isinstance(values, dict):
            raise ImportFailed(f"{where}: {key!r} is not a table of tag values")
        for value, entry in values.items():
            if entry is False:
                merged.get(key, {}).pop(value, None)
            elif isinstance(entry, dict):
                unknown = sorted(set(entry) - set(_ENTRY_KEYS))
                if unknown:
                    raise ImportFailed(f"{where}: [{key}.{value}] has unknown fields {unknown} "
                                       f"(known: {', '.join(_ENTRY_KEYS)})")
                merged.setdefault(key, {}).setdefault(value, {}).update(entry)
            else:
                raise ImportFailed(f"{where}: {key}.{value} is neither a table nor false")
    return merged


def _category(key, value, entry, where):
    names = {}
    for name_key in _NAME_KEYS:
        name = entry.get(name_key, "")
        if not isinstance(name, str):
            raise ImportFailed(f"{where}: [{key}.{value}] {name_key} is not a string")
        names[name_key] = plain_text(name)
    if not names["ar"]:
        raise ImportFailed(f"{where}: [{key}.{value}] has no Arabic name (ar)")
    try:
        schema_type = validate.clean_schema_type(entry.get("schema_type") or "")
    except ValueError as error:
        raise ImportFailed(f"{where}: [{key}.{value}] {error}") from None
    return Category(f"{key}={value}", names["ar"], names["fr"], names["en"], schema_type)


def load_mapping(path=None):
    """The default mapping, with the TOML file at ``path`` (if any) merged in."""
    default_where = f"dalil/osm/{DEFAULT_MAPPING}"
    table = _table(files(__package__).joinpath(DEFAULT_MAPPING).read_text(encoding="utf-8"),
                   default_where)
    address_format, where = ADDRESS_FORMAT, default_where
    if path is not None:
        where = str(path)
        try:
            text = open(path, encoding="utf-8").read()
        except (OSError, UnicodeDecodeError) as error:
            raise ImportFailed(f"{path}: cannot be read: {error}") from None
        override = _table(text, where)
        table = _merge(table, override, where)
        address_format = override.get("address_format", address_format)
        if not isinstance(address_format, str) or "{street}" not in address_format:
            raise ImportFailed(f"{where}: address_format must be a string with {{street}}")
        try:
            address_format.format(street="", housenumber="")
        except (KeyError, IndexError, ValueError):
            raise ImportFailed(f"{where}: address_format may name only {{street}} and "
                               "{housenumber}") from None
    else:
        table = _merge(table, {}, where)
    categories = {key: {value: _category(key, value, entry, where)
                        for value, entry in values.items()}
                  for key, values in table.items()}
    return Mapping({key: values for key, values in categories.items() if values}, address_format)
