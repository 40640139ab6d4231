"""The handbook check passes on the real handbook and fails on each planted mismatch, with the right problem."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from stockbench.cli.main import run
from stockbench.config import handbook_dir
from stockbench.errors import Problem
from stockbench.research.handbook import Handbook
from stockbench.research.handbook_check import CATEGORIES, check, code_names, skeleton


@pytest.fixture(scope="module", autouse=True)
def registries() -> None:
    """Read the code's registries once (importing the engine and polars takes most of a second)."""
    for category in CATEGORIES:
        code_names(category.name)


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """A copy of the real handbook folder to plant mismatches in."""
    folder = tmp_path / "handbook"
    shutil.copytree(handbook_dir(), folder)
    return folder


def edit(path: Path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path.name}"
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def problems(folder: Path) -> list[Problem]:
    return check(Handbook.load(folder))


def codes(found: list[Problem]) -> set[str]:
    return {p.code for p in found}


def test_the_real_handbook_passes() -> None:
    assert check(Handbook.load()) == []


def test_the_index_names_every_tool_judgment_type_gate_and_rule_table_of_the_code() -> None:
    index = Handbook.load().files["index.toml"]
    for category in ("tools", "judgment_types", "gates", "data_gates", "rule_tables", "position_states", "stages"):
        for name in code_names(category):
            assert f'"{name}"' in index, (category, name)


def test_a_tool_removed_from_the_index_is_undescribed_and_its_mentions_unindexed(copy: Path) -> None:
    edit(copy / "index.toml", '"calc", "documents_read"', '"documents_read"')
    found = problems(copy)
    assert [(p.code, p.location) for p in found if p.code == "name_undescribed"] == [
        ("name_undescribed", "index.toml [code].tools")
    ]
    assert "tools 'calc' exists in the code" in found[0].message
    unindexed = {p.location for p in found if p.code == "name_unindexed"}
    assert {"zh/handbook.md", "en/handbook.md"} <= unindexed
    assert codes(found) == {"name_undescribed", "name_unindexed"}


def test_a_tool_dropped_from_the_english_text_is_absent_there(copy: Path) -> None:
    path = copy / "en" / "handbook.md"
    path.write_text(path.read_text(encoding="utf-8").replace("`documents_read`", "documents_read"), encoding="utf-8")
    found = problems(copy)
    assert [(p.code, p.location) for p in found] == [("name_absent", "en/handbook.md")]
    assert "`documents_read`" in found[0].message


def test_a_fake_rule_table_named_in_the_text_is_unindexed(copy: Path) -> None:
    edit(
        copy / "zh" / "handbook.md",
        "### 4.12 `scan` 与 `peers`",
        "### 4.12 `scan` 与 `peers`\n\n另见规则表 `fake_table`。",
    )
    found = problems(copy)
    assert [(p.code, p.location) for p in found] == [("name_unindexed", "zh/handbook.md")]
    assert "`fake_table`" in found[0].message


def test_a_fake_rule_table_listed_in_the_index_is_unknown_to_the_code(copy: Path) -> None:
    edit(copy / "index.toml", 'rule_tables = ["backtest",', 'rule_tables = ["fake_table", "backtest",')
    found = problems(copy)
    assert ("name_unknown", "index.toml [code].rule_tables") in {(p.code, p.location) for p in found}
    assert any("'fake_table', which the code does not have" in p.message for p in found)


def test_a_missing_reference_is_reported_where_it_is_listed_and_cited(copy: Path) -> None:
    (copy / "references" / "gap-disclosure.md").unlink()
    found = problems(copy)
    assert codes(found) == {"reference_missing"}
    cited_by = {
        "zh/handbook.md",
        "en/handbook.md",
        "references/hong-kong-specifics.md",
        "references/worked-examples.md",
    }
    assert {p.location for p in found} == {"index.toml [references]", *cited_by}


def test_a_reference_without_its_english_title_is_reported(copy: Path) -> None:
    edit(copy / "references" / "rule-trend.md", "title_en: The trend rule table explained\n", "")
    assert [(p.code, p.location) for p in problems(copy)] == [("reference_front_matter", "references/rule-trend.md")]


