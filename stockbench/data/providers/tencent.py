"""Tencent: quotes for A-shares, Hong Kong and US (qt.gtimg.cn) and unadjusted daily bars (fqkline, A and HK).

Quote answer: one `v_CODE="f0~f1~...";` line per code, GBK. Fields used: 0 market code (1 SH, 51 SZ, 100 HK,
200 US); 1 name; 2 code; 3 last; 4 previous close; 5 open; 6 volume (A: lots, STAR: shares; HK, US: shares);
30 time; 33 high; 34 low; 35 A: "price/volume in lots/amount in yuan", US: currency; 37 amount (A: 10k CNY,
HK and US: currency units); 38 turnover %; 39 PE; 40 A: trading status ("S" suspended, "D" delisted, empty when
trading: a halted line has last = previous close and open/high/low 0); 46 PB (A); 47/48 limit up/down (A; -1 for
indices); 60 board lot (HK); 75 currency (HK). An unknown code is answered anonymously with `v_pv_none_match="1";`.
US codes may hold a dot (usBRK.B; field 2 "BRK.B.N" ends with the listing's exchange). The `hk` quotes are 15
minutes late (Tencent's free Hong Kong feed), and are labelled so (Quote.delay_minutes).

Bars: `fqkline/get?param=CODE,day,START,END,640,` (last part empty = unadjusted, rows under "day"; "qfq" would
give "qfqday"). A-shares ask `kline`: by default proxy.finance.qq.com/ifzqgtimg/appstock/app/newfqkline/get (what
akshare's stock_zh_a_hist_tx uses since web.ifzq.gtimg.cn's fqkline answers HTTP 501, reported from 2026-10-01);
the old host is an endpoint of its own in the data sources' chain (bars.tencent_old, off by default), never asked
behind the adapter's back. Hong Kong asks `hk_kline` (web.ifzq.gtimg.cn's hkfqkline, bars.tencent_hk): that host's
fqkline answers HTTP 501, no peer asks a newfqkline for Hong Kong codes, so the chain ships it off (Hong Kong bars
come from Eastmoney secid 116 first). Either may wrap the JSON as `NAME={...}`. Rows are [date, open, CLOSE, HIGH, LOW,
volume in lots (STAR: shares), ...]; newer rows add {}, turnover %, amount in 10k CNY. At most 640 rows per call, so
a range is fetched in two-year pages. The service gives no previous close, so `prev_close` stays None (a previous row's
close is not the reference price on an ex-rights date).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import Any, ClassVar

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
    moment,
    number,
    optional_number,
    positive_or_none,
    unique_by_day,
    volume_in_lots,
    whole,
)
from stockbench.data.records import Bar, DataKind, Quote, TradingStatus
from stockbench.market.instruments import Exchange, Instrument, SecurityType

SOURCE = "tencent"
MARKET_CODES = {Exchange.SH: "1", Exchange.SZ: "51", Exchange.HK: "100", Exchange.US: "200"}
PAGE_LIMIT = 640
PAGE_DAYS = 730  # two calendar years hold at most ~500 sessions, well under the 640-row cap
_LINE = re.compile(r'v_([A-Za-z0-9_.]+)="([^"]*)"')
_TIME_FORMATS = ("%Y%m%d%H%M%S", "%Y/%m/%d %H:%M:%S", "%Y-%m-%d %H:%M:%S")
_MIN_FIELDS = {"CN": 49, "HK": 76, "US": 40}
_STATUS: dict[str, TradingStatus] = {"S": "suspended", "D": "delisted"}
HK_DELAY_MINUTES = 15
_WRAPPED = re.compile(r"^\s*[A-Za-z_$][\w$]*\s*=\s*")


@dataclass(frozen=True, slots=True)
class TencentEndpoints:
    """One URL per request: `kline` for A-share bars, `hk_kline` for Hong Kong bars. There is no second k-line URL
    here: which endpoint is asked after a failure is the data sources' chain's choice (resources/data_sources.toml),
    so an endpoint the user left out is never called."""

    quote: str = "https://qt.gtimg.cn/q="
    kline: str = "https://proxy.finance.qq.com/ifzqgtimg/appstock/app/newfqkline/get"
    hk_kline: str = "https://web.ifzq.gtimg.cn/appstock/app/hkfqkline/get"

    @classmethod
    def at(cls, base: str) -> TencentEndpoints:
        """The same paths on another base URL (the local replay server in tests)."""
        base = base.rstrip("/")
        return cls(f"{base}/q=", f"{base}/ifzqgtimg/appstock/app/newfqkline/get", f"{base}/appstock/app/hkfqkline/get")


def tencent_code(inst: Instrument) -> str:
    """sh600519, sz000001, bj920118, hk00700, hkHSI, usAAPL."""
    return {"SH": "sh", "SZ": "sz", "BJ": "bj", "HK": "hk", "US": "us"}[inst.exchange.value] + inst.code


def parse_quotes(text: str, wanted: dict[str, Instrument]) -> list[Quote]:
    """Quotes for `wanted` (Tencent code -> instrument), in its order; a code not answered fails them all."""
    lines = dict(_LINE.findall(text))
    if not lines:
        raise PayloadError("no quote lines in the answer")
    missing = [code for code in wanted if not lines.get(code)]
    if missing:
        unknown = "pv_none_match" in lines or any(code in lines for code in missing)
        kind: FailureKind = "unknown_symbol" if unknown else "unparseable"
        raise PayloadError(f"no quote for {', '.join(missing)}", kind)
    return [parse_quote_line(lines[code], inst) for code, inst in wanted.items()]


def parse_quote_line(line: str, inst: Instrument) -> Quote:
    """One quote line's fields (without the `v_CODE="` wrapper)."""
    f = line.split("~")
    if len(f) < _MIN_FIELDS[inst.market]:
        raise PayloadError(f"{len(f)} fields for {inst.symbol}, expected at least {_MIN_FIELDS[inst.market]}")
    _check_identity(f, inst)
    status = _STATUS.get(f[40].strip(), "trading") if inst.market == "CN" else "trading"
    if status == "trading" and number(f[3], "last (field 3)") <= 0:
        raise PayloadError("no last price (0): not traded yet or suspended", "empty")
    quote = Quote(
        symbol=inst.symbol,
        at=moment(f[30], _TIME_FORMATS, MARKET_TZ[inst.market], "quote time (field 30)"),
        last=number(f[3], "last (field 3)"),
        prev_close=number(f[4], "previous close (field 4)"),
        open=optional_number(f[5], "open (field 5)"),
        high=optional_number(f[33], "high (field 33)"),
        low=optional_number(f[34], "low (field 34)"),
        volume=_volume(f, inst),
        amount=_amount(f, inst),
        source=SOURCE,
        name=f[1] or None,
        status=status,
        delay_minutes=HK_DELAY_MINUTES if inst.market == "HK" else 0,
        **_extras(f, inst),
    )
    return check_quote(quote, inst)


