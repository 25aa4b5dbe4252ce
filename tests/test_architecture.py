"""The package's shape: its parts stand in layers, and no module is too long to read."""

import ast
import sys

import pytest

from tests import sitebuilder as sb

PACKAGE = sb.PACKAGE_SOURCE / "dalil"

# Each part of the package (a subpackage, or a module at its root) may import only the
# parts of the layers below its own; lowest first. ``core`` holds what several parts
# share (settings, text, output files, digests and page caches); "dalil" is the root
# module (the version, the plugin list); the directory's model is read by every
# capability above it; ``tasks`` and ``conf`` put the capabilities together.
LAYERS = (
    ("core",),
    ("dalil",),
    ("directory",),
    ("exports", "feeds", "osm", "pwa", "quickstart", "search", "sitefiles", "sitemaps",
     "theme", "validate"),
    ("conf", "tasks"),
)
LAYER_OF = {part: number for number, layer in enumerate(LAYERS) for part in layer}
MAX_LINES = 500


def modules():
    return sorted(PACKAGE.rglob("*.py"))


def module_name(path):
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def part_of(name):
    """``dalil.directory.model`` -> ``directory``; ``dalil`` -> ``dalil``."""
    return name.split(".")[1] if "." in name else name


def imported_modules(path):
    """``(line, module)`` of every import of ``path``, at module level or inside a function,
    relative ones resolved."""
    name = module_name(path)
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(package[:len(package) - node.level + 1])
                yield node.lineno, f"{base}.{node.module}" if node.module else base
            else:
                yield node.lineno, node.module


def package_imports():
    """``(importer part, imported part, where)`` of each import from one part into another."""
    for path in modules():
        importer = part_of(module_name(path))
        for line, target in imported_modules(path):
            if target == "dalil" or target.startswith("dalil."):
                imported = part_of(target)
                if imported != importer:
                    yield importer, imported, f"{path.relative_to(PACKAGE)}:{line} imports {target}"


def test_every_part_has_a_layer():
    assert {part_of(module_name(path)) for path in modules()} == set(LAYER_OF)


def test_parts_import_only_the_layers_below_their_own():
    upward = [where for importer, imported, where in package_imports()
              if LAYER_OF[imported] >= LAYER_OF[importer]]
    assert upward == []


def test_core_imports_no_other_part():
    assert [where for importer, _, where in package_imports() if importer == "core"] == []


def test_the_import_walk_sees_imports_inside_functions(tmp_path, monkeypatch):
    """The walk itself: a lazy upward import, and a relative one, are found."""
    package = tmp_path / "dalil"
    (package / "core").mkdir(parents=True)
    (package / "core" / "writer.py").write_text(
        '"""A writer."""\n\n\ndef key():\n    from dalil.directory.incremental import digest\n'
        '    from ..search import settings\n', encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", package)
    assert [(importer, imported) for importer, imported, _ in package_imports()] == [
        ("core", "directory"), ("core", "search")]


@pytest.mark.parametrize("path", modules(), ids=lambda path: str(path.relative_to(PACKAGE)))
def test_a_module_is_short_and_says_what_it_is_for(path):
    text = path.read_text(encoding="utf-8")
    lines = len(text.splitlines())
    assert lines <= MAX_LINES, f"{lines} lines"
    docstring = ast.get_docstring(ast.parse(text))
    assert docstring and docstring.splitlines()[0].strip()