def test_an_unlisted_reference_is_reported(copy: Path) -> None:
    shutil.copy(copy / "references" / "rule-trend.md", copy / "references" / "rule-trend-copy.md")
    assert [p.code for p in problems(copy)] == ["reference_unlisted"]


def _drop_section(text: str, heading: str) -> str:
    start = text.index(heading)
    end = text.index("\n#", start + 1)
    return text[:start] + text[end + 1 :]


def test_an_english_section_dropped_makes_the_editions_differ(copy: Path) -> None:
    path = copy / "en" / "handbook.md"
    path.write_text(_drop_section(path.read_text(encoding="utf-8"), "### 8.3 Common mistakes"), encoding="utf-8")
    found = problems(copy)
    assert [p.code for p in found] == ["sections_differ"]
    assert "### 8.3 常见错误" in found[0].message and "## 9 The decision baseline" in found[0].message


def test_a_heading_level_changed_in_one_edition_makes_them_differ(copy: Path) -> None:
    edit(copy / "en" / "handbook.md", "### 6.2 Price positions", "## 6.2 Price positions")
    assert [p.code for p in problems(copy)] == ["sections_differ"]


def test_stage_markers_out_of_order_are_reported(copy: Path) -> None:
    path = copy / "zh" / "handbook.md"
    text = path.read_text(encoding="utf-8")
    text = text.replace("<!-- stage:bull -->", "<!-- stage:TMP -->").replace(
        "<!-- stage:bear -->", "<!-- stage:bull -->"
    )
    path.write_text(text.replace("<!-- stage:TMP -->", "<!-- stage:bear -->"), encoding="utf-8")
    assert codes(problems(copy)) == {"marker_order", "sections_differ"}


def test_a_missing_or_unknown_stage_marker_is_reported(copy: Path) -> None:
    edit(copy / "en" / "handbook.md", "<!-- stage:collect -->\n", "")
    edit(copy / "en" / "handbook.md", "<!-- stage:publish -->", "<!-- stage:archive -->")
    found = problems(copy)
    assert {"marker_missing", "marker_unknown"} <= codes(found)
    assert all(p.location == "en/handbook.md" for p in found if p.code.startswith("marker"))


def test_a_sector_index_that_is_not_an_index_symbol_is_reported(copy: Path) -> None:
    edit(copy / "tables" / "sector_indices.toml", 'indices = ["399986.SZ"]', 'indices = ["801780.SH"]')
    assert codes(problems(copy)) == {"sector_index_invalid", "sector_index_undocumented"}


def test_a_thesis_level_category_below_full_analysis_is_reported(copy: Path) -> None:
    text = (copy / "tables" / "announcement_levels.toml").read_text(encoding="utf-8")
    block = re.search(r'key = "restructuring"\n.*?level = "full_analysis"', text, re.DOTALL)
    assert block is not None
    edit(copy / "tables" / "announcement_levels.toml", block.group(0), block.group(0).replace("full_analysis", "watch"))
    assert [p.code for p in problems(copy)] == ["announcement_level_invalid"]


def test_a_missing_index_or_english_edition_is_reported(copy: Path) -> None:
    (copy / "en" / "handbook.md").unlink()
    assert "edition_missing" in codes(problems(copy))
    (copy / "index.toml").unlink()
    assert [p.code for p in problems(copy)] == ["index_missing"]


def test_fenced_code_is_not_part_of_an_editions_shape() -> None:
    text = "## 1 A\n```\n## not a heading\n<!-- stage:scene -->\n```\n<!-- stage:scene -->\n### 1.1 B\n"
    assert [key for key, _ in skeleton(text)] == ["h2 1", "stage:scene", "h3 1.1"]


def test_cli_check_reports_ok_and_problems(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["--json", "handbook", "check"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == {"ok": True, "version": Handbook.load().version, "problems": []}
    edit(copy / "index.toml", '"calc", "documents_read"', '"documents_read"')
    assert run(["--json", "handbook", "check", "--folder", str(copy)]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is False and data["problems"][0]["code"] == "name_undescribed"
    assert run(["handbook", "check", "--folder", str(copy)]) == 1
    assert "[name_undescribed]" in capsys.readouterr().out