def _check_identity(f: list[str], inst: Instrument) -> None:
    expected = MARKET_CODES.get(inst.exchange)
    if expected and f[0] != expected:
        raise PayloadError(f"market code {f[0]!r} (field 0) for {inst.symbol}, expected {expected!r}")
    code = f[2].rsplit(".", 1)[0] if inst.market == "US" and "." in f[2] else f[2]
    if code != inst.code:
        raise PayloadError(f"code {f[2]!r} (field 2) in the line for {inst.symbol}")


def _volume(f: list[str], inst: Instrument) -> int | None:
    if inst.market == "HK" and inst.security_type is SecurityType.INDEX:
        return None  # the index line's "volume" is fractional: not a share count
    value = optional_number(f[6], "volume (field 6)")
    if value is None:
        return None
    if inst.market == "CN":
        parts = f[35].split("/")
        if len(parts) == 3 and optional_number(parts[1], "volume (field 35)") != value:
            raise PayloadError(f"volume fields disagree: {f[6]} (field 6) and {parts[1]} (field 35)")
    shares = whole(value, "volume (field 6)")
    return shares * A_SHARE_LOT if volume_in_lots(inst) else shares


def _amount(f: list[str], inst: Instrument) -> Decimal | None:
    if inst.market == "HK" and inst.security_type is SecurityType.INDEX:
        return None
    amount = optional_number(f[37], "amount (field 37)")
    if inst.market != "CN" or amount is None:
        return amount
    in_yuan = amount * 10_000  # field 37 is in 10k CNY, rounded
    parts = f[35].split("/")
    exact = optional_number(parts[2], "amount (field 35)") if len(parts) == 3 else None
    if exact is None:
        return in_yuan
    if abs(exact - in_yuan) >= 10_000:
        raise PayloadError(f"amount fields disagree: {exact} yuan (field 35) and {amount} x 10k (field 37)")
    return exact


def _extras(f: list[str], inst: Instrument) -> dict[str, Any]:
    stock = inst.security_type is not SecurityType.INDEX
    extras: dict[str, Any] = {"currency": inst.currency}
    if inst.market == "CN":
        extras["turnover_pct"] = optional_number(f[38], "turnover (field 38)") if stock else None
        extras["pe"] = positive_or_none(optional_number(f[39], "PE (field 39)")) if stock else None
        extras["pb"] = positive_or_none(optional_number(f[46], "PB (field 46)")) if stock else None
        extras["limit_up"] = positive_or_none(optional_number(f[47], "limit up (field 47)"))
        extras["limit_down"] = positive_or_none(optional_number(f[48], "limit down (field 48)"))
    elif inst.market == "HK":
        lot = optional_number(f[60], "board lot (field 60)")
        extras["board_lot"] = whole(lot, "board lot (field 60)") if stock and lot and lot > 0 else None
        extras["currency"] = f[75] or inst.currency
        extras["pe"] = positive_or_none(optional_number(f[39], "PE (field 39)")) if stock else None
    else:
        extras["currency"] = f[35] or inst.currency
        extras["turnover_pct"] = optional_number(f[38], "turnover (field 38)")
        extras["pe"] = positive_or_none(optional_number(f[39], "PE (field 39)"))
    return extras


