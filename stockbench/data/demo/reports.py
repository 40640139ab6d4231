"""Drafts of the demo companies' periodic reports, earnings preannouncements and dividend notices.

A-share companies must preannounce a year's results when the profit turns negative, turns positive or
moves 50% or more (the exchanges' 业绩预告 rule); others may volunteer. Hong Kong companies issue a
profit alert on a move of 30% or more (inside information).
"""

from __future__ import annotations

from datetime import date

from stockbench.data.demo.accounts import Accounts, Dividend, Statement
from stockbench.data.demo.filings import Company, Draft, Fields
from stockbench.data.demo.streams import stream
from stockbench.data.demo.texts import change, date_cn, pct, wan, yi, yoy, yuan

QUARTER_CN = {1: "第一季度", 3: "第三季度"}
HK_SPAN = {1: "三个月", 2: "六个月", 3: "九个月", 4: "年度"}
HK_ALERT_MOVE = 0.3  # a yearly profit change that calls for a Hong Kong profit alert
VOLUNTARY_SHARE = 0.5  # share of years a company preannounces without having to
ALERT_LEAD = 12  # sessions between a Hong Kong profit alert and the annual results
MEETING_LEAD = 10  # sessions between a Hong Kong board meeting notice and the meeting


def preannouncement_kind(current: float, before: float) -> tuple[str, str, int]:
    """(kind, the rule that requires it or '' when voluntary, direction of the news)."""
    if current < 0:
        return ("续亏" if before < 0 else "首亏"), "净利润为负值", -1
    if before <= 0:
        return "扭亏", "实现扭亏为盈", 1
    growth = current / before - 1
    if growth >= 0.5:
        return "预增", "净利润与上年同期相比上升50%以上", 1
    if growth <= -0.5:
        return "预减", "净利润与上年同期相比下降50%以上", -1
    return ("略增" if growth >= 0 else "略减"), "", 0


def news_days(accounts: Accounts) -> dict[date, int]:
    """Required preannouncements (large news) by day, with the direction the price takes the next session."""
    news: dict[date, int] = {}
    for year, day in accounts.preannounced.items():
        now, before = accounts.annual(year), accounts.annual(year - 1)
        if now is not None and before is not None:
            kind = preannouncement_kind(now.values["net_profit_parent"], before.values["net_profit_parent"])
            if kind[2]:
                news[day] = kind[2]
    return news


def _reason(company: Company, current: float, before: float | None, salt: int) -> str:
    if current < 0:
        pool = "loss"
    elif before is not None and before <= 0:
        pool = "turnaround"
    else:
        pool = "down" if before is not None and current < before else "up"
    options = company.templates.words("reasons", pool)
    return str(options[(salt + int(company.schedule.stock.instrument.code[-2:])) % len(options)])


def _dividend_plan(company: Company, fiscal_year: int) -> str:
    found = _dividend(company.accounts, fiscal_year)
    if found is None:
        return f"公司{fiscal_year}年度拟不进行利润分配，也不进行资本公积金转增股本。"
    plan = f"以实施权益分派股权登记日登记的总股本为基数，向全体股东每10股派发现金红利{found.cash_per10}元（含税）"
    if found.bonus_per10:
        plan += f"，以资本公积金向全体股东每10股转增{found.bonus_per10.normalize():f}股"
    return plan + "。"


def _dividend(accounts: Accounts, fiscal_year: int) -> Dividend | None:
    return next((d for d in accounts.dividends if d.fiscal_year == fiscal_year), None)


def _figures(now: Statement, before: Statement | None) -> Fields:
    v, b = now.values, (before.values if before else {})
    np_before = b.get("net_profit_parent")
    return {
        "year": now.period_end.year,
        "revenue": yuan(v["revenue"]),
        "revenue_prev": yuan(b.get("revenue")),
        "revenue_yoy": yoy(v["revenue"], b.get("revenue")),
        "revenue_yi": yi(v["revenue"]),
        "revenue_change": change(v["revenue"], b.get("revenue")),
        "np": yuan(v["net_profit_parent"]),
        "np_prev": yuan(np_before),
        "np_yoy": yoy(v["net_profit_parent"], np_before),
        "np_yi": yi(v["net_profit_parent"]),
        "np_change": change(v["net_profit_parent"], np_before),
        "npd": yuan(v["net_profit_parent_deducted"]),
        "npd_prev": yuan(b.get("net_profit_parent_deducted")),
        "ocf": yuan(v["operating_cash_flow"]),
        "ocf_prev": yuan(b.get("operating_cash_flow")),
        "eps": f"{v['eps_basic']:.4f}",
        "eps_prev": f"{b['eps_basic']:.4f}" if b else "—",
        "roe": pct(v.get("roe")),
        "roe_prev": pct(b.get("roe")),
        "assets": yuan(v["total_assets"]),
        "assets_prev": yuan(b.get("total_assets")),
        "equity": yuan(v["equity_parent"]),
        "equity_prev": yuan(b.get("equity_parent")),
        "equity_yi": yi(v["equity_parent"]),
    }


