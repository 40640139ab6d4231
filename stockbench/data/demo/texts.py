"""Announcement texts of the demo market: the templates of `resources/demo/announcements.toml` and the
number formats Chinese filings use (元 with thousands separators, 万元, 亿元, 2026年1月20日).
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from stockbench.data.demo.seed import TEMPLATES_FILE, seed_folder
from stockbench.errors import InternalError


@dataclass(frozen=True, slots=True)
class Rendered:
    title: str
    category: str
    text: str


@dataclass(frozen=True, slots=True)
class Templates:
    """The announcement templates and the fictional people and phrases they draw on."""

    data: dict[str, Any]

    def words(self, group: str, key: str) -> Any:
        return self.data[group][key]

    def render(self, key: str, fields: dict[str, object], hong_kong: bool) -> Rendered:
        """Fill template `key`: title, then header, body and footer of the market's style."""
        template = self.data["templates"].get(key)
        if template is None:
            raise InternalError(f"demo announcements: no template {key!r}")
        frame = self.data["hong_kong" if hong_kong else "a_share"]
        try:
            heading = template["heading"].format_map(fields)
            full = {**fields, "heading": heading}
            parts = (frame["header"], template["body"], frame["footer"])
            text = "\n".join(part.format_map(full).strip("\n") + "\n" for part in parts)
            return Rendered(template["title"].format_map(full), template["category"], text)
        except KeyError as error:
            raise InternalError(f"demo announcement {key!r} lacks the field {error}") from error


@functools.cache
def load_templates(folder: Path | None = None) -> Templates:
    return Templates(tomllib.loads(((folder or seed_folder()) / TEMPLATES_FILE).read_text("utf-8")))


def date_cn(day: date) -> str:
    return f"{day.year}年{day.month}月{day.day}日"


def yuan(value: float | None) -> str:
    return "—" if value is None else f"{value:,.2f}"


def wan(value: float) -> str:
    return f"{value / 1e4:,.2f}"


def yi(value: float) -> str:
    return f"{value / 1e8:,.2f}"


def pct(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def yoy(current: float, before: float | None) -> str:
    """Year-on-year change as a report table writes it ('12.34%', or '不适用' against a loss)."""
    if before is None or before <= 0:
        return "不适用"
    return f"{(current / before - 1) * 100:.2f}%"


def change(current: float, before: float | None) -> str:
    """Year-on-year change in words: 增长12.34% / 下降5.67% / 扭亏为盈 / 由盈转亏 / 亏损收窄 / 亏损扩大."""
    if before is None:
        return "不适用"
    if before > 0 and current >= 0:
        move = (current / before - 1) * 100
        return f"增长{move:.2f}%" if move >= 0 else f"下降{-move:.2f}%"
    if before <= 0 < current:
        return "扭亏为盈"
    if before > 0 > current:
        return "由盈转亏"
    return "亏损收窄" if current > before else "亏损扩大"
