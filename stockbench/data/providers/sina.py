"""Sina: quotes for A-shares and Hong Kong (hq.sinajs.cn) and daily money flow for A-shares (MoneyFlow API).

Quote answer, GBK (UTF-8 seen in 2026-09; the HTTP layer tells them apart), one `var hq_str_CODE="f0,f1,...";`
line per code; the Referer header https://finance.sina.com.cn/ is required: without it the answer is HTTP 403 or
an HTTP 200 body "Kinsoku jikou desu!" (a refusal, kind "blocked"). A-share fields: 0 name, 1 open, 2 previous
close, 3 last, 4 high, 5 low, 8 volume (stocks: shares; indices: lots), 9 amount (yuan), 30 date, 31 time,
32 status ("00" trading; "01"-"09" a halt of some length, read as suspended, as Sina's own page script does).
Hong Kong (`rt_hk` codes): 0 English name, 1 name, 2 open, 3 previous close, 4 high, 5 low, 6 last,
11 amount (HKD), 12 volume (shares), 17 date (YYYY/MM/DD), 18 time. An unknown code comes back as `=""`.

Money flow (`MoneyFlow.ssl_qsfx_zjlrqs?daima=sh600519`): a JSON list, newest first, of objects with opendate,
trade (close), changeratio, turnover, netamount and ratioamount (the net inflow of all orders, 净流入, and its
ratio), r0_net and r0_ratio (the main-force net inflow, 主力净流入, yuan, and its ratio), r0x_ratio (主力罗盘),
cnt_r0x_ratio, cate_ra and cate_na (the industry's). main_net is r0_net, as go-stock reads it (its money-trend
chart plots netamount as the day's net inflow and r0_net as the main force's). The order-size nets (super-large,
large, medium, small: r0_net..r3_net of ssl_qsfx_lscjfb, another endpoint) are not in these answers: they stay None.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, ClassVar

from stockbench.clock import MARKET_TZ
from stockbench.data.http import HttpClient
from stockbench.data.providers.base import (
    A_SHARE_LOT,
    PayloadError,
    ProviderBase,
    check_quote,
    day,
    instrument,
    is_a_share_stock,
    moment,
    number,
    optional_number,
    whole,
)
from stockbench.data.records import DataKind, MoneyFlowDay, Quote, TradingStatus
from stockbench.market.instruments import Instrument, SecurityType

SOURCE = "sina"
REFERER = {"Referer": "https://finance.sina.com.cn/"}
FLOW_ROWS = 500  # about two years of sessions in one page, newest first
_LINE = re.compile(r'var hq_str_([A-Za-z0-9_.]+)="([^"]*)"')
REFUSAL = "Kinsoku jikou desu"  # Sina's body (HTTP 200) for a request without its Referer
_HALT_CODES = frozenset(f"0{n}" for n in range(1, 10))


@dataclass(frozen=True, slots=True)
class SinaEndpoints:
    quote: str = "https://hq.sinajs.cn/list="
    money_flow: str = "https://vip.stock.finance.sina.com.cn/quotes_service/api/json_v2.php/MoneyFlow.ssl_qsfx_zjlrqs"

    @classmethod
    def at(cls, base: str) -> SinaEndpoints:
        """The same paths on another base URL (the local replay server in tests)."""
        base = base.rstrip("/")
        return cls(f"{base}/list=", f"{base}/quotes_service/api/json_v2.php/MoneyFlow.ssl_qsfx_zjlrqs")


def sina_code(inst: Instrument) -> str:
    """sh600519, sz000001, bj920118, rt_hk00700."""
    if inst.market == "HK":
        return f"rt_hk{inst.code}"
    if inst.market != "CN":
        raise PayloadError(f"sina quotes cover A-shares and Hong Kong, not {inst.symbol}", "unsupported")
    return inst.exchange.value.lower() + inst.code


def parse_quotes(text: str, wanted: dict[str, Instrument]) -> list[Quote]:
    """Quotes for `wanted` (Sina code -> instrument), in its order; an unanswered or empty code fails them all."""
    lines = dict(_LINE.findall(text))
    if not lines and REFUSAL in text[:200]:
        raise PayloadError("Sina refused the request ('Kinsoku jikou desu!'): blocked, check the Referer", "blocked")
    if not lines:
        raise PayloadError("no quote lines in the answer")
    unknown = [code for code in wanted if code in lines and not lines[code]]
    if unknown:
        raise PayloadError(f"unknown code {', '.join(unknown)} (empty quote line)", "unknown_symbol")
    missing = [code for code in wanted if code not in lines]
    if missing:
        raise PayloadError(f"no quote line for {', '.join(missing)}")
    return [parse_quote_line(lines[code], inst) for code, inst in wanted.items()]


def parse_quote_line(line: str, inst: Instrument) -> Quote:
    """One quote line's fields (without the `var hq_str_CODE="` wrapper)."""
    f = line.split(",")
    return _hk_quote(f, inst) if inst.market == "HK" else _a_quote(f, inst)


