"""What goes into the desktop bundle and what stays out: read by stockbench.spec and checked by the tests.

Plain standard-library code (the spec imports it inside PyInstaller; tests import it by path).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path, PurePath

TocEntry = tuple[str, str, str]  # (destination in the bundle, source path, PyInstaller type code)

# Folders of the checkout shipped whole (found at run time through stockbench.config.app_root()).
DATA_DIRS = ("handbook", "resources")
# Sources that are not read at run time: translation sources (the compiled .qm ship), caches.
SKIPPED_DATA_SUFFIXES = (".ts", ".pyc")
SKIPPED_DATA_PARTS = ("__pycache__",)

# Python modules the bundle never needs: test and developer tools, optional back ends nothing offers, and the Qt
# modules the shell does not use (it uses QtCore, QtGui, QtWidgets; QtSvg draws the SVG icons; QtNetwork carries the
# single-instance local socket, ui/instance_server.py).
EXCLUDED_MODULES = [
    # developer tools and tests
    "pytest", "_pytest", "pytestqt", "xdist", "execnet", "hypothesis", "mypy", "ruff", "importlinter", "grimp",
    "talib", "beancount", "PyInstaller", "pip", "IPython", "tkinter", "_tkinter", "matplotlib",
    # optional back ends: AWS (Bedrock/SageMaker are not among the providers offered), Hugging Face hub downloads
    "boto3", "botocore", "s3transfer", "huggingface_hub", "hf_xet",
    # Arrow's network and GPU back ends (DuckDB and polars use the core, compute, dataset and parquet parts)
    "pyarrow.flight", "pyarrow._flight", "pyarrow.substrait", "pyarrow._substrait", "pyarrow._s3fs",
    "pyarrow._gcsfs", "pyarrow._azurefs", "pyarrow._hdfs", "pyarrow.cuda", "pyarrow._cuda", "pyarrow.gandiva",
    "pyarrow.orc", "pyarrow._orc", "pyarrow._dataset_orc",
    "pyarrow.tests", "pandas.tests", "numpy.tests", "polars.testing",
    # Qt modules the shell does not use
    "PySide6.QtQml", "PySide6.QtQuick", "PySide6.QtQuickControls2", "PySide6.QtQuickWidgets", "PySide6.QtQuickTest",
    "PySide6.QtQuick3D", "PySide6.Qt3DCore", "PySide6.QtWebEngineCore", "PySide6.QtWebEngineWidgets",
    "PySide6.QtWebEngineQuick", "PySide6.QtDesigner", "PySide6.QtHelp", "PySide6.QtUiTools", "PySide6.QtSql",
    "PySide6.QtTest", "PySide6.QtConcurrent",  # not QtOpenGL(Widgets): pyqtgraph 0.14 imports both
    "PySide6.QtXml", "PySide6.QtPdf", "PySide6.QtPdfWidgets", "PySide6.QtMultimedia", "PySide6.QtCharts",
]  # fmt: skip

# Excluded modules a library tries to import and carries on without (pyqtgraph's Qt shim wraps QtTest in a
# FailedImport); any other excluded module that loading the shell brings in is a bundle that cannot start.
GUARDED_IMPORTS = ("PySide6.QtTest",)

# litellm's package data that is never read by the library calls we make: the proxy's web UI and examples, docs.
LITELLM_DATA_EXCLUDES = ["proxy/**", "**/*.md", "**/*.html", "**/*.js", "**/*.css", "**/*.png", "**/*.svg"]

# Qt's own translations: only the languages the shell offers (English is the source, so zh_CN only).
QT_TRANSLATIONS = ("PySide6/Qt/translations",)
QT_LANGUAGES = ("_zh_CN.qm",)
# Qt libraries of modules excluded above that a plug-in could still drag in (their plug-ins are dropped too).
DROPPED_BINARY_MARKERS = ("libQt6Quick", "libQt6Qml", "libQt6WebEngine", "libQt6Pdf", "libQt6Designer",
                          "libQt6VirtualKeyboard", "libQt6Multimedia", "libarrow_flight", "libarrow_python_flight",
                          "libarrow_s3")  # fmt: skip
# Build-time material some packages ship as data: C/C++ and Cython sources and headers.
SOURCE_SUFFIXES = (".pxi", ".pyx", ".pxd", ".h", ".hpp", ".cc", ".cpp", ".c")
SOURCE_FOLDERS = ("pyarrow/include/", "pyarrow/src/", "numpy/_core/include/", "numpy/core/include/")
PYTHON_FILES = ("include/", "lib/")  # Python's own pyconfig.h and Makefile, which sysconfig may read


def shipped_data(root: Path) -> list[tuple[str, str]]:
    """(source file, folder inside the bundle) for every file of DATA_DIRS that the app reads at run time."""
    found: list[tuple[str, str]] = []
    for name in DATA_DIRS:
        for path in sorted((root / name).rglob("*")):
            if path.is_file() and _shipped(path.relative_to(root)):
                found.append((str(path), str(path.relative_to(root).parent)))
    return found


def _shipped(relative: PurePath) -> bool:
    return relative.suffix not in SKIPPED_DATA_SUFFIXES and not set(relative.parts) & set(SKIPPED_DATA_PARTS)


def keep_data(destination: str) -> bool:
    """False for collected data files the bundle does not need: Qt translations of other languages, sources."""
    posix = PurePath(destination).as_posix()
    if posix.startswith(QT_TRANSLATIONS):
        return posix.endswith(QT_LANGUAGES)
    if posix.startswith(PYTHON_FILES):
        return True
    return not posix.endswith(SOURCE_SUFFIXES) and not posix.startswith(SOURCE_FOLDERS)


def keep_binary(destination: str) -> bool:
    """False for shared libraries of excluded modules that plug-ins would otherwise bring along."""
    name = PurePath(destination).name
    return not any(marker in name for marker in DROPPED_BINARY_MARKERS)


def strippable(destination: str) -> bool:
    """Whether `strip` may rewrite this shared library: not the ones auditwheel vendored into `<package>.libs/`
    (patchelf moved their segments, and stripped they fail to load: numpy's OpenBLAS reports "ELF load command
    address/offset not page-aligned")."""
    return not any(part.endswith(".libs") for part in PurePath(destination).parts[:-1])


def strip_binaries(binaries: list[TocEntry], cache: Path) -> list[TocEntry]:
    """The TOC with each strippable binary replaced by a copy without its symbol table (`strip --strip-unneeded`,
    cached under `cache`); a library strip cannot handle is kept as it is. Saves about 60 MB (polars, Arrow)."""
    stripper = shutil.which("strip")
    result: list[TocEntry] = []
    for destination, source, typecode in binaries:
        if stripper and typecode in ("BINARY", "EXTENSION") and strippable(destination):
            result.append((destination, _stripped(stripper, Path(source), cache / destination), typecode))
        else:
            result.append((destination, source, typecode))
    return result


def _stripped(stripper: str, source: Path, target: Path) -> str:
    if target.exists() and target.stat().st_mtime >= source.stat().st_mtime:
        return str(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    command = [stripper, "--strip-unneeded", "-o", str(target), str(source)]
    done = subprocess.run(command, capture_output=True, check=False)
    return str(target) if done.returncode == 0 else str(source)