def _opinion(company: Company, fiscal_year: int) -> str:
    for name in company.schedule.stock.names:
        if name.halt is not None and name.halt.year == fiscal_year + 1 and name.kind == "delisting_risk":
            return "无法表示意见"
    return "标准无保留意见"


def _annual(company: Company, now: Statement, fields: Fields) -> list[Draft]:
    year = now.period_end.year
    share = float(str(company.people["controller_pct"])) / 100
    fields |= {
        "prev_year": year - 1,
        "fiscal_year": year,
        "opinion": _opinion(company, year),
        "dividend_plan": _dividend_plan(company, year),
        "controller_shares": f"{int(company.accounts.shares_on(now.published) * share):,}",
        "outlook": "公司将坚持稳健经营，聚焦主业，持续提升核心竞争力，为股东创造长期回报。",
        "term": 3 + (year - 2018) // 3,
        "meeting": 2 + (year + int(company.schedule.stock.instrument.code[-1])) % 7,
    }
    return [Draft(now.published, "annual_report", fields), Draft(now.published, "board_resolution", dict(fields))]


def _quarterly(company: Company, now: Statement, fields: Fields) -> Draft:
    h1 = company.statement(date(now.period_end.year, 6, 30)) if now.quarter == 3 else None
    alone = {k: now.values[k] - (h1.values[k] if h1 else 0.0) for k in ("revenue", "net_profit_parent")}
    fields |= {
        "quarter_cn": QUARTER_CN[now.quarter],
        "revenue_q": yuan(alone["revenue"]),
        "np_q": yuan(alone["net_profit_parent"]),
    }
    return Draft(now.published, "quarterly_report", fields)


def _hk_report(company: Company, now: Statement, fields: Fields) -> list[Draft]:
    period_cn, span = date_cn(now.period_end), HK_SPAN[now.quarter]
    dividend = _dividend(company.accounts, now.period_end.year) if now.quarter == 4 else None
    if dividend is not None:
        text = f"董事会建议派发截至{period_cn}止年度的末期股息每股{dividend.cash.normalize():f}港元。"
    else:
        text = "董事会不建议派发本期间的股息。"
    fields |= {"period_cn": period_cn, "span": span, "dividend_text": text}
    drafts = [Draft(now.published, "hk_results", fields)]
    notice = company.later(now.published, -MEETING_LEAD)
    if now.quarter in (2, 4) and notice is not None:
        meeting: Fields = {"period_cn": period_cn, "span": span, "meeting_date": date_cn(now.published)}
        drafts.append(Draft(notice, "hk_board_meeting", meeting))
    return drafts


def periodic_drafts(company: Company) -> list[Draft]:
    """The periodic reports published after listing (earlier statements came with the prospectus)."""
    drafts: list[Draft] = []
    listing = company.schedule.stock.list_date if company.schedule.new_listing else date.min
    for now in company.accounts.statements:
        if now.published < listing:
            continue
        before = company.year_before(now)
        fields = _figures(now, before)
        before_np = before.values["net_profit_parent"] if before else None
        fields["reason"] = _reason(company, now.values["net_profit_parent"], before_np, now.quarter)
        if company.hk:
            drafts.extend(_hk_report(company, now, fields))
        elif now.quarter == 4:
            drafts.extend(_annual(company, now, fields))
        elif now.quarter == 2:
            drafts.append(Draft(now.published, "interim_report", fields))
        else:
            drafts.append(_quarterly(company, now, fields))
    return drafts


def _range(value: float, low_pick: float, high_pick: float) -> tuple[float, float]:
    """A preannouncement range around `value` (lower first), 2-7% wide on each side."""
    a, b = value * (1 - 0.02 - 0.05 * low_pick), value * (1 + 0.02 + 0.05 * high_pick)
    return min(a, b), max(a, b)


def _money_range(low: float, high: float) -> str:
    if high < 0:
        return f"亏损{wan(-high)}万元至{wan(-low)}万元"
    return f"盈利{wan(low)}万元至{wan(high)}万元"


def _change_range(low: float, high: float, before: float) -> str:
    if before <= 0 or low <= 0:
        return change(high, before)
    a, b = (low / before - 1) * 100, (high / before - 1) * 100
    return f"增加{a:.2f}%至{b:.2f}%" if a >= 0 else f"减少{-b:.2f}%至{-a:.2f}%"


