"""The provider port: every adapter satisfies it, refuses what it does not offer, and parses fields strictly."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import date, datetime
from decimal import Decimal

import httpx
import pytest

from stockbench.clock import MARKET_TZ
from stockbench.data.http import FetchError, HttpClient
from stockbench.data.providers import Provider, default_providers
from stockbench.data.providers.base import PayloadError, check_quote, check_unadjusted, optional_number, whole
from stockbench.data.records import Announcement, Bar, DataKind, Quote
from stockbench.market.instruments import parse_symbol

CALLS: dict[DataKind, tuple[str, tuple[object, ...]]] = {
    "quote": ("quotes", (["600000.SH"],)),
    "bars": ("daily_bars", ("600000.SH", date(2024, 1, 1), date(2024, 1, 31))),
    "money_flow": ("money_flow", ("600000.SH",)),
    "valuation": ("valuation_history", ("600000.SH",)),
    "financials": ("financials", ("600000.SH",)),
}


def test_every_adapter_is_a_provider_with_its_kinds(offline: HttpClient) -> None:
    providers = default_providers(offline)
    assert set(providers) == {"tencent", "sina", "eastmoney", "cninfo"}
    assert all(isinstance(provider, Provider) for provider in providers.values())
    assert providers["eastmoney"].kinds == {"bars", "quote", "money_flow", "valuation", "financials"}
    assert providers["cninfo"].kinds == {"announcements"}


@pytest.fixture(scope="module")
def offline() -> Iterator[HttpClient]:
    """A client whose transport fails the test on any request: the default endpoints are real hosts."""

    def refuse(request: httpx.Request) -> httpx.Response:
        raise AssertionError(f"unexpected request to {request.url}")

    client = HttpClient(transport=httpx.MockTransport(refuse), trust_env=False)
    yield client
    client.close()


@pytest.mark.parametrize("name", ["tencent", "sina", "eastmoney", "cninfo"])
def test_kinds_a_provider_lacks_raise_unsupported_without_a_request(offline: HttpClient, name: str) -> None:
    provider = default_providers(offline)[name]
    for kind, (method, args) in CALLS.items():
        if provider.supports(kind):
            continue
        with pytest.raises(FetchError) as caught:
            getattr(provider, method)(*args)
        assert (caught.value.failure.kind, caught.value.failure.what, caught.value.failure.source) == (
            "unsupported",
            kind,
            name,
        )
    if not provider.supports("announcements"):
        published = datetime(2024, 1, 2, tzinfo=MARKET_TZ["CN"])
        note = Announcement("600000.SH", "1", published, "t", "", "https://example.invalid/a.pdf", name)
        with pytest.raises(FetchError) as caught:
            provider.announcement_text(note)
        assert caught.value.failure.kind == "unsupported"


def test_missing_markers_are_none_and_garbage_is_refused() -> None:
    assert [optional_number(v, "x") for v in ("", "-", "--", None, "12.30", 5)] == [
        None,
        None,
        None,
        None,
        Decimal("12.30"),
        Decimal(5),
    ]
    with pytest.raises(PayloadError, match="not a number"):
        optional_number("12,30", "price")
    with pytest.raises(PayloadError, match="finite"):
        optional_number("NaN", "price")
    with pytest.raises(PayloadError, match="whole"):
        whole(Decimal("100.5"), "volume")


def bar(symbol: str, amount: str) -> Bar:
    return Bar(
        symbol, date(2024, 6, 28), Decimal(10), Decimal(11), Decimal(9), Decimal(10), None, 1000, Decimal(amount), "t"
    )


def test_the_unadjusted_check_uses_the_average_price() -> None:
    assert check_unadjusted(bar("600000.SH", "10000"), parse_symbol("600000.SH"))
    assert check_unadjusted(bar("600000.SH", "11200"), parse_symbol("600000.SH"))  # within the 2% slack
    with pytest.raises(PayloadError, match="adjusted"):
        check_unadjusted(bar("600000.SH", "11500"), parse_symbol("600000.SH"))
    with pytest.raises(PayloadError, match="adjusted"):
        check_unadjusted(bar("000001.SZ", "100"), parse_symbol("000001.SZ"))  # volume 100 times too large
    assert check_unadjusted(bar("00700.HK", "100"), parse_symbol("00700.HK"))  # HK totals are not checked
    assert check_unadjusted(bar("000001.SH", "100"), parse_symbol("000001.SH"))  # nor index totals


# ---- the one sanity rule of every quote ----


def cn_quote(**changes: object) -> Quote:
    base = Quote(
        "600000.SH",
        datetime(2026, 9, 30, 15, tzinfo=MARKET_TZ["CN"]),
        Decimal("10.10"),
        Decimal("10.00"),
        Decimal("10.00"),
        Decimal("10.20"),
        Decimal("9.95"),
        1_000_000,
        Decimal("10100000"),
        "tencent",
    )
    return replace(base, **changes)  # type: ignore[arg-type]


PUFA = parse_symbol("600000.SH")


def test_a_consistent_quote_passes_unchanged() -> None:
    quote = cn_quote()
    assert check_quote(quote, PUFA) is quote


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"open": Decimal(0), "high": Decimal(0), "low": Decimal(0)}, "open/high/low 0"),
        ({"low": Decimal(0)}, "low 0"),
        ({"last": Decimal("1010"), "high": Decimal("1010")}, "outside 0.01x-100x"),
        ({"low": Decimal("0.09")}, "outside 0.01x-100x"),
        ({"amount": Decimal("10100")}, "decimals were not applied"),  # amount 1000x too small
        ({"prev_close": Decimal(0)}, "previous close 0"),
        ({"last": Decimal(0)}, "no last price"),
    ],
    ids=["zero-ohlc", "zero-low", "last-100x", "low-0.009x", "average-1000x", "no-prev-close", "no-last"],
)
def test_a_quote_whose_numbers_cannot_be_right_is_refused(changes: dict[str, object], reason: str) -> None:
    with pytest.raises(PayloadError) as caught:
        check_quote(cn_quote(**changes), PUFA)
    assert reason in caught.value.reason


def test_a_suspended_quote_keeps_its_close_and_has_no_session() -> None:
    halted = cn_quote(
        last=Decimal("10.00"), open=Decimal(0), high=Decimal(0), low=Decimal(0), volume=0, status="suspended"
    )
    found = check_quote(halted, PUFA)
    assert (found.open, found.high, found.low, found.last, found.status) == (
        None,
        None,
        None,
        Decimal("10.00"),
        "suspended",
    )


def test_an_index_is_not_held_to_the_average_price() -> None:
    index = parse_symbol("000001.SH")
    quote = replace(cn_quote(), symbol=index.symbol, amount=Decimal("10"))  # an index's amount / volume means nothing
    assert check_quote(quote, index) is quote
