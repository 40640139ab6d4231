"""Drafts of the demo companies' event notices: major-holder share reductions (plan and result), risk
warnings and limit changes, suspensions and resumptions, and listing notices.

Limit percentages and no-limit session counts quoted in a notice come from the rule tables for the
notice's dates; reduction results quote the prices the stock actually traded at in the sale window.
"""

from __future__ import annotations

import bisect
from datetime import date
from decimal import ROUND_HALF_UP, Decimal

from stockbench.data.demo.filings import Company, Draft, Fields
from stockbench.data.demo.streams import stream
from stockbench.data.demo.texts import date_cn
from stockbench.market.instruments import Board
from stockbench.market.limits import limit_pct

REDUCTION_WAIT = 15  # sessions after the plan before a sale may start
REDUCTION_WINDOW = 60  # sessions of the sale window (about three months)
SECOND_PLAN_CHANCE = 0.4
LOCK_UP = 250  # sessions after listing before pre-listing holders may sell
LIMIT_NOTICE_LEAD = 5  # sessions between a limit-change notice and the change
CENT = Decimal("0.01")


def _pct_text(value: Decimal) -> str:
    return f"{(value * 100).normalize():f}"


def _window_prices(company: Company, start: date, end: date) -> tuple[Decimal, Decimal, Decimal] | None:
    path = company.path
    first, last = bisect.bisect_left(path.days, start), bisect.bisect_right(path.days, end)
    if first >= last:
        return None
    closes = [Decimal(c) * path.unit for c in path.close[first:last]]
    average = (sum(closes, Decimal(0)) / len(closes)).quantize(CENT, ROUND_HALF_UP)
    return average, min(path.low[first:last]) * path.unit, max(path.high[first:last]) * path.unit


