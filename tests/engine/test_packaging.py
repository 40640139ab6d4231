"""The packaging recipe: what the bundle ships and leaves out, the lazily loaded modules it must collect, the icon
set, and the freedesktop files (checked here without desktop-file-validate or appstreamcli)."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import struct
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import pytest

import stockbench
from stockbench.cli.main import COMMANDS, DESKTOP
from stockbench.config import APP_DISPLAY_NAME

ROOT = Path(__file__).resolve().parents[2]
PACKAGING = ROOT / "packaging"
APP_ID = "io.github.stockworkbench.StockWorkbench"
DESKTOP_FILE = PACKAGING / "linux" / f"{APP_ID}.desktop"
METAINFO_FILE = PACKAGING / "linux" / f"{APP_ID}.metainfo.xml"


def _load(name: str) -> ModuleType:
    """A module of packaging/ by path (the folder is not a package; `packaging` is also a PyPI name)."""
    spec = importlib.util.spec_from_file_location(f"_packaging_{name}", PACKAGING / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def manifest() -> ModuleType:
    return _load("bundle_manifest")


def test_every_runtime_file_of_the_handbook_and_resources_ships(manifest: ModuleType) -> None:
    shipped = {(Path(source).relative_to(ROOT), Path(folder)) for source, folder in manifest.shipped_data(ROOT)}
    for name in ("handbook", "resources"):
        for path in (ROOT / name).rglob("*"):
            if path.is_file() and path.suffix != ".ts" and "__pycache__" not in path.parts:
                relative = path.relative_to(ROOT)
                assert (relative, relative.parent) in shipped, relative
    destinations = {str(source) for source, _ in shipped}
    assert "resources/translations/stockbench_zh_CN.qm" in destinations
    assert "resources/translations/stockbench_zh_CN.ts" not in destinations
    assert {"resources/market_rules.toml", "resources/llm_capabilities.toml"} <= destinations
    assert any(d.startswith("resources/evals/") for d in destinations)
    assert any(d.startswith("resources/demo/") for d in destinations)


def test_the_spec_collects_every_lazily_loaded_module() -> None:
    spec = (PACKAGING / "stockbench.spec").read_text(encoding="utf-8")
    assert 'collect_submodules("stockbench")' in spec and 'collect_submodules("ui")' in spec
    assert "shipped_data(ROOT)" in spec and 'collect_data_files("stockbench")' in spec
    targets = [*COMMANDS.values(), DESKTOP]
    for target in targets:
        module, _attribute = target.split(":")
        assert module.split(".")[0] in ("stockbench", "ui"), target
        assert importlib.util.find_spec(module) is not None, target


IMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+import\s+\(?([\w, ]*)|import\s+([\w.]+))", re.MULTILINE)


def _imported_modules(folder: Path) -> set[str]:
    """Every absolute module an `import` or `from ... import` line of `folder` names (one-line imports; the
    parenthesised ones contribute their package)."""
    found: set[str] = set()
    for path in folder.rglob("*.py"):
        for package, names, module in IMPORT.findall(path.read_text(encoding="utf-8")):
            found.add(module or package)
            found.update(f"{package}.{name.strip()}" for name in names.split(",") if package and name.strip())
    return found


def test_nothing_the_app_imports_is_excluded_from_the_bundle(manifest: ModuleType) -> None:
    imported = _imported_modules(ROOT / "stockbench") | _imported_modules(ROOT / "ui")
    assert "PySide6.QtWidgets" in imported  # the walk sees the shell's imports
    excluded = set(manifest.EXCLUDED_MODULES)
    clashes = {m for m in imported for e in excluded if m == e or m.startswith(f"{e}.")}
    assert not clashes


def test_nothing_the_shell_loads_through_its_libraries_is_excluded_from_the_bundle(manifest: ModuleType) -> None:
    """The scan above reads our own import lines; this one loads the window and every screen in a fresh process and
    reads `sys.modules`, so a library's own import (pyqtgraph 0.14 imports PySide6.QtOpenGL) is seen too: an
    excluded module there leaves the bundled window unable to attach a workspace."""
    probe = ("import json, sys; import ui.main_window; from ui.screens import preload_screens; preload_screens(); "
             "from ui.screens.chart.chart_panel import import_chart_modules; import_chart_modules(); "
             "print(json.dumps(sorted(sys.modules)))")  # fmt: skip  # the chart's modules load once the window is up
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300, check=True)  # fmt: skip
    loaded = set(json.loads(done.stdout.splitlines()[-1]))
    assert {"pyqtgraph", "PySide6.QtWidgets", "ui.screens.chart.chart_panel"} <= loaded
    excluded = set(manifest.EXCLUDED_MODULES)
    clashes = {m for m in loaded for e in excluded if m == e or m.startswith(f"{e}.")}
    assert clashes <= set(manifest.GUARDED_IMPORTS)


@pytest.mark.parametrize(
    ("destination", "kept"),
    [
        ("PySide6/Qt/translations/qtbase_zh_CN.qm", True),
        ("PySide6/Qt/translations/qtbase_de.qm", False),
        ("resources/translations/stockbench_zh_CN.qm", True),
        ("pyarrow/include/arrow/api.h", False),
        ("pyarrow/table.pxi", False),
        ("include/python3.11/pyconfig.h", True),
        ("litellm/model_prices_and_context_window_backup.json", True),
    ],
)
def test_keep_data(manifest: ModuleType, destination: str, kept: bool) -> None:
    assert manifest.keep_data(destination) is kept


@pytest.mark.parametrize(
    ("destination", "kept"),
    [
        ("PySide6/Qt/lib/libQt6Quick.so.6", False),
        ("PySide6/Qt/lib/libQt6Core.so.6", True),
        ("PySide6/Qt/lib/libQt6Svg.so.6", True),
        ("pyarrow/libarrow_flight.so.2600", False),
        ("pyarrow/libarrow_substrait.so.2600", True),  # libarrow_python links it
        ("pyarrow/libarrow.so.2600", True),
    ],
)
def test_keep_binary(manifest: ModuleType, destination: str, kept: bool) -> None:
    assert manifest.keep_binary(destination) is kept


def _desktop_entry() -> dict[str, str]:
    lines = [line for line in DESKTOP_FILE.read_text(encoding="utf-8").splitlines() if line and line[0] != "#"]
    assert lines[0] == "[Desktop Entry]"
    entry: dict[str, str] = {}
    for line in lines[1:]:
        key, _, value = line.partition("=")
        assert key and _ == "=" and key not in entry, line
        entry[key] = value
    return entry


def test_the_desktop_entry_launches_the_command_with_the_app_icon() -> None:
    entry = _desktop_entry()
    assert entry["Type"] == "Application" and entry["Terminal"] == "false"
    assert {"Name", "Comment", "Name[zh_CN]", "Comment[zh_CN]"} <= entry.keys()
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    assert entry["Exec"].split()[0] in scripts
    assert entry["Icon"] == APP_ID
    assert entry["StartupWMClass"] == APP_DISPLAY_NAME  # Qt's X11 window class is the application name
    for key in ("Categories", "Keywords"):
        assert entry[key].endswith(";"), key
    assert "Finance" in entry["Categories"].split(";")


def test_the_appstream_metainfo_matches_the_desktop_entry_and_the_version() -> None:
    root = ET.parse(METAINFO_FILE).getroot()
    assert root.tag == "component" and root.get("type") == "desktop-application"
    assert root.findtext("id") == APP_ID
    assert root.findtext("launchable") == DESKTOP_FILE.name
    assert root.findtext("provides/binary") == _desktop_entry()["Exec"].split()[0]
    assert root.findtext("metadata_license") and root.findtext("name") and root.findtext("summary")
    assert root.findall("description/p")
    release = root.find("releases/release")  # the newest first
    assert release is not None and release.get("version") == stockbench.__version__


def test_the_icon_set_is_complete(tmp_path: Path) -> None:
    icons = _load("icons")
    assert icons.problems() == []
    ico = (PACKAGING / "icons" / "stockbench.ico").read_bytes()
    _reserved, kind, count = struct.unpack("<HHH", ico[:6])
    assert (kind, count) == (1, len(icons.ICO_SIZES))
    for index, size in enumerate(icons.ICO_SIZES):
        width, _h, _c, _r, _planes, _bpp, length, offset = struct.unpack(
            "<BBBBHHII", ico[6 + 16 * index : 22 + 16 * index]
        )
        assert width == size % 256 and icons.png_size(ico[offset : offset + length]) == (size, size)
    icns = (PACKAGING / "icons" / "stockbench.icns").read_bytes()
    assert icns[:4] == b"icns" and struct.unpack(">I", icns[4:8])[0] == len(icns)


@pytest.mark.parametrize(
    ("destination", "strippable"),
    [
        ("numpy.libs/libscipy_openblas64_-32a4b2a6.so", False),
        ("_polars_runtime_32/_polars_runtime.abi3.so", True),
        ("pyarrow/libarrow.so.2600", True),
    ],
)
def test_strip_leaves_vendored_libraries_alone(manifest: ModuleType, destination: str, strippable: bool) -> None:
    assert manifest.strippable(destination) is strippable
