"""Update and compile the shell's translations: `uv run python scripts/translations.py [--check] [--prune]`.

pyside6-lupdate extracts every `tr()` / `translate()` / `QT_TRANSLATE_NOOP` string from `ui/` into
`resources/translations/stockbench_<lang>.ts` (English is the source language; existing translations are kept),
then pyside6-lrelease compiles each `.ts` into the `.qm` the app loads. `--check` only reports: it exits 1 when a
string of ui/ is missing from a catalogue or untranslated, or a `.qm` does not match its `.ts`.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "ui"
FOLDER = ROOT / "resources" / "translations"
CATALOGUE = "stockbench"
LANGUAGES = ("zh_CN",)


def tool(name: str) -> str:
    """The PySide6 tool `name` beside this Python (the project venv), else on PATH."""
    candidate = Path(sys.executable).with_name(name)
    return str(candidate) if candidate.exists() else name


def sources() -> list[str]:
    return sorted(str(p.relative_to(ROOT)) for p in SOURCES.rglob("*.py") if "__pycache__" not in p.parts)


def ts_file(language: str) -> Path:
    return FOLDER / f"{CATALOGUE}_{language}.ts"


def update(language: str, prune: bool, target: Path | None = None) -> None:
    """Merge the current strings of ui/ into the language's .ts file (translations are kept)."""
    FOLDER.mkdir(parents=True, exist_ok=True)
    command = [tool("pyside6-lupdate"), *sources(), "-ts", str(target or ts_file(language)), "-source-language", "en",
               "-target-language", language, "-locations", "none", "-silent"]  # fmt: skip
    if prune:
        command.append("-no-obsolete")
    subprocess.run(command, check=True, cwd=ROOT)


def release(source: Path, target: Path) -> None:
    """Compile a .ts file into the .qm the app loads."""
    subprocess.run([tool("pyside6-lrelease"), "-silent", str(source), "-qm", str(target)], check=True, cwd=ROOT)


def unfinished(ts: Path) -> list[tuple[str, str]]:
    """(context, source) of every current message of `ts` still without a translation."""
    missing = []
    for context in ET.parse(ts).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            translation = message.find("translation")
            kind = translation.get("type") if translation is not None else "unfinished"
            if kind == "unfinished":
                missing.append((name, message.findtext("source") or ""))
    return missing


def check(language: str) -> list[str]:
    """What is wrong with the committed catalogue: strings of ui/ it lacks or leaves untranslated, a stale .qm."""
    problems = []
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / ts_file(language).name
        shutil.copy(ts_file(language), copy)
        update(language, prune=False, target=copy)
        problems += [f"{language}: untranslated [{context}] {text!r}" for context, text in unfinished(copy)]
        compiled = copy.with_suffix(".qm")
        release(ts_file(language), compiled)
        qm = ts_file(language).with_suffix(".qm")
        if not qm.exists() or qm.read_bytes() != compiled.read_bytes():
            problems.append(f"{language}: {qm.name} does not match {ts_file(language).name}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="report unfinished strings; change nothing")
    parser.add_argument("--prune", action="store_true", help="drop strings that no longer occur in ui/")
    args = parser.parse_args(argv)
    problems = []
    for language in LANGUAGES:
        if args.check:
            problems += check(language)
            continue
        update(language, args.prune)
        release(ts_file(language), ts_file(language).with_suffix(".qm"))
        print(f"{language}: {len(unfinished(ts_file(language)))} unfinished string(s) in {ts_file(language).name}")
    if args.check:
        print("\n".join(problems) or "translations are complete")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
