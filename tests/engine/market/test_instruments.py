from __future__ import annotations

import pytest

from stockbench.errors import InvalidInput
from stockbench.market.instruments import Board, Exchange, SecurityType, canonical, identify, parse_symbol


@pytest.mark.parametrize(
    ("text", "symbol"),
    [
        ("600519", "600519.SH"),
        ("sh600519", "600519.SH"),
        ("SH600519", "600519.SH"),
        ("600519.SS", "600519.SH"),
        ("600519.sh", "600519.SH"),
        (" 600519 ", "600519.SH"),
        ("000001.SZ", "000001.SZ"),
        ("920118.BJ", "920118.BJ"),
        ("bj430047", "430047.BJ"),
        ("0700.HK", "00700.HK"),
        ("hk00700", "00700.HK"),
        ("700", "00700.HK"),
        ("00700", "00700.HK"),
        ("9988", "09988.HK"),
        ("AAPL.US", "AAPL.US"),
        ("usAAPL", "AAPL.US"),
        ("aapl", "AAPL.US"),
        ("BRK.B.US", "BRK.B.US"),
    ],
)
def test_every_accepted_form_normalises(text: str, symbol: str) -> None:
    assert canonical(text) == symbol


@pytest.mark.parametrize(
    ("symbol", "exchange", "board", "kind", "currency"),
    [
        ("600519", Exchange.SH, Board.MAIN, SecurityType.STOCK, "CNY"),
        ("601318", Exchange.SH, Board.MAIN, SecurityType.STOCK, "CNY"),
        ("603288", Exchange.SH, Board.MAIN, SecurityType.STOCK, "CNY"),
        ("605499", Exchange.SH, Board.MAIN, SecurityType.STOCK, "CNY"),
        ("688981", Exchange.SH, Board.STAR, SecurityType.STOCK, "CNY"),
        ("689009", Exchange.SH, Board.STAR, SecurityType.STOCK, "CNY"),
        ("510300", Exchange.SH, Board.MAIN, SecurityType.FUND, "CNY"),
        ("000001.SH", Exchange.SH, Board.MAIN, SecurityType.INDEX, "CNY"),
        ("000300.SH", Exchange.SH, Board.MAIN, SecurityType.INDEX, "CNY"),
        ("000002", Exchange.SZ, Board.MAIN, SecurityType.STOCK, "CNY"),
        ("002594", Exchange.SZ, Board.MAIN, SecurityType.STOCK, "CNY"),
        ("003816", Exchange.SZ, Board.MAIN, SecurityType.STOCK, "CNY"),
        ("300750", Exchange.SZ, Board.CHINEXT, SecurityType.STOCK, "CNY"),
        ("301269", Exchange.SZ, Board.CHINEXT, SecurityType.STOCK, "CNY"),
        ("159915", Exchange.SZ, Board.MAIN, SecurityType.FUND, "CNY"),
        ("161725", Exchange.SZ, Board.MAIN, SecurityType.FUND, "CNY"),
        ("399001", Exchange.SZ, Board.MAIN, SecurityType.INDEX, "CNY"),
        ("920118", Exchange.BJ, Board.BSE, SecurityType.STOCK, "CNY"),
        ("832278", Exchange.BJ, Board.BSE, SecurityType.STOCK, "CNY"),
        ("871981", Exchange.BJ, Board.BSE, SecurityType.STOCK, "CNY"),
        ("00700.HK", Exchange.HK, Board.HK_MAIN, SecurityType.STOCK, "HKD"),
        ("08083.HK", Exchange.HK, Board.HK_GEM, SecurityType.STOCK, "HKD"),
        ("HSI", Exchange.HK, Board.HK_MAIN, SecurityType.INDEX, "HKD"),
        ("AAPL", Exchange.US, Board.US, SecurityType.STOCK, "USD"),
    ],
)
def test_exchange_board_type_and_currency(
    symbol: str, exchange: Exchange, board: Board, kind: SecurityType, currency: str
) -> None:
    instrument = parse_symbol(symbol)
    assert (instrument.exchange, instrument.board, instrument.security_type) == (exchange, board, kind)
    assert instrument.currency == currency


def test_the_ambiguous_index_code_resolves_to_the_stock_and_says_so() -> None:
    found = identify("000001")
    assert found.instrument.symbol == "000001.SZ"
    assert found.instrument.security_type is SecurityType.STOCK
    assert "000001.SH" in found.note and "index" in found.note
    assert identify("000001.SH").instrument.security_type is SecurityType.INDEX
    assert identify("600519").note == ""


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("60051", "'60051' is not a valid A-share code: 6 digits expected"),
        ("6005190", "'6005190' is not a valid A-share code: 6 digits expected"),
        ("60051.SH", "'60051.SH' is not a valid A-share code: 6 digits expected"),
        ("sh60051x", "'sh60051x' is not a valid A-share code: 6 digits expected"),
        ("900901", "'900901' is a B-share code; B shares are not supported"),
        ("200002", "'200002' is a B-share code; B shares are not supported"),
        ("700000", "'700000' is not a known A-share code prefix"),
        ("123456.HK", "'123456.HK' is not a valid Hong Kong code: 1 to 5 digits expected"),
        ("0.HK", "'0.HK' is not a valid Hong Kong code: 1 to 5 digits expected"),
        ("300750.SH", "'300750.SH' is not a Shanghai stock, fund or index code"),
        ("600519.SZ", "'600519.SZ' is not a Shenzhen stock, fund or index code"),
        ("600519.BJ", "'600519.BJ' is not a Beijing Stock Exchange code"),
        ("", "an empty symbol was given"),
        ("$$$", "'$$$' is not a symbol this program understands"),
    ],
)
def test_malformed_input_gets_a_specific_error(text: str, message: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        identify(text)
    assert caught.value.message == message
    assert caught.value.hint


def test_hk_hint_for_a_five_digit_code() -> None:
    with pytest.raises(InvalidInput) as caught:
        identify("60051")
    assert "60051.HK" in caught.value.hint


@pytest.mark.parametrize(
    ("name", "status"),
    [
        ("贵州茅台", "normal"),
        ("ST地矿", "st"),
        ("*ST康美", "st"),
        ("XDST罗顿", "st"),
        ("XR*ST康得", "st"),
        ("DR贵州茅台", "normal"),
        ("S佳通", "unreformed"),
        ("SST佳通", "unreformed"),
        ("S*ST前锋", "unreformed"),
        ("SUMEC", "normal"),
    ],
)
def test_limit_status_from_names(name: str, status: str) -> None:
    from stockbench.market.registry import limit_status

    assert limit_status(name) == status
