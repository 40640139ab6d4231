"""The calibrated scenario table: outcome definition, benchmark, reproducibility on a small fixture, the command,
the data range each table carries and the point-in-time choice of a table, and the committed tables' provenance
(realdata)."""

from __future__ import annotations

import json
import math
import random
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st

from stockbench.analytics.calibration import (
    OUTCOMES,
    Source,
    calibrate,
    calibrate_by_year,
    market_benchmark,
    outcome_expr,
    probabilities,
    sha256_of,
    stable_part,
    write_table,
    year_ends,
)
from stockbench.analytics.calibration_tables import TableRange, choose_table, stored_tables, table_for, table_range
from stockbench.analytics.rule_tables import load_rule_tables
from stockbench.cli.main import run
from stockbench.config import resources_dir

CODES = ["sh600000", "sh600001", "sz000002", "sz300003", "sh688004", "sz000005"]


def community_rows(seed: int = 1, sessions: int = 420) -> pl.DataFrame:
    """Random-walk bars in the community parquet's columns; sz000002 pays a dividend (an ex-date) midway."""
    rng = random.Random(seed)
    rows: list[dict[str, Any]] = []
    for code in CODES:
        close = 10.0
        for i in range(sessions):
            prev = close
            ref = round(prev - 0.5, 2) if code == "sz000002" and i == 200 else prev
            close = round(max(1.0, ref * (1 + rng.gauss(0.0003, 0.025))), 2)
            high, low = round(max(ref, close) * 1.01, 2), round(min(ref, close) * 0.99, 2)
            day = date(2019, 1, 1) + timedelta(days=i)
            rows.append(
                {
                    "code": code,
                    "name": code,
                    "date": day,
                    "open": ref,
                    "high": high,
                    "low": low,
                    "close": close,
                    "prev_close": ref,
                    "volume": 1e6,
                    "amount": 1e6 * close,
                    "float_mcap": 1e9,
                    "total_mcap": 2e9,
                }
            )
    return pl.DataFrame(rows)


@pytest.fixture
def fixture_file(tmp_path: Path) -> Path:
    path = tmp_path / "small.parquet"
    community_rows().write_parquet(path)
    return path


def test_outcome_definition() -> None:
    book = load_rule_tables()
    horizon = book.scenarios.integer("horizon")
    band = 0.5 * 0.02 * math.sqrt(horizon)
    finals = [1 + band + 1e-9, 1 + band - 1e-6, 1 - band + 1e-6, 1 - band - 1e-9]
    labels = []
    for final in finals:
        closes = [1.0] * horizon + [final]
        frame = pl.DataFrame({"symbol": "A", "close": closes, "atr14": [0.02] * len(closes)})
        labels.append(frame.select(outcome_expr(book))[0, 0])
    assert labels == ["up", "sideways", "sideways", "down"]
    short = pl.DataFrame({"symbol": "A", "close": [1.0] * horizon, "atr14": [0.02] * horizon})
    assert short.select(outcome_expr(book)).null_count().item() == horizon, "no outcome past the data's end"


def test_market_benchmark_is_the_mean_return_without_listing_days() -> None:
    days = [date(2021, 1, d) for d in range(4, 8)]
    frame = pl.DataFrame(
        {
            "symbol": ["A"] * 4 + ["B"] * 2,
            "day": days + days[2:],
            "close": [10.0, 11.0, 11.0, 12.1, 20.0, 10.0],
            "prev_close": [10.0, 10.0, 11.0, 11.0, 10.0, 20.0],
        }
    )
    found = market_benchmark(frame, skip_first=1)
    assert found["day"].to_list() == days[1:]
    assert found["close"].to_list() == pytest.approx([1.1, 1.1, 1.1 * (1 + (0.1 - 0.5) / 2)])


@given(st.lists(st.integers(0, 10**6), min_size=3, max_size=3).filter(lambda c: sum(c) > 0))
def test_probabilities_sum_to_exactly_one(counts: list[int]) -> None:
    found = probabilities(dict(zip(OUTCOMES, counts, strict=True)))
    assert round(sum(found.values()) * 10**6) == 10**6
    for outcome, count in zip(OUTCOMES, counts, strict=True):
        assert abs(found[outcome] - count / sum(counts)) <= 1e-6


def test_same_input_gives_an_identical_table(fixture_file: Path, tmp_path: Path) -> None:
    one = calibrate(Source(fixture_file, "test"))
    two = calibrate(Source(fixture_file, "test"))
    assert stable_part(one) == stable_part(two)
    write_table(one, tmp_path / "a.json")
    write_table(calibrate(Source(fixture_file, "test")), tmp_path / "b.json")
    a, b = (json.loads((tmp_path / n).read_text()) for n in ("a.json", "b.json"))
    assert stable_part(a) == stable_part(b) == json.loads(json.dumps(stable_part(one)))
    changed = tmp_path / "changed.parquet"
    community_rows(seed=2).write_parquet(changed)
    assert stable_part(calibrate(Source(changed, "test")))["levels"] != stable_part(one)["levels"]


