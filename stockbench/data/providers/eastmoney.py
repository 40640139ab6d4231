"""Eastmoney: unadjusted daily bars, quotes with limit prices, money flow, valuation history and key financials.

- Bars: push2his `qt/stock/kline/get` with secid MARKET.CODE (1 Shanghai; 0 Shenzhen and Beijing; 116 Hong
  Kong; 105/106/107 US, tried in turn), klt=101, fqt=0 (unadjusted), fields2 f51..f61. Each `klines` item is
  date,open,close,high,low,volume,amount,amplitude %,change %,change,turnover % (volume in lots for A-shares,
  shares elsewhere; amount in currency units). `data: null` means an unknown code. The answer's preKPrice and
  change column are against the previous close, not necessarily the ex-rights reference, so prev_close stays None.
  An answer whose average price (amount / volume) lies outside the day's range has adjusted prices (the shared
  recording of 601872 is one) and is refused.
- Quote: push2 `qt/stock/get` (fltt=2: plain decimals, "-" when absent): f43 last, f44 high, f45 low, f46 open,
  f47 volume (A: lots), f48 amount, f51/f52 limit up/down, f57 code, f58 name, f60 previous close, f86 quote
  time (Unix seconds), f168 turnover %; f59/f152 the number of decimals. Without fltt=2 (or with fltt=1) the prices
  are integers to be divided by 10^f59 (00700 at 478800): the adapter asks fltt=2 and refuses scaled integers:
  the sanity rule finds them 10^f59 off amount / volume, and before any trade integer prices with f59 > 0 are
  refused. `rc` other than 0 (102 with `data: null` while throttled, for valid codes) is a service error, never
  an unknown code. The service has no board-lot field that we could confirm: board_lot stays None (A-share lots
  are a rule; Hong Kong lots come from Tencent).
- Money flow: push2his `qt/stock/fflow/daykline/get` (lmt=0, klt=101, fields2 f51..f65): date, main net,
  small, medium, large, super-large net (yuan), then their shares %, close, change %.
- Valuation: data center report RPT_VALUEANALYSIS_DET by SECURITY_CODE (TRADE_DATE, CLOSE_PRICE,
  TOTAL_MARKET_CAP in yuan, PE_TTM, PE_LAR, PB_MRQ, PS_TTM, PCF_OCF_TTM), paged.
- Financials: data center report RPT_F10_FINANCE_MAINFINADATA (the F10 "main indicators") by SECUCODE: one row
  per report date, cumulative year-to-date as reported, published on NOTICE_DATE. See FINANCIAL_ITEMS.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, ClassVar, Literal

from stockbench.clock import MARKET_TZ
from stockbench.data.http import FailureKind, HttpClient, Target
from stockbench.data.providers.base import (
    A_SHARE_LOT,
    PayloadError,
    ProviderBase,
    check_bar_shape,
    check_quote,
    check_unadjusted,
    day,
    instrument,
    is_a_share_stock,
    number,
    optional_number,
    positive_or_none,
    unique_by_day,
    volume_in_lots,
    whole,
)
from stockbench.data.records import Bar, DataKind, FinancialItem, MoneyFlowDay, Quote, ValuationDay
from stockbench.market.instruments import Exchange, Instrument, SecurityType

SOURCE = "eastmoney"
KLINE_UT = "7eea3edcaed734bea9cbfc24409ed989"
QUOTE_UT = "fa5fd1943c7b386f172d6893dbfba10b"
FLOW_UT = "b2884a393a59ad64002292a3e90d46a5"
QUOTE_FIELDS = "f43,f44,f45,f46,f47,f48,f51,f52,f57,f58,f59,f60,f86,f152,f168"
_PRICE_FIELDS = ("f43", "f44", "f45", "f46", "f60")
US_MARKETS = ("105", "106", "107")
MAX_PAGES = 50
VALUATION_PAGE = 5000
FINANCIALS_PAGE = 200
_NO_DATA_CODE = 9201  # the data center's "返回数据为空"

Statement = Literal["income", "balance", "cashflow", "indicator"]
# column -> (statement, stable item key, unit); money in yuan, ratios as the service gives them (%).
FINANCIAL_ITEMS: dict[str, tuple[Statement, str, str]] = {
    "TOTALOPERATEREVE": ("income", "revenue", "CNY"),
    "PARENTNETPROFIT": ("income", "net_profit_parent", "CNY"),
    "KCFJCXSYJLR": ("income", "net_profit_parent_deducted", "CNY"),
    "EPSJB": ("indicator", "eps_basic", "CNY/share"),
    "BPS": ("indicator", "book_value_per_share", "CNY/share"),
    "MGJYXJJE": ("indicator", "operating_cash_flow_per_share", "CNY/share"),
    "ROEJQ": ("indicator", "roe_weighted", "%"),
    "XSMLL": ("indicator", "gross_margin", "%"),
    "XSJLL": ("indicator", "net_margin", "%"),
    "ZCFZL": ("indicator", "debt_to_assets", "%"),
    "TOTALOPERATEREVETZ": ("indicator", "revenue_yoy", "%"),
    "PARENTNETPROFITTZ": ("indicator", "net_profit_parent_yoy", "%"),
    "LD": ("indicator", "current_ratio", "ratio"),
    "SD": ("indicator", "quick_ratio", "ratio"),
}


@dataclass(frozen=True, slots=True)
class EastmoneyEndpoints:
    kline: str = "https://push2his.eastmoney.com/api/qt/stock/kline/get"
    quote: str = "https://push2.eastmoney.com/api/qt/stock/get"
    money_flow: str = "https://push2his.eastmoney.com/api/qt/stock/fflow/daykline/get"
    datacenter: str = "https://datacenter-web.eastmoney.com/api/data/v1/get"

    @classmethod
    def at(cls, base: str) -> EastmoneyEndpoints:
        """The same paths on another base URL (the local replay server in tests)."""
        base = base.rstrip("/")
        return cls(
            f"{base}/api/qt/stock/kline/get",
            f"{base}/api/qt/stock/get",
            f"{base}/api/qt/stock/fflow/daykline/get",
            f"{base}/api/data/v1/get",
        )


def secid_markets(inst: Instrument) -> tuple[str, ...]:
    """The secid market numbers to try for an instrument (US listings: NASDAQ, NYSE, AMEX in turn)."""
    if inst.market == "US":
        return US_MARKETS
    if inst.exchange is Exchange.HK and inst.security_type is SecurityType.INDEX:
        raise PayloadError("eastmoney Hong Kong index codes are not mapped", "unsupported")
    return ({Exchange.SH: "1", Exchange.SZ: "0", Exchange.BJ: "0", Exchange.HK: "116"}[inst.exchange],)


def _data(payload: Any) -> Any:
    if not isinstance(payload, dict) or "data" not in payload:
        raise PayloadError("the answer has no 'data'")
    if _service_error(payload):
        raise PayloadError(
            f"service error rc {payload.get('rc')!r} (throttled or failing; not an unknown code): try again later",
            "http_status",
        )
    if payload["data"] is None:
        raise PayloadError("data is null: the service does not know this code", "unknown_symbol")
    if not isinstance(payload["data"], dict):
        raise PayloadError("'data' is not an object")
    return payload["data"]


def _service_error(payload: Any) -> bool:
    """An answer with a return code other than 0 (102 while throttled): its `data: null` says nothing of the code."""
    return isinstance(payload, dict) and payload.get("rc", 0) not in (0, None)


def _lines(data: dict[str, Any], inst: Instrument, width: int) -> list[list[str]]:
    code = str(data.get("code", ""))
    if code and code != inst.code:
        raise PayloadError(f"the answer is for code {code!r}, not {inst.code}")
    rows = data.get("klines")
    if not isinstance(rows, list):
        raise PayloadError("'klines' is not a list")
    if not rows:
        raise PayloadError("no rows in the answer", "empty")
    split = [str(row).split(",") for row in rows]
    if any(len(row) < width for row in split):
        raise PayloadError(f"a row has fewer than {width} fields")
    return split


def parse_kline_rows(payload: Any, inst: Instrument) -> list[Bar]:
    """The bars of one kline answer as written (field order and units), oldest first."""
    return unique_by_day([_bar(row, inst) for row in _lines(_data(payload), inst, 11)])


def parse_daily_bars(payload: Any, inst: Instrument) -> list[Bar]:
    """Unadjusted bars of one kline answer, oldest first; adjusted-looking prices are refused."""
    return [check_unadjusted(bar, inst) for bar in parse_kline_rows(payload, inst)]


def _bar(row: list[str], inst: Instrument) -> Bar:
    volume = whole(number(row[5], "volume"), "volume")
    bar = Bar(
        symbol=inst.symbol,
        day=day(row[0], "bar date"),
        open=number(row[1], "open"),
        close=number(row[2], "close"),
        high=number(row[3], "high"),
        low=number(row[4], "low"),
        prev_close=None,
        volume=volume * A_SHARE_LOT if volume_in_lots(inst) else volume,
        amount=optional_number(row[6], "amount"),
        source=SOURCE,
        turnover_pct=optional_number(row[10], "turnover"),
    )
    return check_bar_shape(bar)


def parse_quote(payload: Any, inst: Instrument) -> Quote:
    """The quote of one stock/get answer."""
    data = _data(payload)
    if str(data.get("f57", "")) != inst.code:
        raise PayloadError(f"the answer is for code {data.get('f57')!r}, not {inst.code}")
    _check_decimals(data)
    last = optional_number(data.get("f43"), "last (f43)")
    if last is None or last <= 0:
        raise PayloadError("no last price (f43): not traded yet or suspended", "empty")
    volume = optional_number(data.get("f47"), "volume (f47)")
    shares = whole(volume, "volume (f47)") if volume is not None else None
    quote = Quote(
        symbol=inst.symbol,
        at=_unix_time(data.get("f86"), inst),
        last=last,
        prev_close=number(data.get("f60"), "previous close (f60)"),
        open=optional_number(data.get("f46"), "open (f46)"),
        high=optional_number(data.get("f44"), "high (f44)"),
        low=optional_number(data.get("f45"), "low (f45)"),
        volume=shares * A_SHARE_LOT if shares is not None and volume_in_lots(inst) else shares,
        amount=optional_number(data.get("f48"), "amount (f48)"),
        source=SOURCE,
        name=str(data.get("f58") or "") or None,
        limit_up=positive_or_none(optional_number(data.get("f51"), "limit up (f51)")),
        limit_down=positive_or_none(optional_number(data.get("f52"), "limit down (f52)")),
        currency=inst.currency,
        turnover_pct=optional_number(data.get("f168"), "turnover (f168)"),
    )
    return check_quote(quote, inst)


def _check_decimals(data: dict[str, Any]) -> None:
    """Refuse integer prices that f59 (or f152) says carry decimals (an answer not asked with fltt=2) when nothing
    traded yet: with a volume and an amount, check_quote's average price tells a scaled answer from a plain one
    whose prices happen to be whole (a plain answer may write 10.00 as 10)."""
    decimals = optional_number(data.get("f59", data.get("f152")), "decimals (f59)")
    prices = [data[name] for name in _PRICE_FIELDS if isinstance(data.get(name), int | float)]
    traded = bool(optional_number(data.get("f47"), "volume (f47)")) and bool(
        optional_number(data.get("f48"), "amount (f48)")
    )
    if traded or not decimals or decimals <= 0:
        return
    if prices and all(isinstance(value, int) for value in prices):
        raise PayloadError(
            f"the prices are integers (f43 {data.get('f43')}) to be divided by 10^{decimals} (f59): "
            "decimals not applied (the answer was not asked with fltt=2)"
        )


def _unix_time(value: Any, inst: Instrument) -> datetime:
    seconds = optional_number(value, "quote time (f86)")
    if seconds is None or seconds <= 0:
        raise PayloadError("quote time (f86) is missing")
    return datetime.fromtimestamp(int(seconds), tz=MARKET_TZ[inst.market])


def parse_money_flow(payload: Any, inst: Instrument) -> list[MoneyFlowDay]:
    """Money-flow days of one fflow/daykline answer, oldest first."""
    days = [
        MoneyFlowDay(
            symbol=inst.symbol,
            day=day(row[0], "flow date"),
            main_net=number(row[1], "main net"),
            small_net=optional_number(row[2], "small net"),
            medium_net=optional_number(row[3], "medium net"),
            large_net=optional_number(row[4], "large net"),
            super_large_net=optional_number(row[5], "super-large net"),
            source=SOURCE,
        )
        for row in _lines(_data(payload), inst, 6)
    ]
    return sorted({item.day: item for item in days}.values(), key=lambda item: item.day)


def datacenter_rows(payload: Any) -> tuple[list[dict[str, Any]], int]:
    """(rows, number of pages) of one data-center answer; "no data" is a failure of kind empty."""
    if not isinstance(payload, dict) or "success" not in payload:
        raise PayloadError("the answer is not a data-center result")
    if not payload["success"]:
        kind: FailureKind = "empty" if payload.get("code") == _NO_DATA_CODE else "unparseable"
        raise PayloadError(f"service says {payload.get('message')!r} (code {payload.get('code')})", kind)
    result = payload.get("result")
    if not isinstance(result, dict) or not isinstance(result.get("data"), list):
        raise PayloadError("'result.data' is not a list")
    if not result["data"]:
        raise PayloadError("no rows in the answer", "empty")
    rows = [row for row in result["data"] if isinstance(row, dict)]
    return rows, int(result.get("pages") or 1)


def parse_valuation(rows: Sequence[dict[str, Any]], inst: Instrument) -> list[ValuationDay]:
    """Valuation days of RPT_VALUEANALYSIS_DET rows, oldest first."""
    days = [
        ValuationDay(
            symbol=inst.symbol,
            day=day(row.get("TRADE_DATE"), "TRADE_DATE"),
            close=optional_number(row.get("CLOSE_PRICE"), "CLOSE_PRICE"),
            total_mcap=optional_number(row.get("TOTAL_MARKET_CAP"), "TOTAL_MARKET_CAP"),
            pe_ttm=optional_number(row.get("PE_TTM"), "PE_TTM"),
            pe_static=optional_number(row.get("PE_LAR"), "PE_LAR"),
            pb_mrq=optional_number(row.get("PB_MRQ"), "PB_MRQ"),
            ps_ttm=optional_number(row.get("PS_TTM"), "PS_TTM"),
            pcf_ocf_ttm=optional_number(row.get("PCF_OCF_TTM"), "PCF_OCF_TTM"),
            source=SOURCE,
        )
        for row in rows
    ]
    return sorted({item.day: item for item in days}.values(), key=lambda item: item.day)


def parse_financials(rows: Sequence[dict[str, Any]], inst: Instrument) -> list[FinancialItem]:
    """FinancialItems of RPT_F10_FINANCE_MAINFINADATA rows; per report date the earliest-published row wins."""
    by_period: dict[date, tuple[date | None, dict[str, Any]]] = {}
    for row in rows:
        period = day(row.get("REPORT_DATE"), "REPORT_DATE")
        published = day(row["NOTICE_DATE"], "NOTICE_DATE") if row.get("NOTICE_DATE") else None
        kept = by_period.get(period)
        if kept is None or (published is not None and (kept[0] is None or published < kept[0])):
            by_period[period] = (published, row)
    return [
        FinancialItem(inst.symbol, period, statement, item, value, unit, published, SOURCE)
        for period, (published, row) in sorted(by_period.items())
        for column, (statement, item, unit) in FINANCIAL_ITEMS.items()
        if (value := optional_number(row.get(column), column)) is not None
    ]


class EastmoneyProvider(ProviderBase):
    """Eastmoney bars, quotes, money flow, valuation history and key financials."""

    name: ClassVar[str] = SOURCE
    kinds: ClassVar[frozenset[DataKind]] = frozenset({"bars", "quote", "money_flow", "valuation", "financials"})

    def __init__(self, http: HttpClient, endpoints: EastmoneyEndpoints | None = None) -> None:
        super().__init__(http)
        self.endpoints = endpoints or EastmoneyEndpoints()
        self._us_market: dict[str, str] = {}
        self._lock = threading.Lock()

    def daily_bars(self, symbol: str, start: date, end: date) -> list[Bar]:
        inst, target, url = instrument(symbol), self.target("bars", symbol), self.endpoints.kline
        params = {
            "fields1": "f1,f2,f3,f4,f5,f6",
            "fields2": "f51,f52,f53,f54,f55,f56,f57,f58,f59,f60,f61",
            "ut": KLINE_UT,
            "klt": "101",
            "fqt": "0",
            "beg": start.strftime("%Y%m%d"),
            "end": end.strftime("%Y%m%d"),
        }
        payload = self._by_secid(target, inst, url, params)
        bars = self.parsed(target, url, lambda: parse_daily_bars(payload, inst))
        within = [bar for bar in bars if start <= bar.day <= end]
        if not within:
            raise target.failure("empty", f"no bars from {start} to {end}", url=url)
        return within

    def quotes(self, symbols: Sequence[str]) -> list[Quote]:
        quotes = []
        for symbol in symbols:
            inst, target, url = instrument(symbol), self.target("quote", symbol), self.endpoints.quote
            params = {"fields": QUOTE_FIELDS, "fltt": "2", "invt": "2", "ut": QUOTE_UT}
            payload = self._by_secid(target, inst, url, params)
            quotes.append(self.parsed(target, url, functools.partial(parse_quote, payload, inst)))
        return quotes

    def money_flow(self, symbol: str) -> list[MoneyFlowDay]:
        inst, target = self._a_share(symbol, "money_flow"), self.target("money_flow", symbol)
        url = self.endpoints.money_flow
        params = {
            "lmt": "0",
            "klt": "101",
            "fields1": "f1,f2,f3,f7",
            "fields2": "f51,f52,f53,f54,f55,f56,f57,f58,f59,f60,f61,f62,f63,f64,f65",
            "ut": FLOW_UT,
        }
        payload = self._by_secid(target, inst, url, params)
        return self.parsed(target, url, lambda: parse_money_flow(payload, inst))

    def valuation_history(self, symbol: str) -> list[ValuationDay]:
        inst, target = self._a_share(symbol, "valuation"), self.target("valuation", symbol)
        query = {"reportName": "RPT_VALUEANALYSIS_DET", "sortColumns": "TRADE_DATE", "pageSize": str(VALUATION_PAGE)}
        rows = self._datacenter(target, query, f'(SECURITY_CODE="{inst.code}")')
        return self.parsed(target, self.endpoints.datacenter, lambda: parse_valuation(rows, inst))

    def financials(self, symbol: str) -> list[FinancialItem]:
        inst, target = self._a_share(symbol, "financials"), self.target("financials", symbol)
        query = {
            "reportName": "RPT_F10_FINANCE_MAINFINADATA",
            "sortColumns": "REPORT_DATE",
            "pageSize": str(FINANCIALS_PAGE),
        }
        rows = self._datacenter(target, query, f'(SECUCODE="{inst.symbol}")')
        return self.parsed(target, self.endpoints.datacenter, lambda: parse_financials(rows, inst))

    def _a_share(self, symbol: str, what: DataKind) -> Instrument:
        inst = instrument(symbol)
        if not is_a_share_stock(inst):
            raise self.unsupported(what, symbol, f"eastmoney {what} covers A-share stocks only")
        return inst

    def _by_secid(self, target: Target, inst: Instrument, url: str, params: dict[str, str]) -> Any:
        """GET with the instrument's secid; for US tickers try each US market until one knows the code."""
        markets = self.parsed(target, url, lambda: secid_markets(inst))
        with self._lock:
            known = self._us_market.get(inst.code)
        for market in (known,) if known else markets:
            payload = self.http.get_json(target, url, params={**params, "secid": f"{market}.{inst.code}"})
            if (
                len(markets) == 1
                or _service_error(payload)
                or (isinstance(payload, dict) and payload.get("data") is not None)
            ):
                if len(markets) > 1:
                    with self._lock:
                        self._us_market[inst.code] = market
                return payload
        raise target.failure("unknown_symbol", f"no US market ({', '.join(markets)}) knows {inst.code}", url=url)

    def _datacenter(self, target: Target, query: dict[str, str], condition: str) -> list[dict[str, Any]]:
        """All rows of a data-center report, page by page."""
        url = self.endpoints.datacenter
        params = {**query, "sortTypes": "-1", "columns": "ALL", "source": "WEB", "client": "WEB", "filter": condition}
        rows: list[dict[str, Any]] = []
        pages = 1
        for page_number in range(1, MAX_PAGES + 1):
            payload = self.http.get_json(target, url, params={**params, "pageNumber": str(page_number)})
            page, pages = self.parsed(target, url, functools.partial(datacenter_rows, payload))
            rows.extend(page)
            if page_number >= pages:
                return rows
        raise target.failure("unparseable", f"more than {MAX_PAGES} pages ({pages} announced)", url=url)
