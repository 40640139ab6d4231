"""Catalogue entries of the report's context wording (keys are stable engine codes; see wording/__init__.py):
the scene's sector index and peers and how they were chosen, and the price facts line."""

from __future__ import annotations

from stockbench.research.wording.entry import Entry

WORDS: dict[str, Entry] = {
    # the scene section's lines (the line heads are report.scene.*)
    "context.sector.built": Entry(
        zh="{symbol} {name}：{day} 由已存储的 {members} 只股票{weighting}",
        en="{symbol} {name}: {members} stored stocks on {day}, {weighting}",
    ),
    "context.sector.unavailable": Entry(
        zh="{sector}（未存储其行情，相对强弱无法计算）",
        en="{sector} (its bars are not stored: relative strength cannot be computed)",
    ),
    "context.weighting.float_cap": Entry(zh="流通市值加权", en="float-cap weighted"),
    "context.weighting.equal": Entry(zh="等权", en="equal weighted"),
    "context.peers.rule": Entry(
        zh="同业（按规则从同一行业指数的 {candidates} 只已存储股票中选{basis}最接近者）：{peers}",
        en="Peers (by rule: of the {candidates} stored stocks of the same sector index, the nearest in {basis}): "
        "{peers}",
    ),
    "context.peers.board": Entry(
        zh="同业（按规则从{board}的 {candidates} 只已存储股票中选{basis}最接近者）：{peers}",
        en="Peers (by rule: of the {candidates} stored stocks on {board}, the nearest in {basis}): {peers}",
    ),
    "context.peers.correlation": Entry(
        zh="同业（按规则从{board}的 {candidates} 只已存储股票中选近 {sessions} 个交易日日收益与其相关性最高者）："
        "{peers}",
        en="Peers (by rule: of the {candidates} stored stocks on {board}, those whose daily returns over the last "
        "{sessions} sessions correlate most with its own): {peers}",
    ),
    "context.peers.correlated": Entry(zh="{peer}（相关系数 {correlation}）", en="{peer} (correlation {correlation})"),
    "context.board.main": Entry(zh="主板", en="the main board"),
    "context.board.chinext": Entry(zh="创业板", en="ChiNext"),
    "context.board.star": Entry(zh="科创板", en="the STAR market"),
    "context.board.bse": Entry(zh="北交所", en="the Beijing Stock Exchange"),
    "context.board.hk_main": Entry(zh="港股主板", en="the Hong Kong main board"),
    "context.board.hk_gem": Entry(zh="港股创业板", en="Hong Kong GEM"),
    "context.size.float_mcap": Entry(zh="流通市值", en="float market cap"),
    "context.size.total_mcap": Entry(zh="总市值", en="market cap"),
    "context.size.amount": Entry(zh="成交额", en="traded amount"),
    # the price facts line
    "context.price": Entry(
        zh="价格（{day}）：收盘 {close}，涨跌 {change_pct}%",
        en="Price ({day}): close {close}, change {change_pct}%",
    ),
    "context.price.range": Entry(
        zh="52周区间 {low}-{high}，收盘位于区间 {position}% 处，距52周高点 {drawdown}%",
        en="52-week range {low}-{high}, the close at {position}% of it, {drawdown}% from the 52-week high",
    ),
    "context.price.ma250": Entry(
        zh="距250日均线 {distance}%（250日均线 {ma250}）", en="{distance}% from the 250-day MA ({ma250})"
    ),
    "context.price.ma20": Entry(
        zh="距20日均线 {distance}%，近20个交易日涨跌 {change}%",
        en="{distance}% from the 20-day MA, {change}% over 20 sessions",
    ),
    "context.price.special": Entry(
        zh="{flag}：{meaning}，日涨跌幅限制 {limit}%", en="{flag}: {meaning}, daily price limit {limit}%"
    ),
    "context.special.*ST": Entry(zh="退市风险警示", en="delisting risk warning"),
    "context.special.ST": Entry(zh="其他风险警示", en="other risk warning"),
    "context.price.caps": Entry(zh="总市值 {total}，流通市值 {float}", en="market cap {total}, float cap {float}"),
    "context.price.turnover": Entry(zh="成交额 {amount}，换手率 {rate}%", en="traded {amount}, turnover {rate}%"),
    "context.price.amount": Entry(zh="成交额 {amount}", en="traded {amount}"),
    # amounts in the instrument's quote currency: a Hong Kong stock's turnover and caps are in HKD ("traded CNY 0.14
    # bn" was said of a Hong Kong stock)
    "context.money.CNY": Entry(zh="{value}亿元", en="CNY {value} bn"),
    "context.money.HKD": Entry(zh="{value}亿港元", en="HKD {value} bn"),
    "context.money.other": Entry(zh="{value}亿（{currency}）", en="{currency} {value} bn"),
    "context.price.separator": Entry(zh="；", en="; "),
    # ---- issue 18: relative strength with its benchmark and the returns it compares
    "context.relative": Entry(
        zh="相对强弱：对比 {benchmark}，{state}；{windows}",
        en="Relative strength against {benchmark}: {state}; {windows}",
    ),
    "context.relative.window": Entry(
        zh="近{sessions}个交易日股价涨跌 {stock}%，基准 {benchmark}%",
        en="over {sessions} sessions the stock {stock}%, the benchmark {benchmark}%",
    ),
    "context.relative.separator": Entry(zh="；", en="; "),
    "context.relative.mixed": Entry(
        zh="{state}（近{short}个交易日{short_way}基准，近{long}个交易日{long_way}基准：两段方向相反）",
        en="{state} ({short_way} the benchmark over {short} sessions, {long_way} it over {long}: the two windows "
        "disagree)",
    ),
    "context.relative.ahead": Entry(zh="跑赢", en="ahead of"),
    "context.relative.behind": Entry(zh="跑输", en="behind"),
    "context.relative.built": Entry(zh="（程序构建）", en=" (built by the program)"),
    "context.relative.unknown": Entry(
        zh="相对强弱：未知（{benchmark} 没有可比的行情）",
        en="Relative strength: unknown ({benchmark} has no comparable bars)",
    ),
}