def kline_json(text: str) -> Any:
    """The JSON of a k-line answer, unwrapped from `NAME=` when the service wrapped it (the `_var` parameter)."""
    try:
        return json.loads(_WRAPPED.sub("", text, count=1), parse_float=Decimal)
    except json.JSONDecodeError as exc:
        raise PayloadError(f"invalid JSON ({exc.msg} at char {exc.pos} of {len(text)})") from None


def parse_kline_text(text: str, inst: Instrument, code: str) -> list[Bar]:
    """parse_daily_bars of a k-line answer's text."""
    return parse_daily_bars(kline_json(text), inst, code)


def parse_daily_bars(payload: Any, inst: Instrument, code: str) -> list[Bar]:
    """Unadjusted bars of one fqkline answer (an empty list when the window holds no sessions)."""
    if not isinstance(payload, dict) or "data" not in payload:
        raise PayloadError("the answer has no 'data'")
    if payload.get("code") != 0:
        raise PayloadError(f"service error {payload.get('code')!r}: {str(payload.get('msg'))[:80]}")
    data = payload["data"]
    node = data.get(code) if isinstance(data, dict) else None
    if not isinstance(node, dict):
        raise PayloadError(f"no series for {code} in the answer", "unknown_symbol")
    if "day" not in node and any(key in node for key in ("qfqday", "hfqday")):
        raise PayloadError("an adjusted series came back where the unadjusted one was asked")
    rows = node.get("day") or []
    if not isinstance(rows, list):
        raise PayloadError("'day' is not a list of rows")
    if len(rows) >= PAGE_LIMIT:
        raise PayloadError(f"{len(rows)} rows in one page: the page may have been cut at {PAGE_LIMIT}")
    return [check_unadjusted(_bar(row, inst), inst) for row in rows]


def _bar(row: Any, inst: Instrument) -> Bar:
    if not isinstance(row, list) or len(row) < 6:
        raise PayloadError(f"a k-line row has {len(row) if isinstance(row, list) else 0} fields, expected 6+")
    volume = whole(number(row[5], "volume"), "volume")
    amount = optional_number(row[8], "amount") if len(row) > 8 and not isinstance(row[8], dict) else None
    turnover = optional_number(row[7], "turnover") if len(row) > 7 and not isinstance(row[7], dict) else None
    bar = Bar(
        symbol=inst.symbol,
        day=day(row[0], "bar date"),
        open=number(row[1], "open"),
        close=number(row[2], "close"),
        high=number(row[3], "high"),
        low=number(row[4], "low"),
        prev_close=None,
        volume=volume * A_SHARE_LOT if volume_in_lots(inst) else volume,
        amount=amount * 10_000 if amount is not None and inst.market == "CN" else amount,
        source=SOURCE,
        turnover_pct=turnover,
    )
    return check_bar_shape(bar)


def windows(start: date, end: date, days: int = PAGE_DAYS) -> Iterator[tuple[date, date]]:
    """Consecutive [from, to] windows covering start..end."""
    while start <= end:
        stop = min(end, start + timedelta(days=days - 1))
        yield start, stop
        start = stop + timedelta(days=1)


class TencentProvider(ProviderBase):
    """Tencent quotes (A, HK, US) and unadjusted daily bars (A, HK)."""

    name: ClassVar[str] = SOURCE
    kinds: ClassVar[frozenset[DataKind]] = frozenset({"quote", "bars"})

    def __init__(self, http: HttpClient, endpoints: TencentEndpoints | None = None) -> None:
        super().__init__(http)
        self.endpoints = endpoints or TencentEndpoints()

    def quotes(self, symbols: Sequence[str]) -> list[Quote]:
        wanted = {tencent_code(inst): inst for inst in map(instrument, symbols)}
        target = self.target("quote", ",".join(symbols))
        url = self.endpoints.quote + ",".join(wanted)
        text = self.http.get_text(target, url, encoding="gbk")
        return self.parsed(target, url, lambda: parse_quotes(text, wanted))

    def daily_bars(self, symbol: str, start: date, end: date) -> list[Bar]:
        inst = instrument(symbol)
        if inst.market not in {"CN", "HK"}:
            raise self.unsupported("bars", symbol, "tencent daily bars cover A-shares and Hong Kong only")
        target, code = self.target("bars", symbol), tencent_code(inst)
        url = self.endpoints.kline if inst.market == "CN" else self.endpoints.hk_kline
        return self._bars_from(target, url, inst, code=code, start=start, end=end)

    def _bars_from(self, target: Target, url: str, inst: Instrument, *, code: str, start: date, end: date) -> list[Bar]:
        bars: list[Bar] = []
        for first, last in windows(start, end):
            params = {"param": f"{code},day,{first.isoformat()},{last.isoformat()},{PAGE_LIMIT},"}
            text = self.http.get_text(target, url, params=params)
            page = self.parsed(target, url, functools.partial(parse_kline_text, text, inst, code))
            bars.extend(bar for bar in page if first <= bar.day <= last)
        if not bars:
            raise target.failure("empty", f"no bars from {start} to {end}", url=url)
        return unique_by_day(bars)
