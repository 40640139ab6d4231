"""The calibrated scenario table: outcome definition, benchmark, reproducibility on a small fixture, the command,
and the committed table's provenance (realdata)."""

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
    market_benchmark,
    outcome_expr,
    probabilities,
    sha256_of,
    stable_part,
    write_table,
)
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
    assert provenance["rule_tables"] == dict.fromkeys(("trend", "relative_strength", "volatility", "scenarios"), "1.0")
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