def _reduction(company: Company, plan_day: date, holder: str, picks: list[float]) -> list[Draft]:
    sessions = company.schedule.sessions
    at = sessions.index(plan_day)
    start, end = sessions[at + REDUCTION_WAIT], sessions[at + REDUCTION_WAIT + REDUCTION_WINDOW]
    total = company.accounts.shares_on(plan_day)
    held_pct = Decimal(repr(round(5.2 + 4.5 * picks[0], 2)))
    held = int(total * held_pct / 100) // 100 * 100
    cap = total * 3 // 100
    fields: Fields = {
        "holder": holder,
        "holder_shares": f"{held:,}",
        "holder_pct": f"{held_pct}",
        "auction_shares": f"{total // 100:,}",
        "block_shares": f"{total * 2 // 100:,}",
        "total_shares_cap": f"{cap:,}",
        "window_start": date_cn(start),
        "window_end": date_cn(end),
    }
    drafts = [Draft(plan_day, "reduction_plan", dict(fields))]
    prices = _window_prices(company, start, end)
    result_day = company.later(end, 1)
    if prices is None or result_day is None:
        return drafts
    sold = min(int(cap * (0.4 + 0.6 * picks[1])) // 100 * 100, held - 100)
    remaining = held - sold
    fields |= {
        "plan_date_cn": date_cn(plan_day),
        "average_price": f"{prices[0]}",
        "low_price": f"{prices[1]}",
        "high_price": f"{prices[2]}",
        "sold_shares": f"{sold:,}",
        "sold_pct": f"{sold / total * 100:.2f}",
        "remaining_shares": f"{remaining:,}",
        "remaining_pct": f"{remaining / total * 100:.2f}",
    }
    return [*drafts, Draft(result_day, "reduction_result", fields)]


def reduction_drafts(company: Company) -> list[Draft]:
    """Share-reduction plans of holders above 5% (one or two per A-share company) and their results."""
    if company.hk:
        return []
    rng = stream(company.seed.number, company.schedule.stock.symbol, "reductions")
    sessions = company.schedule.sessions
    first = LOCK_UP if company.schedule.new_listing else 0
    last = len(sessions) - REDUCTION_WAIT - REDUCTION_WINDOW - 2
    if last - first < 100:
        return []
    holders = list(company.templates.words("people", "holders"))
    count = 1 + int(rng.random() < SECOND_PLAN_CHANCE)
    span = (last - first) // count
    drafts = []
    for i in range(count):
        at = first + i * span + int(rng.integers(0, max(span - REDUCTION_WAIT - REDUCTION_WINDOW, 1)))
        holder = holders[int(rng.integers(len(holders)))]
        drafts.extend(_reduction(company, sessions[at], holder, rng.random(2).tolist()))
    return drafts


def risk_drafts(company: Company) -> list[Draft]:
    """Risk-warning notices (published with the annual report, the session before the one-day halt)."""
    stock = company.schedule.stock
    drafts = []
    for change in stock.names:
        if change.halt is None:
            continue
        old = company.schedule.name_on(change.halt)
        lifted = old.startswith("*ST") and change.kind == "other_risk"
        if lifted:
            action, detail = (
                "撤销退市风险警示并继续被实施其他风险警示",
                "公司股票撤销退市风险警示并继续被实施其他风险警示",
            )
        elif change.kind == "delisting_risk":
            action, detail = "被实施退市风险警示", "公司股票将被实施退市风险警示"
        else:
            action, detail = "被实施其他风险警示", "公司股票将被实施其他风险警示"
        fiscal = change.halt.year - 1
        found = limit_pct(stock.instrument, change.start, st=True, tables=company.limits.tables)
        fields: Fields = {
            "action": action,
            "action_detail": detail,
            "old_name": old,
            "new_name": change.name,
            "halt_date": date_cn(change.halt),
            "start_date": date_cn(change.start),
            "pct": _pct_text(found[0]) if found else "—",
            "reason": _risk_reason(company, change.kind, lifted, fiscal),
        }
        published = company.later(change.halt, -1)
        if published is not None:
            drafts.append(Draft(published, "risk_warning", fields))
    return drafts


def _risk_reason(company: Company, kind: str, lifted: bool, fiscal: int) -> str:
    auditor = company.people["auditor"]
    exchange = company.templates.words("exchanges", company.schedule.stock.instrument.exchange.value)
    rules = f"根据《{exchange}股票上市规则》的相关规定"
    if kind == "delisting_risk":
        return (
            f"公司{fiscal}年度财务会计报告被{auditor}出具无法表示意见的审计报告，{rules}，"
            "公司股票将被实施退市风险警示。"
        )
    internal = f"公司{fiscal}年度内部控制被{auditor}出具否定意见的审计报告"
    if lifted:
        return (
            f"公司{fiscal}年度财务会计报告被出具标准无保留意见的审计报告，退市风险警示情形已消除；"
            f"但{internal}，{rules}，公司股票继续被实施其他风险警示。"
        )
    return f"{internal}，{rules}，公司股票将被实施其他风险警示。"


def limit_change_drafts(company: Company) -> list[Draft]:
    """Reminders that a risk-warned stock's daily limit changes (when the rule tables change it)."""
    stock = company.schedule.stock
    drafts = []
    before: int | None = None
    sessions = company.schedule.sessions
    for day, st in zip(sessions, company.schedule.st_on(sessions), strict=True):
        if not st:
            before = None
            continue
        bp = company.limits.bp(stock.instrument, day, True)
        if before is not None and bp is not None and bp != before:
            notice = company.later(day, -LIMIT_NOTICE_LEAD)
            if notice is not None:
                fields: Fields = {
                    "effective_cn": date_cn(day),
                    "old_pct": _pct_text(Decimal(before) / 10_000),
                    "new_pct": _pct_text(Decimal(bp) / 10_000),
                }
                drafts.append(Draft(notice, "limit_rule", fields))
        before = bp
    return drafts


def halt_drafts(company: Company) -> list[Draft]:
    """Suspension and resumption notices of each announced halt (risk-warning halts have their own)."""
    drafts = []
    for halt in company.schedule.halts:
        if halt.reason == "risk_warning":
            continue
        resume = company.later(halt.end, 1)
        fields: Fields = {
            "start_date": date_cn(halt.start),
            "sessions": len(halt.days) + 5,
            "resume_date": date_cn(resume) if resume else "—",
        }
        if company.hk:
            drafts += [Draft(halt.start, "hk_halt", fields), Draft(halt.end, "hk_resume", dict(fields))]
            continue
        announced = company.later(halt.start, -1)
        if announced is not None:
            drafts.append(Draft(announced, "suspension", fields))
        drafts.append(Draft(halt.end, "resumption", dict(fields)))
    return drafts


def listing_drafts(company: Company) -> list[Draft]:
    """The listing notice of an A-share listing inside the demo period, quoting its no-limit sessions."""
    schedule = company.schedule
    stock = schedule.stock
    if not schedule.new_listing or company.hk:
        return []
    day = company.later(stock.list_date, -1)
    if day is None:
        return []
    board = str(company.templates.words("boards", stock.instrument.board.value))
    after = company.later(stock.list_date, schedule.free_sessions) or stock.list_date
    found = limit_pct(stock.instrument, after, tables=company.limits.tables)
    pct = _pct_text(found[0]) if found else "—"
    free = schedule.free_sessions
    if free > 1:
        free_text = (
            f"本次发行的股票上市首日起前{free}个交易日不设价格涨跌幅限制，{free}个交易日后，涨跌幅限制比例为{pct}%。"
        )
    else:
        free_text = f"本次发行的股票上市首日不设价格涨跌幅限制，次一交易日起涨跌幅限制比例为{pct}%。"
    fields: Fields = {
        "board": board,
        "board_place": "" if stock.instrument.board is Board.BSE else board,
        "list_date": date_cn(stock.list_date),
        "shares": f"{stock.shares:,}",
        "price": f"{stock.price}",
        "free_text": free_text,
    }
    return [Draft(day, "listing", fields)]