def _a_quote(f: list[str], inst: Instrument) -> Quote:
    if len(f) < 32:
        raise PayloadError(f"{len(f)} fields for {inst.symbol}, expected at least 32")
    volume = whole(number(f[8], "volume (field 8)"), "volume (field 8)")
    index = inst.security_type is SecurityType.INDEX
    status: TradingStatus = "suspended" if len(f) > 32 and f[32].strip() in _HALT_CODES else "trading"
    last = number(f[3], "last (field 3)")
    if status != "trading" and last <= 0:  # a halted line may give 0 as its price: the last price is the close
        last = number(f[2], "previous close (field 2)")
    quote = Quote(
        symbol=inst.symbol,
        at=moment(f"{f[30]} {f[31]}", ("%Y-%m-%d %H:%M:%S",), MARKET_TZ["CN"], "quote time (fields 30-31)"),
        last=_traded(last),
        prev_close=number(f[2], "previous close (field 2)"),
        open=optional_number(f[1], "open (field 1)"),
        high=optional_number(f[4], "high (field 4)"),
        low=optional_number(f[5], "low (field 5)"),
        volume=volume * A_SHARE_LOT if index else volume,
        amount=optional_number(f[9], "amount (field 9)"),
        source=SOURCE,
        name=f[0] or None,
        currency="CNY",
        status=status,
    )
    return check_quote(quote, inst)


def _hk_quote(f: list[str], inst: Instrument) -> Quote:
    if len(f) < 19:
        raise PayloadError(f"{len(f)} fields for {inst.symbol}, expected at least 19")
    stock = inst.security_type is not SecurityType.INDEX
    volume = optional_number(f[12], "volume (field 12)")
    quote = Quote(
        symbol=inst.symbol,
        at=moment(f"{f[17]} {f[18]}", ("%Y/%m/%d %H:%M:%S", "%Y/%m/%d %H:%M"), MARKET_TZ["HK"], "quote time"),
        last=_traded(number(f[6], "last (field 6)")),
        prev_close=number(f[3], "previous close (field 3)"),
        open=optional_number(f[2], "open (field 2)"),
        high=optional_number(f[4], "high (field 4)"),
        low=optional_number(f[5], "low (field 5)"),
        volume=whole(volume, "volume (field 12)") if stock and volume is not None else None,
        amount=optional_number(f[11], "amount (field 11)") if stock else None,
        source=SOURCE,
        name=f[1] or None,
        currency="HKD",
    )
    return check_quote(quote, inst)


def _traded(last: Decimal) -> Decimal:
    if last <= 0:
        raise PayloadError("no last price (0): not traded yet today or suspended", "empty")
    return last


def parse_money_flow(payload: Any, inst: Instrument) -> list[MoneyFlowDay]:
    """Money-flow days, oldest first."""
    if payload is None:
        raise PayloadError("the service answered null (no money flow for this code)", "empty")
    if not isinstance(payload, list):
        raise PayloadError(f"expected a list of days, got {type(payload).__name__}")
    if not payload:
        raise PayloadError("no money-flow days in the answer", "empty")
    days = [_flow_day(row, inst) for row in payload]
    return sorted({item.day: item for item in days}.values(), key=lambda item: item.day)


def _flow_day(row: Any, inst: Instrument) -> MoneyFlowDay:
    if not isinstance(row, dict):
        raise PayloadError("a money-flow row is not an object")
    return MoneyFlowDay(
        symbol=inst.symbol,
        day=day(row.get("opendate"), "opendate"),
        main_net=number(row.get("r0_net"), "main net (r0_net)"),
        small_net=None,
        medium_net=None,
        large_net=None,
        super_large_net=None,
        source=SOURCE,
    )


class SinaProvider(ProviderBase):
    """Sina quotes (A, HK) and A-share money flow."""

    name: ClassVar[str] = SOURCE
    kinds: ClassVar[frozenset[DataKind]] = frozenset({"quote", "money_flow"})

    def __init__(self, http: HttpClient, endpoints: SinaEndpoints | None = None) -> None:
        super().__init__(http)
        self.endpoints = endpoints or SinaEndpoints()

    def quotes(self, symbols: Sequence[str]) -> list[Quote]:
        target = self.target("quote", ",".join(symbols))
        instruments = [instrument(symbol) for symbol in symbols]
        wanted = self.parsed(target, "", lambda: {sina_code(inst): inst for inst in instruments})
        url = self.endpoints.quote + ",".join(wanted)
        text = self.http.get_text(target, url, headers=REFERER, encoding="gbk")
        return self.parsed(target, url, lambda: parse_quotes(text, wanted))

    def money_flow(self, symbol: str) -> list[MoneyFlowDay]:
        inst = instrument(symbol)
        if not is_a_share_stock(inst):
            raise self.unsupported("money_flow", symbol, "sina money flow covers A-share stocks only")
        target, url = self.target("money_flow", symbol), self.endpoints.money_flow
        params = {"page": "1", "num": str(FLOW_ROWS), "sort": "opendate", "asc": "0", "daima": sina_code(inst)}
        payload = self.http.get_json(target, url, params=params, headers=REFERER, encoding="gbk")
        return self.parsed(target, url, lambda: parse_money_flow(payload, inst))