def preannouncement_drafts(company: Company) -> list[Draft]:
    """Year-end earnings preannouncements of an A-share company (required ones, and some voluntary)."""
    if company.hk:
        return _hk_alerts(company)
    rng = stream(company.seed.number, company.schedule.stock.symbol, "preannouncements")
    drafts = []
    for year, day in sorted(company.accounts.preannounced.items()):
        now, before = company.accounts.annual(year), company.accounts.annual(year - 1)
        picks = rng.random(3)
        if now is None or before is None or day < company.schedule.stock.list_date or day >= now.published:
            continue
        cur, prev = now.values["net_profit_parent"], before.values["net_profit_parent"]
        kind, rule, _ = preannouncement_kind(cur, prev)
        if not rule and picks[0] >= VOLUNTARY_SHARE:
            continue
        low, high = _range(cur, picks[1], picks[2])
        d_low, d_high = _range(now.values["net_profit_parent_deducted"], picks[2], picks[1])
        shares = company.accounts.shares_on(now.period_end)
        fields: Fields = {
            "year": year,
            "kind": kind,
            "kind_rule": rule or "公司自愿披露业绩预告",
            "np_range": "为" + _money_range(low, high),
            "np_range_short": _money_range(low, high),
            "np_change_range": _change_range(low, high, prev),
            "npd_range": "为" + _money_range(d_low, d_high),
            "npd_range_short": _money_range(d_low, d_high),
            "np_prev_wan": wan(prev),
            "eps_range": f"{low / shares:.4f}元／股至{high / shares:.4f}元／股",
            "eps_prev": f"{before.values['eps_basic']:.4f}",
            "reason": _reason(company, cur, prev, year),
        }
        drafts.append(Draft(day, "earnings_preannouncement", fields))
    return drafts


def _hk_alerts(company: Company) -> list[Draft]:
    drafts = []
    for year in sorted(company.accounts.preannounced):
        now, before = company.accounts.annual(year), company.accounts.annual(year - 1)
        if now is None or before is None:
            continue
        cur, prev = now.values["net_profit_parent"], before.values["net_profit_parent"]
        if prev <= 0 or cur <= 0 or abs(cur / prev - 1) < HK_ALERT_MOVE:
            continue
        move = (cur / prev - 1) * 100
        low = 5 * int(abs(move) // 5) - 5
        words = "增加" if move > 0 else "减少"
        day = company.later(now.published, -ALERT_LEAD)
        if day is None:
            continue
        fields: Fields = {
            "year": year,
            "prev_year": year - 1,
            "alert_title": "正面盈利预告" if move > 0 else "盈利警告",
            "alert_change": f"{words}约{low}%至{low + 15}%",
            "reason": _reason(company, cur, prev, year),
        }
        drafts.append(Draft(day, "hk_profit_alert", fields))
    return drafts


def dividend_drafts(company: Company) -> list[Draft]:
    """Dividend implementation notices (A-shares, with the ex-rights reference) and Hong Kong book closures."""
    drafts = []
    for d in company.accounts.dividends:
        record = company.later(d.ex_date, 1 if company.hk else -1) or d.ex_date
        fields: Fields = {
            "year": d.fiscal_year,
            "cash_per_share": f"{d.cash.normalize():f}",
            "ex_date": date_cn(d.ex_date),
            "record_date": date_cn(record),
        }
        if company.hk:
            fields |= {
                "last_register_date": date_cn(d.ex_date),
                "pay_date": date_cn(company.later(d.ex_date, 20) or d.ex_date),
            }
            drafts.append(Draft(d.announced, "hk_dividend", fields))
            continue
        shares = company.accounts.shares_on(d.record_date)
        at = company.path.days.index(d.ex_date)
        fields |= {
            "bonus_text": f"，每股转增{d.bonus_ratio.normalize():f}股" if d.bonus_per10 else "",
            "bonus_per10_text": f"，以资本公积金向全体股东每10股转增{d.bonus_per10.normalize():f}股"
            if d.bonus_per10
            else "",
            "shares": f"{shares:,}",
            "cash_per10": f"{d.cash_per10}",
            "cash_total": f"{d.cash * shares:,.2f}",
            "bonus_ratio": f"{d.bonus_ratio.normalize():f}",
            "record_close": f"{company.close_on(d.record_date)}",
            "reference": f"{company.path.ref[at] * company.path.unit}",
        }
        drafts.append(Draft(d.announced, "dividend", fields))
    return drafts