def test_levels_are_consistent(fixture_file: Path) -> None:
    table = calibrate(Source(fixture_file, "test"))
    book = load_rule_tables()
    assert [level["keys"] for level in table["levels"]] == book.scenarios["fallback"]
    base = table["base"]
    assert base == table["levels"][-1]["cells"][0] and base["n"] == table["provenance"]["samples"] > 0
    for level in table["levels"]:
        assert sum(cell["n"] for cell in level["cells"]) == base["n"]
        for cell in level["cells"]:
            assert sum(cell["counts"].values()) == cell["n"]
            assert sum(cell["p"].values()) == pytest.approx(1.0, abs=1e-12)
            assert set(cell["states"]) == set(level["keys"])
            assert "unknown" not in cell["states"].values()
    provenance = table["provenance"]
    assert provenance["data_file"] == "small.parquet" and provenance["data_sha256"] == sha256_of(fixture_file)
    assert provenance["rows"] == len(CODES) * 420 and provenance["symbols"] == len(CODES)
    assert (provenance["first_day"], provenance["last_day"]) == ("2019-01-01", "2020-02-24")
    versions = load_rule_tables().versions()
    assert provenance["rule_tables"] == {
        k: versions[k] for k in ("trend", "relative_strength", "volatility", "scenarios")
    }
    assert {"code_version", "code_sha256", "generated_at", "runtime_seconds", "command"} <= set(provenance)


