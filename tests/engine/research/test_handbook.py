"""The method handbook as the engine loads it: version, references, paging, stored versions and `handbook show`."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest

from stockbench.cli.main import run
from stockbench.config import handbook_dir
from stockbench.errors import NotFound
from stockbench.research.handbook import MAIN_EN, MAIN_ZH, PAGE_CHARS, Handbook, HandbookUnavailable, content_hash
from stockbench.research.handbook_check import stage_order, stage_sections
from stockbench.workbench import Workbench

AT = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)


def test_the_version_is_the_content_hash_of_every_md_and_toml_file(tmp_path: Path) -> None:
    current = Handbook.load()
    assert current.version == content_hash(current.files) == Handbook.load().version
    assert {MAIN_ZH, MAIN_EN, "index.toml"} <= set(current.files)
    copy = tmp_path / "handbook"
    shutil.copytree(handbook_dir(), copy)
    (copy / "notes.txt").write_text("not part of the handbook", encoding="utf-8")
    assert Handbook.load(copy).version == current.version
    (copy / "tables" / "sector_indices.toml").write_text("version = 2\n", encoding="utf-8")
    assert Handbook.load(copy).version != current.version


def test_a_missing_handbook_is_refused_with_a_reason(tmp_path: Path) -> None:
    with pytest.raises(HandbookUnavailable, match="missing"):
        Handbook.load(tmp_path)


def test_at_least_24_references_each_with_titles_and_a_summary() -> None:
    refs = Handbook.load().references()
    assert len(refs) >= 24
    for ref in refs.values():
        assert ref.title != ref.slug and ref.title_en and len(ref.summary) > 40, ref.slug
        assert not ref.text.startswith("---"), ref.slug


def test_the_table_of_contents_lists_every_reference_with_its_summary() -> None:
    found = Handbook.load()
    toc = found.table_of_contents()
    for ref in found.references().values():
        assert f"`{ref.slug}` {ref.title} ({ref.pages} page(s)): {ref.summary}" in toc


def test_references_are_read_a_page_at_a_time() -> None:
    found = Handbook.load()
    ref = max(found.references().values(), key=lambda r: len(r.text))
    assert ref.pages >= 2
    first, pages = found.read(ref.slug)
    assert pages == ref.pages and first == ref.text[:PAGE_CHARS]
    last, _ = found.read(ref.slug, ref.pages)
    assert ref.text.endswith(last)
    with pytest.raises(NotFound, match="page"):
        found.read(ref.slug, ref.pages + 1)
    with pytest.raises(NotFound, match="no reference"):
        found.read("no-such-reference")


def test_each_edition_quotes_a_section_for_every_stage_in_the_engine_order() -> None:
    found = Handbook.load()
    for text in (found.main, found.main_en):
        sections = stage_sections(text)
        assert list(sections) == stage_order()
        assert "`submit_judgments`" in sections["decide"] and "stage:report" not in sections["decide"]
        assert "`submit_arguments`" in sections["bear"] and "`submit_diagnosis`" not in sections["bear"]


def test_a_stored_version_comes_back_exactly_and_an_unknown_one_is_refused(home: Path) -> None:
    current = Handbook.load()
    with Workbench.open(home) as bench:
        current.store(bench.workspace.db, AT)
        current.store(bench.workspace.db, AT)  # storing twice is harmless
        assert Handbook.stored(bench.workspace.db, current.version) == current
        with pytest.raises(HandbookUnavailable, match="no longer available"):
            Handbook.stored(bench.workspace.db, "0" * 16)


def _older(current: Handbook) -> Handbook:
    files = dict(current.files)
    files[MAIN_ZH] = files[MAIN_ZH].replace("# 个股研究方法手册", "# 个股研究方法手册（旧版）", 1)
    files[MAIN_EN] = files[MAIN_EN] + "\nAn older edition.\n"
    return Handbook(content_hash(files), files)


def test_show_prints_the_current_version_without_a_workspace(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["--json", "handbook", "show"]) == 0
    data = json.loads(capsys.readouterr().out)
    current = Handbook.load()
    assert (data["version"], data["source"], data["lang"]) == (current.version, "disk", "zh")
    assert data["text"] == current.main
    assert len(data["references"]) >= 24
    assert not home.exists()


def test_show_prints_an_older_version_a_run_stored(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    older = _older(Handbook.load())
    with Workbench.open(home) as bench:
        older.store(bench.workspace.db, AT)
    assert run(["--json", "handbook", "show", "--version", older.version]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["version"], data["source"]) == (older.version, "workspace")
    assert data["text"].startswith("# 个股研究方法手册（旧版）")
    assert run(["--json", "handbook", "show", "--version", older.version, "--lang", "en"]) == 0
    assert json.loads(capsys.readouterr().out)["text"].endswith("An older edition.\n")
    assert run(["--json", "handbook", "show", "--version", older.version, "--reference", "gap-disclosure"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["title"] == "缺口披露的措辞" and "`valuation_history`" in shown["text"]
    assert run(["handbook", "versions"]) == 0
    assert older.version in capsys.readouterr().out


def test_show_refuses_a_version_no_run_stored(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["--json", "handbook", "show", "--version", "f" * 16]) == 1
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "handbook_unavailable"
    assert run(["--json", "handbook", "show", "--reference", "no-such-reference"]) == 1
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "not_found"
