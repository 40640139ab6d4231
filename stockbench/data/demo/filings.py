"""Announcements of the demo companies: the company context drafts draw on, and rendering to final texts.

`reports` drafts the periodic reports, preannouncements and dividends; `notices` the share reductions,
risk warnings, suspensions and listings. Each draft is a day, a template and the fields taken from the
demo's own numbers; `render` numbers a company's drafts per year in publication order and fills them in.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from datetime import date, datetime, time
from decimal import Decimal

from stockbench.clock import MARKET_TZ
from stockbench.data.demo.accounts import Accounts, Statement
from stockbench.data.demo.prices import LimitBook, StockPath
from stockbench.data.demo.schedule import StockSchedule
from stockbench.data.demo.seed import DemoSeed
from stockbench.data.demo.streams import stream
from stockbench.data.demo.texts import Templates, date_cn

PUBLISHED_AT = {"CN": time(17, 30), "HK": time(16, 45)}
Fields = dict[str, object]


@dataclass(frozen=True, slots=True)
class Draft:
    day: date
    key: str
    fields: Fields


@dataclass(frozen=True, slots=True)
class Filing:
    symbol: str
    source_id: str
    published_at: datetime
    title: str
    category: str
    text: str


@dataclass(frozen=True, slots=True)
class Company:
    """Everything the drafts of one company draw on."""

    seed: DemoSeed
    schedule: StockSchedule
    accounts: Accounts
    path: StockPath
    sessions: list[date]  # the market's sessions, from the first statement's year
    limits: LimitBook
    templates: Templates
    people: Fields

    @property
    def hk(self) -> bool:
        return not self.schedule.stock.instrument.is_a_share

    def later(self, day: date, n: int) -> date | None:
        """The session `n` sessions after `day` (before it when n < 0), if the calendar has it."""
        at = bisect.bisect_left(self.sessions, day) + n
        return self.sessions[at] if 0 <= at < len(self.sessions) else None

    def close_on(self, day: date) -> Decimal:
        """The last close on or before `day`."""
        at = bisect.bisect_right(self.path.days, day) - 1
        return self.path.close[at] * self.path.unit

    def statement(self, period: date) -> Statement | None:
        return next((s for s in self.accounts.statements if s.period_end == period), None)

    def year_before(self, now: Statement) -> Statement | None:
        end = now.period_end
        return self.statement(date(end.year - 1, end.month, end.day))


def people_for(seed: DemoSeed, symbol: str, templates: Templates) -> Fields:
    """The company's fictional chair, directors, auditor, controlling holder and holder count."""
    rng = stream(seed.number, symbol, "people")

    def pick(key: str, k: int) -> list[str]:
        pool = list(templates.words("people", key))
        return [pool[int(i)] for i in rng.permutation(len(pool))[:k]]

    chairs, directors = pick("chairs", 2), pick("directors", 4)
    return {
        "chair": chairs[0],
        "director": directors[0],
        "director2": chairs[1],
        "ined1": directors[1],
        "ined2": directors[2],
        "ined3": directors[3],
        "auditor": pick("auditors", 1)[0],
        "controller": pick("controllers", 1)[0],
        "controller_pct": f"{25 + 30 * rng.random():.2f}",
        "holders": f"{int(20_000 + 130_000 * rng.random()):,}",
    }


def _short_name(schedule: StockSchedule, day: date) -> str:
    """The name a notice carries: the name of the day, without the trading-only N/C listing prefixes."""
    stock = schedule.stock
    name = schedule.name_on(day) if day >= stock.list_date else stock.name
    return stock.name if name in {"N" + stock.name, "C" + stock.name} else name


def _base(company: Company, day: date) -> Fields:
    stock = company.schedule.stock
    suffix = company.seed.hk_company_suffix if company.hk else company.seed.company_suffix
    return {
        "code": stock.instrument.code,
        "short": _short_name(company.schedule, day),
        "company": stock.name + suffix,
        "english": stock.english,
        "exchange": company.templates.words("exchanges", stock.instrument.exchange.value),
        "sector": company.seed.sectors[stock.sector].name,
        "date_cn": date_cn(day),
        "disclaimer": company.seed.disclaimer,
    }


def render(company: Company, drafts: list[Draft]) -> list[Filing]:
    """The drafts inside the demo period as announcements, numbered per year in publication order."""
    seed = company.seed
    visible = sorted((d for d in drafts if seed.first_session <= d.day <= seed.last_session), key=lambda d: d.day)
    stock = company.schedule.stock
    market = stock.instrument.market
    filings: list[Filing] = []
    counter: dict[int, int] = {}
    for draft in visible:
        counter[draft.day.year] = counter.get(draft.day.year, 0) + 1
        number = f"{draft.day.year}-{counter[draft.day.year]:03d}"
        fields = {**company.people, **_base(company, draft.day), **draft.fields, "number": number}
        rendered = company.templates.render(draft.key, fields, company.hk)
        at = datetime.combine(draft.day, PUBLISHED_AT[market], tzinfo=MARKET_TZ[market])
        source_id = f"DEMO-{stock.instrument.code}-{number}"
        filings.append(Filing(stock.symbol, source_id, at, rendered.title, rendered.category, rendered.text))
    return filings