def test_calibrate_command(fixture_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out" / "table.json"
    assert run(["--json", "calibrate", "--data", str(fixture_file), "--out", str(out)]) == 0
    summary = json.loads(capsys.readouterr().out)
    written = json.loads(out.read_text(encoding="utf-8"))
    assert summary["cells"] == len(written["levels"][0]["cells"]) and summary["base"] == written["base"]
    assert written["provenance"]["command"] == f"stockbench calibrate --data {fixture_file} --out {out}"
    assert run(["--json", "calibrate", "--data", str(tmp_path / "missing.parquet"), "--out", str(out)]) == 1


def committed() -> dict[str, Any]:
    path = resources_dir() / str(load_rule_tables().scenarios["calibration_file"])
    found: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return found


def test_committed_table_matches_the_current_rule_tables() -> None:
    table = committed()
    versions = load_rule_tables().versions()
    assert all(versions[k] == v for k, v in table["provenance"]["rule_tables"].items())
    assert table["provenance"]["data_file"] == "ashare_daily_2017_2022.parquet"
    assert len(table["levels"][0]["cells"]) == 60 and table["base"]["n"] > 3_000_000


@pytest.mark.realdata
def test_committed_table_comes_from_the_shared_file(shared_data: Path) -> None:
    provenance = committed()["provenance"]
    path = shared_data / "ashare_daily_2017_2022.parquet"
    assert provenance["data_sha256"] == sha256_of(path)
    assert (provenance["rows"], provenance["symbols"]) == (4_495_920, 4_752)


@pytest.mark.realdata
@pytest.mark.slow
def test_committed_table_is_reproduced_from_the_shared_file(shared_data: Path) -> None:
    table = committed()
    again = calibrate(Source(shared_data / "ashare_daily_2017_2022.parquet", table["provenance"]["command"]))
    assert again["levels"] == table["levels"] and again["definition"] == table["definition"]


# ---- data ranges and point in time -----------------------------------------------------------------------------
def test_a_table_stores_its_data_range(fixture_file: Path) -> None:
    table = calibrate(Source(fixture_file, "test"))
    assert (table["data_from"], table["data_to"]) == ("2019-01-01", "2020-02-24")
    assert table_range(table) == (date(2019, 1, 1), date(2020, 2, 24))
    assert table["provenance"]["until"] is None


def test_a_table_built_until_a_date_reads_nothing_after_it(fixture_file: Path) -> None:
    """Cut before adjusting: the later bars (a dividend of sz000002 after the cut included) never reach it."""
    cut = date(2019, 12, 31)
    early = calibrate(Source(fixture_file, "test"), until=cut)
    assert (early["data_from"], early["data_to"]) == ("2019-01-01", "2019-12-31")
    assert early["provenance"]["until"] == "2019-12-31" and early["provenance"]["last_day"] == "2019-12-31"
    truncated = community_rows().filter(pl.col("date") <= cut)
    alone = fixture_file.with_name("cut.parquet")
    truncated.write_parquet(alone)
    same = calibrate(Source(alone, "test"))
    assert early["levels"] == same["levels"] and early["base"]["n"] < calibrate(Source(fixture_file, "t"))["base"]["n"]


def test_per_year_tables_end_at_each_complete_year(fixture_file: Path) -> None:
    days = pl.Series([date(2019, 12, 30), date(2019, 12, 31), date(2020, 1, 2), date(2020, 12, 31)])
    assert year_ends(days) == [date(2019, 12, 31)], "the data's last year is the full table's"
    built = calibrate_by_year(Source(fixture_file, "test"))
    assert list(built.tables) == [date(2019, 12, 31)] and built.skipped == {}
    assert built.tables[date(2019, 12, 31)]["data_to"] == "2019-12-31"
    assert (
        built.tables[date(2019, 12, 31)]["levels"]
        == calibrate(Source(fixture_file, "t"), until=date(2019, 12, 31))["levels"]
    )
    assert built.full["data_to"] == "2020-02-24"


def ranges(*ends: str) -> list[TableRange]:
    return [TableRange(Path(f"scenario_table_{e}.json"), date(2017, 1, 3), date.fromisoformat(e)) for e in ends]


def test_research_as_of_a_date_uses_the_newest_table_that_ends_before_it() -> None:
    tables = ranges("2022-01-14", "2018-12-28", "2019-12-31", "2020-12-31")
    cases = {
        date(2020, 3, 20): ("2019-12-31", False),  # issue 18: the 2022 table was used, reading 2020-2022
        date(2021, 2, 18): ("2020-12-31", False),
        date(2020, 12, 31): ("2019-12-31", False),  # a table ending on the as-of date is not before it
        date(2026, 11, 27): ("2022-01-14", False),
        date(2018, 6, 1): ("2018-12-28", True),  # none ends before: the earliest, disclosed as look-ahead
    }
    for as_of, (data_to, look_ahead) in cases.items():
        chosen = choose_table(tables, as_of)
        assert (str(chosen.data_to), chosen.look_ahead) == (data_to, look_ahead), as_of
    assert choose_table(tables, None).data_to == date(2022, 1, 14)
    assert choose_table(tables, date(2018, 6, 1)).as_dict() == {
        "file": "scenario_table_2018-12-28.json", "data_from": "2017-01-03", "data_to": "2018-12-28",
        "look_ahead": True}  # fmt: skip


def test_tables_are_found_by_name_beside_the_calibration_file(fixture_file: Path, tmp_path: Path) -> None:
    folder = tmp_path / "calibration"
    write_table(calibrate(Source(fixture_file, "test")), folder / "scenario_table.json")
    write_table(calibrate(Source(fixture_file, "test"), until=date(2019, 12, 31)), folder / "scenario_table_2019.json")
    (folder / "other.json").write_text("{}", encoding="utf-8")
    found = stored_tables(folder=folder)
    assert [r.path.name for r in found] == ["scenario_table_2019.json", "scenario_table.json"]
    assert table_for(date(2020, 2, 1), folder=folder).path.name == "scenario_table_2019.json"
    later = table_for(date(2020, 3, 1), folder=folder)
    assert (later.path.name, later.look_ahead) == ("scenario_table.json", False)
    early = table_for(date(2019, 6, 1), folder=folder)
    assert (early.path.name, early.look_ahead) == ("scenario_table_2019.json", True)


def test_a_table_without_a_range_field_reads_its_provenance() -> None:
    old = {"provenance": {"first_day": "2017-01-03", "last_day": "2022-01-14"}}
    assert table_range(old) == (date(2017, 1, 3), date(2022, 1, 14))


def test_calibrate_command_until_and_per_year(
    fixture_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out" / "table.json"
    assert run(["--json", "calibrate", "--data", str(fixture_file), "--out", str(out), "--until", "2019-06-30"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert (summary["data_from"], summary["data_to"]) == ("2019-01-01", "2019-06-30")
    assert json.loads(out.read_text(encoding="utf-8"))["provenance"]["command"].endswith("--until 2019-06-30")
    assert run(["--json", "calibrate", "--data", str(fixture_file), "--out", str(out), "--per-year"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["data_to"] == "2020-02-24"
    assert [(t["out"], t["data_to"]) for t in summary["tables"]] == [(str(out.with_name("table_2019.json")),
                                                                     "2019-12-31")]  # fmt: skip
    assert json.loads(out.with_name("table_2019.json").read_text(encoding="utf-8"))["data_to"] == "2019-12-31"
    both = ["--json", "calibrate", "--data", str(fixture_file), "--until", "2019-06-30", "--per-year"]
    assert run(both) == 1


REPORT_DATES = {"2020-03-20": "2019-12-31", "2021-02-18": "2020-12-31", "2021-12-31": "2020-12-31"}


def test_committed_tables_carry_their_range_and_cover_the_research_dates() -> None:
    """Issue 18: the 2017-01-03..2022-01-14 table was applied to reports as of 2020-03-20 and 2021-02-18. A table
    per year-end is committed, and research as of each of the reviewed dates finds one that ends before it."""
    found = stored_tables()
    assert [str(r.data_to) for r in found] == ["2017-12-29", "2018-12-28", "2019-12-31", "2020-12-31",
                                               "2021-12-31", "2022-01-14"]  # fmt: skip
    versions = load_rule_tables().versions()
    for stored in found:
        table = json.loads(stored.path.read_text(encoding="utf-8"))
        assert table["data_from"] == "2017-01-03" and table["format"] == "2"
        assert table["provenance"]["last_day"] == table["data_to"]
        assert all(versions[k] == v for k, v in table["provenance"]["rule_tables"].items())
    for as_of, data_to in REPORT_DATES.items():
        chosen = table_for(date.fromisoformat(as_of))
        assert (str(chosen.data_to), chosen.look_ahead) == (data_to, False)
    assert table_for(date(2017, 6, 30)).look_ahead is True
