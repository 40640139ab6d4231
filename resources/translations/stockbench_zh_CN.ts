<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>AccountDialogs</name>
    <message>
        <source>An unexpected error occurred. The details are in the log.</source>
        <translation>发生意外错误，详情见日志。</translation>
    </message>
</context>
<context>
    <name>Actions</name>
    <message>
        <source>Buy</source>
        <translation>买入</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>加仓</translation>
    </message>
    <message>
        <source>Hold</source>
        <translation>持有</translation>
    </message>
    <message>
        <source>Reduce</source>
        <translation>减仓</translation>
    </message>
    <message>
        <source>Sell</source>
        <translation>卖出</translation>
    </message>
    <message>
        <source>Wait</source>
        <translation>观望</translation>
    </message>
    <message>
        <source>Avoid</source>
        <translation>回避</translation>
    </message>
</context>
<context>
    <name>AppearancePage</name>
    <message>
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>Red up, green down (China)</source>
        <translation>红涨绿跌（中国大陆习惯）</translation>
    </message>
    <message>
        <source>Green up, red down</source>
        <translation>绿涨红跌</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>Theme</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>Candle colours</source>
        <translation>K 线颜色</translation>
    </message>
</context>
<context>
    <name>BackupsPage</name>
    <message>
        <source>Backups go to this folder:</source>
        <translation>备份保存在此文件夹：</translation>
    </message>
    <message>
        <source>Choose folder…</source>
        <translation>选择文件夹…</translation>
    </message>
    <message>
        <source>Use the workspace&apos;s own folder</source>
        <translation>改用工作区自己的文件夹</translation>
    </message>
    <message>
        <source>Later backups go to backups/ in the workspace folder again.</source>
        <translation>之后的备份重新保存到工作区文件夹中的 backups/。</translation>
    </message>
    <message>
        <source>Back up now</source>
        <translation>立即备份</translation>
    </message>
    <message>
        <source>Restore selected…</source>
        <translation>恢复所选备份…</translation>
    </message>
    <message>
        <source>Taken (Beijing time)</source>
        <translation>备份时间（北京时间）</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>(the workspace&apos;s own)</source>
        <translation>（工作区自己的文件夹）</translation>
    </message>
    <message>
        <source>No backups in this folder yet.</source>
        <translation>此文件夹中还没有备份。</translation>
    </message>
    <message>
        <source>closed</source>
        <translation>关闭时</translation>
    </message>
    <message>
        <source>daily</source>
        <translation>每日</translation>
    </message>
    <message>
        <source>before an upgrade</source>
        <translation>升级前</translation>
    </message>
    <message>
        <source>before an import</source>
        <translation>导入前</translation>
    </message>
    <message>
        <source>by hand</source>
        <translation>手动</translation>
    </message>
    <message>
        <source>before a restore</source>
        <translation>恢复前</translation>
    </message>
    <message>
        <source>%1 MB</source>
        <translation>%1 MB</translation>
    </message>
    <message>
        <source>Backing up…</source>
        <translation>正在备份…</translation>
    </message>
    <message>
        <source>Backed up: %1 (%2).</source>
        <translation>已备份：%1（%2）。</translation>
    </message>
    <message>
        <source>Choose the folder for backups</source>
        <translation>选择备份文件夹</translation>
    </message>
    <message>
        <source>Later backups go to %1; those taken before stay where they are.</source>
        <translation>之后的备份保存到 %1；之前的备份留在原处。</translation>
    </message>
    <message>
        <source>Restore this backup?</source>
        <translation>恢复这份备份？</translation>
    </message>
    <message>
        <source>Put back the workspace as it was at %1?</source>
        <translation>把工作区恢复到 %1 时的状态？</translation>
    </message>
    <message>
        <source>The workspace closes and reopens from the backup. The current file is kept beside it as workspace.before-restore-….duckdb, never deleted.</source>
        <translation>工作区将关闭，并从备份重新打开。当前文件会以 workspace.before-restore-….duckdb 的名字保留在旁边，不会删除。</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
</context>
<context>
    <name>CashDialog</name>
    <message>
        <source>Deposit</source>
        <translation>存入</translation>
    </message>
    <message>
        <source>Withdrawal</source>
        <translation>取出</translation>
    </message>
    <message>
        <source>Interest</source>
        <translation>利息</translation>
    </message>
    <message>
        <source>Fee</source>
        <translation>费用</translation>
    </message>
    <message>
        <source>Tax</source>
        <translation>税款</translation>
    </message>
    <message>
        <source>Transfer to another account</source>
        <translation>转账到另一账户</translation>
    </message>
    <message>
        <source>Cash: {0}</source>
        <translation>现金：{0}</translation>
    </message>
    <message>
        <source>e.g. 100000</source>
        <translation>例如 100000</translation>
    </message>
    <message>
        <source>Exchange time (Beijing). The start of the day by default, so fills of the same day can use this cash.</source>
        <translation>交易所时间（北京时间）。默认为当天零点，以便当天的成交可以使用这笔现金。</translation>
    </message>
    <message>
        <source>To account</source>
        <translation>转入账户</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>金额</translation>
    </message>
    <message>
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>Record</source>
        <translation>记录</translation>
    </message>
</context>
<context>
    <name>ChartPanel</name>
    <message>
        <source>Ex-rights on %1: earlier bars are adjusted onto today&apos;s scale</source>
        <translation>%1 除权除息：此前的K线已按前复权调整到当前价格尺度</translation>
    </message>
    <message>
        <source>%1 closed at the limit-up price: a buy the next day may not fill</source>
        <translation>%1 收盘涨停：次日买入可能无法成交</translation>
    </message>
    <message>
        <source>%1 closed at the limit-down price</source>
        <translation>%1 收盘跌停</translation>
    </message>
    <message>
        <source>No bar on %1 (suspended, or not fetched): the levels are older</source>
        <translation>%1 没有K线（停牌或未获取）：价位是更早的</translation>
    </message>
    <message>
        <source>The trading calendar is not known that far</source>
        <translation>交易日历尚未覆盖到该日期</translation>
    </message>
    <message>
        <source>Symbol, e.g. 600519 or 00700.HK</source>
        <translation>代码，例如 600519 或 00700.HK</translation>
    </message>
    <message>
        <source>1M</source>
        <translation>1月</translation>
    </message>
    <message>
        <source>6M</source>
        <translation>6月</translation>
    </message>
    <message>
        <source>1Y</source>
        <translation>1年</translation>
    </message>
    <message>
        <source>3Y</source>
        <translation>3年</translation>
    </message>
    <message>
        <source>All</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>Analyze</source>
        <translation>分析</translation>
    </message>
    <message>
        <source>Loading the chart…</source>
        <translation>正在加载图表…</translation>
    </message>
    <message>
        <source>No zones: %1</source>
        <translation>无区间：%1</translation>
    </message>
    <message>
        <source>Zones as of %1: buy %2 – %3, sell %4 – %5, stop %6</source>
        <translation>%1 的区间：买入 %2 – %3，卖出 %4 – %5，止损 %6</translation>
    </message>
</context>
<context>
    <name>ColumnFit</name>
    <message>
        <source>%1: %2</source>
        <comment>a column&apos;s title and a row&apos;s value in it</comment>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>DamagedWorkspaceDialog</name>
    <message>
        <source>The workspace file is damaged</source>
        <translation>工作区文件已损坏</translation>
    </message>
    <message>
        <source>The workspace cannot be opened</source>
        <translation>无法打开工作区</translation>
    </message>
    <message>
        <source>Open another workspace…</source>
        <translation>打开其他工作区…</translation>
    </message>
    <message>
        <source>Copy the restore command</source>
        <translation>复制恢复命令</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <source>Restore this backup</source>
        <translation>恢复此备份</translation>
    </message>
    <message>
        <source>The damaged file is kept beside it, renamed; nothing is deleted.</source>
        <translation>损坏的文件会改名保留在旁边，不会删除任何内容。</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>已复制</translation>
    </message>
</context>
<context>
    <name>DashboardModel</name>
    <message>
        <source>Stop hit</source>
        <translation>触及止损</translation>
    </message>
    <message>
        <source>Below buy</source>
        <translation>低于买入区</translation>
    </message>
    <message>
        <source>In buy zone</source>
        <translation>在买入区</translation>
    </message>
    <message>
        <source>Between</source>
        <translation>两区之间</translation>
    </message>
    <message>
        <source>In sell zone</source>
        <translation>在卖出区</translation>
    </message>
    <message>
        <source>Above sell</source>
        <translation>高于卖出区</translation>
    </message>
    <message>
        <source>Buy</source>
        <translation>买入</translation>
    </message>
    <message>
        <source>Sell</source>
        <translation>卖出</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>未成交</translation>
    </message>
    <message>
        <source>Partly filled</source>
        <translation>部分成交</translation>
    </message>
    <message>
        <source>KEEP</source>
        <translation>保留</translation>
    </message>
    <message>
        <source>MODIFY</source>
        <translation>修改</translation>
    </message>
    <message>
        <source>CANCEL</source>
        <translation>撤销</translation>
    </message>
    <message>
        <source>Not in it</source>
        <translation>未涉及</translation>
    </message>
    <message>
        <source>The latest report on this symbol (%1) decides nothing for this order: it was placed after that report, or in another account. Analyze again for a call.</source>
        <translation>该代码的最新报告（%1）未对此委托作出判断：委托下在该报告之后，或属于另一账户。请重新分析以得到判断。</translation>
    </message>
    <message>
        <source>Account</source>
        <translation>账户</translation>
    </message>
    <message>
        <source>Currency</source>
        <translation>币种</translation>
    </message>
    <message>
        <source>Cash</source>
        <translation>现金</translation>
    </message>
    <message>
        <source>Market value</source>
        <translation>市值</translation>
    </message>
    <message>
        <source>Equity</source>
        <translation>权益</translation>
    </message>
    <message>
        <source>Symbol</source>
        <translation>代码</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Quantity</source>
        <translation>数量</translation>
    </message>
    <message>
        <source>Sellable</source>
        <translation>可卖</translation>
    </message>
    <message>
        <source>Avg cost</source>
        <translation>成本价</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>成本</translation>
    </message>
    <message>
        <source>Report&apos;s call</source>
        <translation>报告意见</translation>
    </message>
    <message>
        <source>Price</source>
        <translation>价格</translation>
    </message>
    <message>
        <source>P&amp;L</source>
        <translation>盈亏</translation>
    </message>
    <message>
        <source>P&amp;L %</source>
        <translation>盈亏 %</translation>
    </message>
    <message>
        <source>Side</source>
        <translation>方向</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Report date</source>
        <translation>报告日期</translation>
    </message>
    <message>
        <source>Day</source>
        <translation>日期</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>收盘价</translation>
    </message>
    <message>
        <source>Was</source>
        <translation>此前</translation>
    </message>
    <message>
        <source>Now</source>
        <translation>现在</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>得分</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>原因</translation>
    </message>
</context>
<context>
    <name>DashboardPanel</name>
    <message>
        <source>Open orders</source>
        <translation>未完成委托</translation>
    </message>
    <message>
        <source>Zone alerts</source>
        <translation>区间提醒</translation>
    </message>
    <message>
        <source>Scan shortlist</source>
        <translation>扫描候选</translation>
    </message>
    <message>
        <source>Cash and equity</source>
        <translation>现金与权益</translation>
    </message>
    <message>
        <source>Positions</source>
        <translation>持仓</translation>
    </message>
    <message>
        <source>Each alert compares the last close with the close before it</source>
        <translation>每条提醒以最新收盘价对比前一收盘价</translation>
    </message>
    <message>
        <source>Checking zones and scanning…</source>
        <translation>正在检查区间并扫描…</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <comment>a tab: a table&apos;s title and its row count</comment>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>the watchlist</source>
        <translation>自选股</translation>
    </message>
    <message>
        <source>every instrument</source>
        <translation>全部证券</translation>
    </message>
    <message>
        <source>Scanned %1 symbols of %2 on %3.</source>
        <translation>已于 %3 扫描%2中的 %1 只证券。</translation>
    </message>
    <message>
        <source>%1 position(s) without a price are valued at cost</source>
        <translation>%1 个无价格的持仓按成本计值</translation>
    </message>
    <message>
        <source>Open chart</source>
        <translation>打开图表</translation>
    </message>
    <message>
        <source>Analyze</source>
        <translation>分析</translation>
    </message>
    <message>
        <source>Open latest report</source>
        <translation>打开最新报告</translation>
    </message>
</context>
<context>
    <name>ErrorPresenter</name>
    <message>
        <source>Cannot do that</source>
        <translation>无法执行</translation>
    </message>
    <message>
        <source>Something went wrong</source>
        <translation>出错了</translation>
    </message>
    <message>
        <source>An unexpected error occurred. The details are in the log.</source>
        <translation>发生了意外错误，详情已写入日志。</translation>
    </message>
</context>
<context>
    <name>EvidenceKinds</name>
    <message>
        <source>computation</source>
        <translation>程序计算</translation>
    </message>
    <message>
        <source>quote</source>
        <translation>行情</translation>
    </message>
    <message>
        <source>ledger snapshot</source>
        <translation>账本快照</translation>
    </message>
    <message>
        <source>earlier report</source>
        <translation>此前的报告</translation>
    </message>
    <message>
        <source>earlier plan</source>
        <translation>此前的计划</translation>
    </message>
    <message>
        <source>announcement list</source>
        <translation>公告列表</translation>
    </message>
    <message>
        <source>announcement titles</source>
        <translation>公告标题</translation>
    </message>
    <message>
        <source>announcement text</source>
        <translation>公告正文</translation>
    </message>
    <message>
        <source>data gates</source>
        <translation>数据关卡</translation>
    </message>
    <message>
        <source>data gate reasons</source>
        <translation>数据关卡的原因</translation>
    </message>
    <message>
        <source>search results</source>
        <translation>搜索结果</translation>
    </message>
    <message>
        <source>money flow</source>
        <translation>资金流向</translation>
    </message>
</context>
<context>
    <name>EvidenceView</name>
    <message>
        <source>Click an evidence id, a number in a claim or a quote to see its source.</source>
        <translation>点击证据编号、论断中的数字或引文，查看其来源。</translation>
    </message>
    <message>
        <source>Where %1 comes from</source>
        <translation>%1 的来源</translation>
    </message>
    <message>
        <source>Where the quote comes from</source>
        <translation>引文的来源</translation>
    </message>
    <message>
        <source>Evidence</source>
        <translation>证据</translation>
    </message>
    <message>
        <source>not in this workspace</source>
        <translation>不在此工作区中</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>SHA-256</source>
        <translation>SHA-256</translation>
    </message>
    <message>
        <source>(body altered!)</source>
        <translation>（内容已被改动！）</translation>
    </message>
    <message>
        <source>Fetched</source>
        <translation>获取时间</translation>
    </message>
    <message>
        <source>Location</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>The quote leaves out “%1” of its clause here, so it does not hold; the clause is shown.</source>
        <translation>这段引文在此处略去了所在分句中的“%1”，因此不成立；下面显示该分句。</translation>
    </message>
    <message>
        <source>The quote does not match this evidence; the closest passage is shown.</source>
        <translation>这段引文与此证据不符；下面显示最接近的段落。</translation>
    </message>
    <message>
        <source>Not found in this evidence; its opening is shown.</source>
        <translation>在此证据中未找到；下面显示其开头部分。</translation>
    </message>
</context>
<context>
    <name>FeesPage</name>
    <message>
        <source>Exchange fees are included in the commission</source>
        <translation>交易所规费已含在佣金内</translation>
    </message>
    <message>
        <source>Apply from now</source>
        <translation>从现在起生效</translation>
    </message>
    <message>
        <source>Account and market</source>
        <translation>账户与市场</translation>
    </message>
    <message>
        <source>Commission rate (e.g. 0.00025)</source>
        <translation>佣金费率（例如 0.00025）</translation>
    </message>
    <message>
        <source>Minimum commission per order</source>
        <translation>每笔最低佣金</translation>
    </message>
    <message>
        <source>No accounts yet: open one with Ledger &gt; New Account…</source>
        <translation>还没有账户：请用 账本 &gt; 新建账户… 开立</translation>
    </message>
    <message>
        <source>Saved.</source>
        <translation>已保存。</translation>
    </message>
</context>
<context>
    <name>FillDialog</name>
    <message>
        <source>commission</source>
        <translation>佣金</translation>
    </message>
    <message>
        <source>stamp duty</source>
        <translation>印花税</translation>
    </message>
    <message>
        <source>transfer fee</source>
        <translation>过户费</translation>
    </message>
    <message>
        <source>handling fee</source>
        <translation>经手费</translation>
    </message>
    <message>
        <source>regulatory fee</source>
        <translation>证管费</translation>
    </message>
    <message>
        <source>trading fee</source>
        <translation>交易费</translation>
    </message>
    <message>
        <source>settlement fee</source>
        <translation>结算费</translation>
    </message>
    <message>
        <source>SFC levy</source>
        <translation>证监会征费</translation>
    </message>
    <message>
        <source>AFRC levy</source>
        <translation>会财局征费</translation>
    </message>
    <message>
        <source>broker&apos;s total</source>
        <translation>券商合计</translation>
    </message>
    <message>
        <source>Record a fill</source>
        <translation>记录成交</translation>
    </message>
    <message>
        <source>New account…</source>
        <translation>新建账户…</translation>
    </message>
    <message>
        <source>Record fill</source>
        <translation>记录成交</translation>
    </message>
    <message>
        <source>e.g. 600519 or 00700.HK</source>
        <translation>例如 600519 或 00700.HK</translation>
    </message>
    <message>
        <source>Buy</source>
        <translation>买入</translation>
    </message>
    <message>
        <source>Sell</source>
        <translation>卖出</translation>
    </message>
    <message>
        <source>shares</source>
        <translation>股</translation>
    </message>
    <message>
        <source>price per share</source>
        <translation>每股价格</translation>
    </message>
    <message>
        <source>(no order)</source>
        <translation>（无委托）</translation>
    </message>
    <message>
        <source>Account</source>
        <translation>账户</translation>
    </message>
    <message>
        <source>Symbol</source>
        <translation>代码</translation>
    </message>
    <message>
        <source>Side</source>
        <translation>方向</translation>
    </message>
    <message>
        <source>Quantity</source>
        <translation>数量</translation>
    </message>
    <message>
        <source>Price</source>
        <translation>价格</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Fees</source>
        <translation>费用</translation>
    </message>
    <message>
        <source>Order</source>
        <translation>委托</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>computed</source>
        <translation>计算值</translation>
    </message>
    <message>
        <source>Use computed fees</source>
        <translation>使用计算的费用</translation>
    </message>
    <message>
        <source>There is no account yet: open one to record this fill.</source>
        <translation>还没有账户：先开立一个账户，才能记录这笔成交。</translation>
    </message>
    <message>
        <source>Enter the account, symbol, quantity and price.</source>
        <translation>请输入账户、代码、数量和价格。</translation>
    </message>
    <message>
        <source>The fill could not be checked.</source>
        <translation>无法校验这笔成交。</translation>
    </message>
    <message>
        <source>broker&apos;s figure</source>
        <translation>券商数据</translation>
    </message>
    <message>
        <source>{side} {qty} {symbol} at {price}: {amount:,.2f} {sign} fees {fees:,.2f} = {total:,.2f} {ccy}</source>
        <translation>{side} {symbol} {qty} 股，价格 {price}：{amount:,.2f} {sign} 费用 {fees:,.2f} = {total:,.2f} {ccy}</translation>
    </message>
    <message>
        <source>Price limits not checked: no reference price is stored for that day.</source>
        <translation>未检查涨跌幅限制：当日没有存储参考价。</translation>
    </message>
    <message>
        <source>Price limits checked against the reference price {0}.</source>
        <translation>已按参考价 {0} 检查涨跌幅限制。</translation>
    </message>
</context>
<context>
    <name>FillImportDialog</name>
    <message>
        <source>Row</source>
        <translation>行</translation>
    </message>
    <message>
        <source>Problem</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>How to fix</source>
        <translation>如何修正</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Symbol</source>
        <translation>代码</translation>
    </message>
    <message>
        <source>Side</source>
        <translation>方向</translation>
    </message>
    <message>
        <source>Quantity</source>
        <translation>数量</translation>
    </message>
    <message>
        <source>Price</source>
        <translation>价格</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>金额</translation>
    </message>
    <message>
        <source>Fees</source>
        <translation>费用</translation>
    </message>
    <message>
        <source>Fees from</source>
        <translation>费用来源</translation>
    </message>
    <message>
        <source>Currency</source>
        <translation>币种</translation>
    </message>
    <message>
        <source>Import fills from CSV</source>
        <translation>从 CSV 导入成交</translation>
    </message>
    <message>
        <source>The file needs a header row with the columns executed_at, symbol, side, qty and price, and optionally fee, order_id and note (UTF-8 or GBK). Times without an offset are exchange time; an empty fee is computed from the rules and the account&apos;s terms. Every row is checked first; nothing is written unless every row is valid.</source>
        <translation>文件须有表头行，包含 executed_at、symbol、side、qty、price 列，可选 fee、order_id、note（UTF-8 或 GBK 编码）。不带时区偏移的时间按交易所时间计；费用为空时按规则和账户费率计算。先逐行检查；只有每一行都有效才会写入。</translation>
    </message>
    <message>
        <source>Problems</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Fills that would be written</source>
        <translation>将写入的成交</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <source>No file chosen</source>
        <translation>未选择文件</translation>
    </message>
    <message>
        <source>Choose file…</source>
        <translation>选择文件…</translation>
    </message>
    <message>
        <source>Check again</source>
        <translation>重新检查</translation>
    </message>
    <message>
        <source>Account</source>
        <translation>账户</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>This workspace has no account yet: open one with Ledger &gt; New Account…</source>
        <translation>此工作区还没有账户：请用 账本 &gt; 新建账户… 开立</translation>
    </message>
    <message>
        <source>Choose the broker&apos;s CSV file</source>
        <translation>选择券商导出的 CSV 文件</translation>
    </message>
    <message>
        <source>CSV files (*.csv);;All files (*)</source>
        <translation>CSV 文件 (*.csv);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Checking %1…</source>
        <translation>正在检查 %1…</translation>
    </message>
    <message numerus="yes">
        <source>%n problem(s) in %1: nothing can be imported until every row is valid.</source>
        <translation>
            <numerusform>%1 中有 %n 个问题：在每一行都有效之前无法导入。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 holds no fills.</source>
        <translation>%1 中没有成交。</translation>
    </message>
    <message numerus="yes">
        <source>%n fill(s) ready to import into %1.</source>
        <translation>
            <numerusform>%n 笔成交可导入到 %1。</numerusform>
        </translation>
    </message>
    <message>
        <source>Valid rows (not written while any row has a problem)</source>
        <translation>有效行（只要有任一行有问题就不会写入）</translation>
    </message>
    <message>
        <source>Importing…</source>
        <translation>正在导入…</translation>
    </message>
</context>
<context>
    <name>KeyStoreWords</name>
    <message>
        <source>The key stays in this computer&apos;s keyring (the system password store), never in the workspace or a log.</source>
        <translation>密钥保存在本机的钥匙串（系统密码库）中，绝不写入工作区或日志。</translation>
    </message>
    <message>
        <source>This computer has no keyring that answers: keep keys in an encrypted key file behind a passphrase (Settings ▸ Models), or give a model its key in the environment variable %1.</source>
        <translation>本机没有可应答的钥匙串：可以把密钥保存在以口令保护的加密密钥文件中（设置 ▸ 模型），或在环境变量 %1 中给出模型的密钥。</translation>
    </message>
    <message>
        <source>The key stays in this workspace&apos;s encrypted key file, behind your passphrase, never in the workspace or a log.</source>
        <translation>密钥保存在此工作区的加密密钥文件中，由你的口令保护，绝不写入工作区数据库或日志。</translation>
    </message>
    <message>
        <source>Keys are kept in this workspace&apos;s encrypted key file, which is locked: unlock it in Settings ▸ Models to store a key.</source>
        <translation>密钥保存在此工作区的加密密钥文件中，该文件已锁定：请在“设置 ▸ 模型”中解锁后再保存密钥。</translation>
    </message>
</context>
<context>
    <name>LedgerModel</name>
    <message>
        <source>Symbol</source>
        <translation>代码</translation>
    </message>
    <message>
        <source>Quantity</source>
        <translation>数量</translation>
    </message>
    <message>
        <source>Sellable</source>
        <translation>可卖</translation>
    </message>
    <message>
        <source>Average cost</source>
        <translation>平均成本</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>成本</translation>
    </message>
    <message>
        <source>Last close</source>
        <translation>最新收盘价</translation>
    </message>
    <message>
        <source>Market value</source>
        <translation>市值</translation>
    </message>
    <message>
        <source>Unrealised P&amp;L</source>
        <translation>浮动盈亏</translation>
    </message>
    <message>
        <source>Realised P&amp;L</source>
        <translation>已实现盈亏</translation>
    </message>
    <message>
        <source>Fees</source>
        <translation>费用</translation>
    </message>
    <message>
        <source>Dividends</source>
        <translation>分红</translation>
    </message>
    <message>
        <source>Currency</source>
        <translation>币种</translation>
    </message>
    <message>
        <source>Time (exchange)</source>
        <translation>时间（交易所）</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>金额</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Entry</source>
        <translation>条目</translation>
    </message>
    <message>
        <source>Side</source>
        <translation>方向</translation>
    </message>
    <message>
        <source>Price</source>
        <translation>价格</translation>
    </message>
    <message>
        <source>Fees from</source>
        <translation>费用来源</translation>
    </message>
    <message>
        <source>Order</source>
        <translation>委托</translation>
    </message>
    <message>
        <source>Fill</source>
        <translation>成交</translation>
    </message>
    <message>
        <source>Placed</source>
        <translation>下单时间</translation>
    </message>
    <message>
        <source>Filled</source>
        <translation>已成交</translation>
    </message>
    <message>
        <source>Buy</source>
        <translation>买入</translation>
    </message>
    <message>
        <source>Sell</source>
        <translation>卖出</translation>
    </message>
    <message>
        <source>Deposit</source>
        <translation>存入</translation>
    </message>
    <message>
        <source>Withdrawal</source>
        <translation>取出</translation>
    </message>
    <message>
        <source>Dividend</source>
        <translation>分红</translation>
    </message>
    <message>
        <source>Interest</source>
        <translation>利息</translation>
    </message>
    <message>
        <source>Fee</source>
        <translation>费用</translation>
    </message>
    <message>
        <source>Tax</source>
        <translation>税款</translation>
    </message>
    <message>
        <source>Transfer in</source>
        <translation>转入</translation>
    </message>
    <message>
        <source>Transfer out</source>
        <translation>转出</translation>
    </message>
    <message>
        <source>Computed</source>
        <translation>程序计算</translation>
    </message>
    <message>
        <source>Broker</source>
        <translation>券商</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>未成交</translation>
    </message>
    <message>
        <source>Partly filled</source>
        <translation>部分成交</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已撤销</translation>
    </message>
    <message>
        <source>Expired</source>
        <translation>已过期</translation>
    </message>
    <message>
        <source>Cash dividend</source>
        <translation>现金分红</translation>
    </message>
    <message>
        <source>Bonus shares</source>
        <translation>送股</translation>
    </message>
    <message>
        <source>Capitalisation issue</source>
        <translation>转增</translation>
    </message>
    <message>
        <source>Split</source>
        <translation>拆股</translation>
    </message>
    <message>
        <source>Voided: {0}</source>
        <translation>已作废：{0}</translation>
    </message>
    <message>
        <source>Valid until</source>
        <translation>有效期至</translation>
    </message>
    <message>
        <source>Report</source>
        <translation>报告</translation>
    </message>
    <message>
        <source>Ex-date</source>
        <translation>除权除息日</translation>
    </message>
    <message>
        <source>Cash per share</source>
        <translation>每股派现</translation>
    </message>
    <message>
        <source>Shares per share</source>
        <translation>每股送转</translation>
    </message>
    <message>
        <source>Shares credited</source>
        <translation>到账股数</translation>
    </message>
    <message>
        <source>Cash credited</source>
        <translation>到账现金</translation>
    </message>
    <message>
        <source>Pay date</source>
        <translation>派息日</translation>
    </message>
</context>
<context>
    <name>LedgerPanel</name>
    <message>
        <source>New account…</source>
        <translation>新建账户…</translation>
    </message>
    <message>
        <source>Open an account: name, currency and your broker&apos;s fee terms</source>
        <translation>开立账户：名称、币种与券商费率</translation>
    </message>
    <message>
        <source>Cash…</source>
        <translation>现金…</translation>
    </message>
    <message>
        <source>Deposit, withdraw or transfer cash</source>
        <translation>存入、取出或转账现金</translation>
    </message>
    <message>
        <source>Record fill…</source>
        <translation>记录成交…</translation>
    </message>
    <message>
        <source>Import CSV…</source>
        <translation>导入 CSV…</translation>
    </message>
    <message>
        <source>Import fills from your broker&apos;s CSV export</source>
        <translation>从券商导出的 CSV 导入成交</translation>
    </message>
    <message>
        <source>Account</source>
        <translation>账户</translation>
    </message>
    <message>
        <source>Positions</source>
        <translation>持仓</translation>
    </message>
    <message>
        <source>Cash</source>
        <translation>现金</translation>
    </message>
    <message>
        <source>Fills</source>
        <translation>成交</translation>
    </message>
    <message>
        <source>Orders</source>
        <translation>委托</translation>
    </message>
    <message>
        <source>Corporate actions</source>
        <translation>公司行动</translation>
    </message>
    <message>
        <source>Void…</source>
        <translation>作废…</translation>
    </message>
    <message>
        <source>Cancel order…</source>
        <translation>撤销委托…</translation>
    </message>
    <message>
        <source>Sellable as of %1: after the close, shares bought today count as sellable at the next session (T+1).</source>
        <translation>可卖数量按 %1 计算：收盘后，当日买入的股份计入下一交易日的可卖数量（T+1）。</translation>
    </message>
    <message>
        <source>Sellable as of %1: A-shares bought today can be sold from the next session (T+1).</source>
        <translation>可卖数量按 %1 计算：当日买入的 A 股要到下一交易日才能卖出（T+1）。</translation>
    </message>
    <message>
        <source>Cash: {0}</source>
        <translation>现金：{0}</translation>
    </message>
    <message>
        <source>No account yet: open one with New account…</source>
        <translation>还没有账户：点“新建账户…”开立</translation>
    </message>
    <message>
        <source>Void {0}</source>
        <translation>作废 {0}</translation>
    </message>
    <message>
        <source>Void {0}? It stays in the history, excluded from every figure. Why?</source>
        <translation>作废 {0}？它会保留在历史中，但不计入任何数字。原因？</translation>
    </message>
    <message>
        <source>Cancel {0}</source>
        <translation>撤销 {0}</translation>
    </message>
    <message>
        <source>Record that order {0} was cancelled at the broker. Reason (optional):</source>
        <translation>记录委托 {0} 已在券商处撤销。原因（可选）：</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Watchlist</source>
        <translation>自选股</translation>
    </message>
    <message>
        <source>Chart</source>
        <translation>图表</translation>
    </message>
    <message>
        <source>Dashboard</source>
        <translation>总览</translation>
    </message>
    <message>
        <source>Reports</source>
        <translation>报告</translation>
    </message>
    <message>
        <source>Ledger</source>
        <translation>账本</translation>
    </message>
    <message>
        <source>Scan</source>
        <translation>扫描</translation>
    </message>
    <message>
        <source>Track Record</source>
        <translation>业绩追踪</translation>
    </message>
    <message>
        <source>Research</source>
        <translation>研究</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>No workspace is open. Use File ▸ Open Workspace or File ▸ Demo Market.</source>
        <translation>尚未打开工作区。请使用“文件 ▸ 打开工作区”或“文件 ▸ 演示市场”。</translation>
    </message>
    <message>
        <source>&amp;Open Workspace…</source>
        <translation>打开工作区(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;New Workspace…</source>
        <translation>新建工作区(&amp;N)…</translation>
    </message>
    <message>
        <source>&amp;Demo Market</source>
        <translation>演示市场(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Export Ledger…</source>
        <translation>导出账本(&amp;E)…</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>刷新(&amp;R)</translation>
    </message>
    <message>
        <source>Reset &amp;Layout</source>
        <translation>重置布局(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Analyze Selected…</source>
        <translation>分析所选(&amp;A)…</translation>
    </message>
    <message>
        <source>Research &amp;Runs</source>
        <translation>研究任务(&amp;R)</translation>
    </message>
    <message>
        <source>Record &amp;Fill…</source>
        <translation>记录成交(&amp;F)…</translation>
    </message>
    <message>
        <source>&amp;About Stock Workbench</source>
        <translation>关于股票研究工作台(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Import Fills from CSV…</source>
        <translation>从 CSV 导入成交(&amp;I)…</translation>
    </message>
    <message>
        <source>&amp;Connect Your Model…</source>
        <translation>连接你的模型(&amp;C)…</translation>
    </message>
    <message>
        <source>&amp;New Account…</source>
        <translation>新建账户(&amp;N)…</translation>
    </message>
    <message>
        <source>&amp;Cash: Deposit, Withdraw, Transfer…</source>
        <translation>现金：存入、取出、转账(&amp;C)…</translation>
    </message>
    <message>
        <source>Analyze the selected symbol (the offline rules model unless another is chosen)</source>
        <translation>分析所选证券（未另选模型时使用离线规则模型）</translation>
    </message>
    <message>
        <source>Record a fill you made at your broker</source>
        <translation>记录你在券商处的一笔成交</translation>
    </message>
    <message>
        <source>Open the fictional demo market</source>
        <translation>打开虚构的演示市场</translation>
    </message>
    <message>
        <source>Import fills from your broker&apos;s CSV export (all rows or none)</source>
        <translation>从券商导出的 CSV 导入成交（全部导入或全部不导入）</translation>
    </message>
    <message>
        <source>Connect DeepSeek, OpenAI, Kimi, Qwen, MiniMax or a local Ollama model</source>
        <translation>连接 DeepSeek、OpenAI、Kimi、通义千问、MiniMax 或本地 Ollama 模型</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Research</source>
        <translation>研究(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Ledger</source>
        <translation>账本(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Panels</source>
        <translation>面板(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>Main toolbar</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <source>Stock Workbench</source>
        <translation>股票研究工作台</translation>
    </message>
    <message>
        <source>Demo market (fictional)</source>
        <translation>演示市场（虚构数据）</translation>
    </message>
    <message>
        <source>Stock Workbench was started again; this window is the one to use.</source>
        <translation>股票研究工作台再次启动；请使用这个窗口。</translation>
    </message>
    <message>
        <source>Opening %1…</source>
        <translation>正在打开 %1…</translation>
    </message>
    <message>
        <source>The workspace could not be opened. Use File ▸ Open Workspace to choose another.</source>
        <translation>无法打开该工作区。请使用“文件 ▸ 打开工作区”选择其他工作区。</translation>
    </message>
    <message>
        <source>No backup could be taken: %1</source>
        <translation>无法备份：%1</translation>
    </message>
    <message>
        <source>The last session on this workspace (process %1 on %2, since %3) ended without closing it; the workspace was taken over and opened normally.</source>
        <translation>此工作区上次的会话（进程 %1，%2，自 %3 起）未正常关闭；已接管该工作区并正常打开。</translation>
    </message>
    <message>
        <source>Closing the workspace…</source>
        <translation>正在关闭工作区…</translation>
    </message>
    <message>
        <source>The %1 screen is not available.</source>
        <translation>“%1”界面不可用。</translation>
    </message>
    <message>
        <source>Analyze</source>
        <translation>分析</translation>
    </message>
    <message>
        <source>Symbol (for example 600519 or 00700.HK):</source>
        <translation>证券代码（例如 600519 或 00700.HK）：</translation>
    </message>
    <message>
        <source>Export ledger</source>
        <translation>导出账本</translation>
    </message>
    <message>
        <source>This workspace has no accounts yet.</source>
        <translation>此工作区还没有账户。</translation>
    </message>
    <message>
        <source>Account:</source>
        <translation>账户：</translation>
    </message>
    <message>
        <source>CSV (*.csv);;Beancount (*.beancount)</source>
        <translation>CSV (*.csv);;Beancount (*.beancount)</translation>
    </message>
    <message numerus="yes">
        <source>Exported %n entries</source>
        <translation>
            <numerusform>已导出 %n 条记录</numerusform>
        </translation>
    </message>
    <message>
        <source>Backup %1 put back; the file it replaced is kept as %2.</source>
        <translation>已恢复备份 %1；被替换的文件保留为 %2。</translation>
    </message>
    <message>
        <source>Newer ledger entries</source>
        <translation>账本有更新的记录</translation>
    </message>
    <message>
        <source>The ledger journal holds entries recorded after this backup was taken.</source>
        <translation>账本日志中有这份备份之后记录的条目。</translation>
    </message>
    <message>
        <source>Rebuild the books from the journal to bring them back, or keep the books as they were in the backup.</source>
        <translation>可以按日志重建账本把它们找回，或保留备份中的账本。</translation>
    </message>
    <message>
        <source>Rebuild the books</source>
        <translation>重建账本</translation>
    </message>
    <message>
        <source>Keep the backup&apos;s books</source>
        <translation>保留备份中的账本</translation>
    </message>
    <message numerus="yes">
        <source>The books were rebuilt from the journal (%n entries).</source>
        <translation>
            <numerusform>已按日志重建账本（%n 条记录）。</numerusform>
        </translation>
    </message>
    <message>
        <source>Model %1 connected.</source>
        <translation>模型 %1 已连接。</translation>
    </message>
    <message numerus="yes">
        <source>Imported %n fill(s).</source>
        <translation>
            <numerusform>已导入 %n 笔成交。</numerusform>
        </translation>
    </message>
    <message>
        <source>About Stock Workbench</source>
        <translation>关于股票研究工作台</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Stock Workbench %1&lt;/h3&gt;&lt;p&gt;Local-first research of China A-share and Hong Kong stocks against your own ledger.&lt;/p&gt;&lt;p&gt;Output is research, not investment advice. No broker connection, no automatic orders.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;股票研究工作台 %1&lt;/h3&gt;&lt;p&gt;在本机研究 A 股与港股，并结合你自己的账本。&lt;/p&gt;&lt;p&gt;输出内容仅为研究，不构成投资建议。不连接券商，不自动下单。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Research is running</source>
        <translation>研究正在进行</translation>
    </message>
    <message numerus="yes">
        <source>%n analysis(es) are still running. Stop them and quit? A stopped run keeps its journal.</source>
        <translation>
            <numerusform>还有 %n 项分析正在运行。要停止它们并退出吗？停止的任务会保留其日志。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ModelDialog</name>
    <message>
        <source>Add a model</source>
        <translation>添加模型</translation>
    </message>
    <message>
        <source>Kept in the key store, never in the workspace</source>
        <translation>保存在密钥存储中，绝不写入工作区</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>服务商</translation>
    </message>
    <message>
        <source>Model id</source>
        <translation>模型 ID</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <translation>接口地址</translation>
    </message>
    <message>
        <source>Fallback model</source>
        <translation>备用模型</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <source>required</source>
        <translation>必填</translation>
    </message>
</context>
<context>
    <name>ModelWizardDialog</name>
    <message>
        <source>The provider is having trouble: try again later.</source>
        <translation>服务商出现故障：请稍后再试。</translation>
    </message>
    <message>
        <source>The provider did not answer in time: try again later.</source>
        <translation>服务商未及时响应：请稍后再试。</translation>
    </message>
    <message>
        <source>The provider refused the key: check that you pasted all of it and that it belongs to this provider.</source>
        <translation>服务商拒绝了该密钥：请检查是否完整粘贴，且密钥属于此服务商。</translation>
    </message>
    <message>
        <source>Nothing answers at that address for this model: check the API base and the model id.</source>
        <translation>该地址上没有此模型的服务：请检查 API 地址和模型 ID。</translation>
    </message>
    <message>
        <source>The API base could not be reached: check the address and your network (for Ollama: is it running?).</source>
        <translation>无法连接到 API 地址：请检查地址和网络（Ollama：是否已启动？）。</translation>
    </message>
    <message>
        <source>The provider is limiting requests, or the account has no balance left: check your account, or try again later.</source>
        <translation>服务商正在限流，或账户余额不足：请检查账户，或稍后再试。</translation>
    </message>
    <message>
        <source>The provider rejected the request: check the model id.</source>
        <translation>服务商拒绝了请求：请检查模型 ID。</translation>
    </message>
    <message>
        <source>Connect your model</source>
        <translation>连接你的模型</translation>
    </message>
    <message>
        <source>Choose your provider, paste your API key, test the connection, then save.</source>
        <translation>选择服务商，粘贴 API 密钥，测试连接，然后保存。</translation>
    </message>
    <message>
        <source>lower-case letters, digits, &apos;.&apos;, &apos;_&apos; or &apos;-&apos;</source>
        <translation>小写字母、数字、“.”、“_”或“-”</translation>
    </message>
    <message>
        <source>Use this model for research by default</source>
        <translation>研究时默认使用此模型</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>服务商</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>API base</source>
        <translation>API 地址</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <source>Name in Stock Workbench</source>
        <translation>在股票研究工作台中的名称</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <source>Paste the key from your provider</source>
        <translation>粘贴服务商提供的密钥</translation>
    </message>
    <message>
        <source>Not needed for this provider</source>
        <translation>此服务商无需密钥</translation>
    </message>
    <message>
        <source>Runs on this computer, no key needed. Install it from %1 and download the model first, for example: ollama pull %2</source>
        <translation>在本机运行，无需密钥。请先从 %1 安装并下载模型，例如：ollama pull %2</translation>
    </message>
    <message>
        <source>Get an API key at %1</source>
        <translation>在 %1 获取 API 密钥</translation>
    </message>
    <message>
        <source>Choose a provider first.</source>
        <translation>请先选择服务商。</translation>
    </message>
    <message>
        <source>Paste the API key first.</source>
        <translation>请先粘贴 API 密钥。</translation>
    </message>
    <message>
        <source>Testing %1…</source>
        <translation>正在测试 %1…</translation>
    </message>
    <message>
        <source>Connected in %1 ms: the model answered “%2” (served by %3).</source>
        <translation>连接成功，用时 %1 毫秒：模型回答“%2”（由 %3 提供）。</translation>
    </message>
    <message>
        <source>Connection failed: %1</source>
        <translation>连接失败：%1</translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation>未保存：%1</translation>
    </message>
</context>
<context>
    <name>ModelsPage</name>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>服务商</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <translation>接口地址</translation>
    </message>
    <message>
        <source>Fallback</source>
        <translation>备用</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <source>Add…</source>
        <translation>添加…</translation>
    </message>
    <message>
        <source>Store key…</source>
        <translation>保存密钥…</translation>
    </message>
    <message>
        <source>Connect your model…</source>
        <translation>连接你的模型…</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Any provider or OpenAI-compatible endpoint, with a fallback model</source>
        <translation>任意服务商或 OpenAI 兼容端点，可设置备用模型</translation>
    </message>
    <message>
        <source>no ceiling</source>
        <translation>不设上限</translation>
    </message>
    <message>
        <source>Default model for research</source>
        <translation>研究默认模型</translation>
    </message>
    <message>
        <source>Default cost ceiling per analysis (model price currency)</source>
        <translation>每次分析的默认费用上限（按模型计价币种）</translation>
    </message>
    <message>
        <source>The offline rules model needs no key and is always available. A model&apos;s fallback is tried when it keeps failing.</source>
        <translation>离线规则模型无需密钥，始终可用。模型连续失败时会改用其备用模型。</translation>
    </message>
    <message>
        <source>Use the OS keyring</source>
        <translation>使用系统钥匙串</translation>
    </message>
    <message>
        <source>Use an encrypted key file…</source>
        <translation>使用加密密钥文件…</translation>
    </message>
    <message>
        <source>Unlock the key file…</source>
        <translation>解锁密钥文件…</translation>
    </message>
    <message>
        <source>Offline rules model</source>
        <translation>离线规则模型</translation>
    </message>
    <message>
        <source>API keys are kept in the encrypted key file %1, unlocked for this session.</source>
        <translation>API 密钥保存在加密密钥文件 %1 中，本次会话已解锁。</translation>
    </message>
    <message>
        <source>API keys are kept in the encrypted key file %1, which is locked: unlock it with its passphrase to use the models whose keys are there.</source>
        <translation>API 密钥保存在加密密钥文件 %1 中，目前已锁定：请用口令解锁，才能使用密钥存放在其中的模型。</translation>
    </message>
    <message>
        <source>The encrypted key file %1 cannot be used: %2</source>
        <translation>无法使用加密密钥文件 %1：%2</translation>
    </message>
    <message>
        <source>API keys are kept in the OS keyring.</source>
        <translation>API 密钥保存在系统钥匙串中。</translation>
    </message>
    <message>
        <source>the workspace folder</source>
        <translation>工作区文件夹</translation>
    </message>
    <message>
        <source>not required</source>
        <translation>无需</translation>
    </message>
    <message>
        <source>stored</source>
        <translation>已保存</translation>
    </message>
    <message>
        <source>from the environment</source>
        <translation>来自环境变量</translation>
    </message>
    <message>
        <source>missing</source>
        <translation>缺失</translation>
    </message>
    <message>
        <source>in the key file</source>
        <translation>在加密密钥文件中</translation>
    </message>
    <message>
        <source>keyring unavailable</source>
        <translation>钥匙串不可用</translation>
    </message>
    <message>
        <source>key file locked</source>
        <translation>密钥文件已锁定</translation>
    </message>
    <message>
        <source>Store API key</source>
        <translation>保存 API 密钥</translation>
    </message>
    <message>
        <source>API key for %1:</source>
        <translation>%1 的 API 密钥：</translation>
    </message>
    <message>
        <source>Select a model first.</source>
        <translation>请先选择一个模型。</translation>
    </message>
    <message>
        <source>Testing %1…</source>
        <translation>正在测试 %1…</translation>
    </message>
    <message>
        <source>%1 answered in %2 ms: “%3” (model %4)</source>
        <translation>%1 在 %2 毫秒内回复：“%3”（模型 %4）</translation>
    </message>
    <message>
        <source>Connection failed: %1</source>
        <translation>连接失败：%1</translation>
    </message>
</context>
<context>
    <name>NewAccountDialog</name>
    <message>
        <source>New account</source>
        <translation>新建账户</translation>
    </message>
    <message>
        <source>e.g. main</source>
        <translation>例如 主账户</translation>
    </message>
    <message>
        <source>CNY (A-shares)</source>
        <translation>人民币（A股）</translation>
    </message>
    <message>
        <source>HKD (Hong Kong)</source>
        <translation>港币（港股）</translation>
    </message>
    <message>
        <source>Commission as a fraction of the amount, e.g. 0.00025 for 0.025%</source>
        <translation>佣金占成交金额的比例，例如 0.00025 即万分之二点五</translation>
    </message>
    <message>
        <source>Exchange fees are included in the commission</source>
        <translation>交易所规费已含在佣金内</translation>
    </message>
    <message>
        <source>Broker, branch... (optional)</source>
        <translation>券商、营业部……（可选）</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Base currency</source>
        <translation>记账币种</translation>
    </message>
    <message>
        <source>Commission rate</source>
        <translation>佣金费率</translation>
    </message>
    <message>
        <source>Minimum commission</source>
        <translation>最低佣金</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>Open account</source>
        <translation>开立账户</translation>
    </message>
    <message>
        <source>Prefilled with the rule tables&apos; defaults; change them to your broker&apos;s terms. They can be changed later in Settings &gt; Fees.</source>
        <translation>已按规则表的默认值预填；请改成你券商的实际费率。之后也可在 设置 &gt; 费用 中修改。</translation>
    </message>
</context>
<context>
    <name>PassphraseDialog</name>
    <message>
        <source>Create the encrypted key file</source>
        <translation>创建加密密钥文件</translation>
    </message>
    <message>
        <source>Unlock the key file</source>
        <translation>解锁密钥文件</translation>
    </message>
    <message>
        <source>API keys will be kept in %1, encrypted with this passphrase. It is never stored: you give it again each time the app starts. Without it the keys cannot be read.</source>
        <translation>API 密钥将保存在 %1 中，并用此口令加密。口令不会被保存：每次启动程序时需要重新输入。没有口令就无法读取这些密钥。</translation>
    </message>
    <message>
        <source>The API keys in %1 are encrypted. Give the passphrase to use them in this session.</source>
        <translation>%1 中的 API 密钥已加密。请输入口令，以便在本次会话中使用。</translation>
    </message>
    <message>
        <source>Passphrase</source>
        <translation>口令</translation>
    </message>
    <message>
        <source>Again</source>
        <translation>再输一次</translation>
    </message>
    <message>
        <source>At least %1 characters.</source>
        <translation>至少 %1 个字符。</translation>
    </message>
    <message>
        <source>The two passphrases differ.</source>
        <translation>两次输入的口令不一致。</translation>
    </message>
</context>
<context>
    <name>PlanApprovalDialog</name>
    <message>
        <source>Approve the research plan</source>
        <translation>批准研究计划</translation>
    </message>
    <message>
        <source>Approve and run</source>
        <translation>批准并运行</translation>
    </message>
    <message>
        <source>The plan for {symbol} was refused: {reason}</source>
        <translation>{symbol} 的研究计划被拒绝：{reason}</translation>
    </message>
    <message>
        <source>The plan for {symbol} is estimated to cost {estimate}, more than the ceiling of {ceiling}. Approve it to run anyway; the ceiling is still checked before every model call.</source>
        <translation>{symbol} 的研究计划预计花费 {estimate}，超过上限 {ceiling}。批准后仍可运行；每次调用模型前仍会检查上限。</translation>
    </message>
    <message>
        <source>The plan could not be read back; approving re-plans the run.</source>
        <translation>无法读回该计划；批准将重新规划这次任务。</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>数据</translation>
    </message>
    <message>
        <source>Period</source>
        <translation>期间</translation>
    </message>
    <message>
        <source>Tools</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>Estimated cost</source>
        <translation>预计费用</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>Stages</source>
        <translation>阶段</translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <source>&amp;Look in:</source>
        <translation>查找范围(&amp;L)：</translation>
    </message>
    <message>
        <source>Files of &amp;type:</source>
        <translation>文件类型(&amp;T)：</translation>
    </message>
</context>
<context>
    <name>ReasonDialog</name>
    <message>
        <source>e.g. entered twice</source>
        <translation>例如：重复录入</translation>
    </message>
</context>
<context>
    <name>ReportView</name>
    <message>
        <source>Quotes and their sources</source>
        <translation>引文及其来源</translation>
    </message>
    <message>
        <source>Warning: this report is not as it was published. Do not rely on it.</source>
        <translation>警告：此报告已不是发布时的样子，请勿依赖它。</translation>
    </message>
    <message>
        <source>Reading the report and checking that it is as it was published…</source>
        <translation>正在读取报告并核对它是否与发布时一致…</translation>
    </message>
</context>
<context>
    <name>ReportsModel</name>
    <message>
        <source>Accepted</source>
        <translation>已接受</translation>
    </message>
    <message>
        <source>To revise</source>
        <translation>待修改</translation>
    </message>
    <message>
        <source>Rejected</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <source>offline rules model</source>
        <translation>离线规则模型</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <source>Symbol</source>
        <translation>代码</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Review</source>
        <translation>复核</translation>
    </message>
</context>
<context>
    <name>ReportsPanel</name>
    <message>
        <source>Search titles and text</source>
        <translation>搜索标题和正文</translation>
    </message>
    <message>
        <source>Symbol</source>
        <translation>代码</translation>
    </message>
    <message>
        <source>All actions</source>
        <translation>全部操作</translation>
    </message>
    <message>
        <source>All reviews</source>
        <translation>全部复核</translation>
    </message>
    <message>
        <source>From</source>
        <translation>从</translation>
    </message>
    <message>
        <source>To</source>
        <translation>至</translation>
    </message>
    <message>
        <source>Compare with previous</source>
        <translation>与上一份对比</translation>
    </message>
    <message>
        <source>Verify</source>
        <translation>校验</translation>
    </message>
    <message>
        <source>Export Markdown…</source>
        <translation>导出 Markdown…</translation>
    </message>
    <message>
        <source>Export PDF…</source>
        <translation>导出 PDF…</translation>
    </message>
    <message>
        <source>Review…</source>
        <translation>复核…</translation>
    </message>
    <message>
        <source>Report</source>
        <translation>报告</translation>
    </message>
    <message>
        <source>Not reviewed</source>
        <translation>未复核</translation>
    </message>
    <message>
        <source>Accepted</source>
        <translation>已接受</translation>
    </message>
    <message>
        <source>To revise</source>
        <translation>待修改</translation>
    </message>
    <message>
        <source>Rejected</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <source>Filter by the latest review&apos;s verdict</source>
        <translation>按最新复核结论筛选</translation>
    </message>
    <message>
        <source>Choose a report in the list to read it here.</source>
        <translation>在列表中选择一份报告，在这里阅读。</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>对比</translation>
    </message>
    <message>
        <source>Show the list</source>
        <translation>显示列表</translation>
    </message>
    <message>
        <source>Hide the list</source>
        <translation>隐藏列表</translation>
    </message>
    <message>
        <source>Show the reports&apos; list and filters again</source>
        <translation>重新显示报告列表和筛选</translation>
    </message>
    <message>
        <source>Read the report at the panel&apos;s full size</source>
        <translation>在整个面板中阅读报告</translation>
    </message>
    <message>
        <source>There is no report on {0} yet.</source>
        <translation>{0} 还没有报告。</translation>
    </message>
    <message>
        <source>There is no earlier report on this symbol</source>
        <translation>该证券没有更早的报告</translation>
    </message>
    <message>
        <source>Previous: {0} ({1})</source>
        <translation>上一份：{0}（{1}）</translation>
    </message>
    <message>
        <source>This: {0} ({1})</source>
        <translation>本份：{0}（{1}）</translation>
    </message>
    <message>
        <source>unchanged</source>
        <translation>未变</translation>
    </message>
    <message>
        <source>Verifying…</source>
        <translation>正在校验…</translation>
    </message>
    <message>
        <source>{0} does not verify:</source>
        <translation>{0} 校验未通过：</translation>
    </message>
    <message>
        <source>{0} verifies: every gate passes again on its stored evidence.</source>
        <translation>{0} 校验通过：所有关卡在已存证据上再次通过。</translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <source>PDF (*.pdf)</source>
        <translation>PDF (*.pdf)</translation>
    </message>
    <message>
        <source>Export report</source>
        <translation>导出报告</translation>
    </message>
    <message>
        <source>Exported to {0}</source>
        <translation>已导出到 {0}</translation>
    </message>
    <message>
        <source>Review {0} saved.</source>
        <translation>复核 {0} 已保存。</translation>
    </message>
    <message>
        <source>the review could not be recorded</source>
        <translation>复核无法记录</translation>
    </message>
</context>
<context>
    <name>ResearchPanel</name>
    <message>
        <source>Symbol, e.g. 600519</source>
        <translation>代码，例如 600519</translation>
    </message>
    <message>
        <source>Your question (optional)</source>
        <translation>你的问题（可选）</translation>
    </message>
    <message>
        <source>offline rules model</source>
        <comment>the built-in rules model</comment>
        <translation>离线规则模型</translation>
    </message>
    <message>
        <source>(no account)</source>
        <translation>（无账户）</translation>
    </message>
    <message>
        <source>Cost ceiling</source>
        <translation>费用上限</translation>
    </message>
    <message>
        <source>The model: the offline rules model needs no key; or type a model&apos;s name</source>
        <translation>模型：离线规则模型无需密钥；也可输入模型名称</translation>
    </message>
    <message>
        <source>The account whose holdings, cash and orders the research reads</source>
        <translation>研究读取哪个账户的持仓、现金与挂单</translation>
    </message>
    <message>
        <source>Analyze</source>
        <translation>分析</translation>
    </message>
    <message>
        <source>Selected run</source>
        <translation>所选任务</translation>
    </message>
    <message>
        <source>Continue</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Open report</source>
        <translation>打开报告</translation>
    </message>
    <message>
        <source>Quick review of {0} is running...</source>
        <translation>正在对 {0} 做快速复核……</translation>
    </message>
    <message>
        <source>Checking the plan of {0}...</source>
        <translation>正在检查 {0} 的计划……</translation>
    </message>
    <message>
        <source>Quick review: {0} change(s)</source>
        <translation>快速复核：{0} 项变化</translation>
    </message>
    <message>
        <source>A full analysis is required (thesis-level news or an act-level change).</source>
        <translation>需要完整分析（出现论点级消息或需行动级别的变化）。</translation>
    </message>
    <message>
        <source>Plan check of report {0}</source>
        <translation>报告 {0} 的计划检查</translation>
    </message>
    <message>
        <source>The plan conflicts with current data: a full analysis is recommended.</source>
        <translation>计划与当前数据冲突：建议做一次完整分析。</translation>
    </message>
    <message>
        <source>{0} reads the account {1}</source>
        <translation>{0} 读取账户 {1}</translation>
    </message>
    <message>
        <source>{0} reads no account: the research does not know what you hold</source>
        <translation>{0} 未读取账户：研究不知道你的持仓</translation>
    </message>
    <message>
        <source>Automatic account</source>
        <translation>自动选择账户</translation>
    </message>
    <message>
        <source>The account holding the symbol, else the only account, else the one the last run read</source>
        <translation>持有该股的账户；若无，则唯一的账户；再无，则上次研究读取的账户</translation>
    </message>
    <message>
        <source>Elapsed {elapsed} · model calls {calls} · cost {cost}</source>
        <translation>已用时 {elapsed} · 模型调用 {calls} 次 · 费用 {cost}</translation>
    </message>
    <message>
        <source>No run selected</source>
        <translation>未选择任务</translation>
    </message>
    <message>
        <source>Paused: {reason}. Automatic resume at {when}, or press Continue.</source>
        <translation>已暂停：{reason}。将于 {when} 自动恢复，或点击“继续”。</translation>
    </message>
    <message>
        <source>Paused: {reason}</source>
        <translation>已暂停：{reason}</translation>
    </message>
    <message>
        <source>Interrupted: it is not running now. Continue resumes it from its journal.</source>
        <translation>已中断：当前未在运行。点击“继续”将按其日志恢复。</translation>
    </message>
</context>
<context>
    <name>ResearchStageNames</name>
    <message>
        <source>Preparing</source>
        <translation>准备</translation>
    </message>
    <message>
        <source>Scene</source>
        <translation>场景</translation>
    </message>
    <message>
        <source>Collecting</source>
        <translation>收集</translation>
    </message>
    <message>
        <source>Computing</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Analysing</source>
        <translation>分析</translation>
    </message>
    <message>
        <source>Deciding</source>
        <translation>决策</translation>
    </message>
    <message>
        <source>Writing</source>
        <translation>撰写</translation>
    </message>
    <message>
        <source>Publishing</source>
        <translation>发布</translation>
    </message>
    <message>
        <source>Quick review</source>
        <translation>快速复核</translation>
    </message>
</context>
<context>
    <name>ResearchStages</name>
    <message>
        <source>Preparing: clock, identity, ledger and data gates</source>
        <translation>准备：时钟、证券识别、账本与数据关卡</translation>
    </message>
    <message>
        <source>Scene: sector index, anchors and peers</source>
        <translation>场景：行业指数、锚定标的与同业</translation>
    </message>
    <message>
        <source>Collecting what the scene implies</source>
        <translation>收集场景所需的数据</translation>
    </message>
    <message>
        <source>Computing indicators, states, zones and scenarios</source>
        <translation>计算指标、状态、区间与情景</translation>
    </message>
    <message>
        <source>Analysing: BULL and BEAR, then the diagnosis</source>
        <translation>分析：多方与空方研究，然后诊断</translation>
    </message>
    <message>
        <source>Deciding: judgments checked, orders sized</source>
        <translation>决策：校验判断，计算委托数量</translation>
    </message>
    <message>
        <source>Writing the report</source>
        <translation>撰写报告</translation>
    </message>
    <message>
        <source>Publishing: every gate in one pass</source>
        <translation>发布：一次通过全部关卡</translation>
    </message>
    <message>
        <source>Quick review: each change since the report, answered</source>
        <translation>快速复核：报告以来的每项变化，逐一作答</translation>
    </message>
</context>
<context>
    <name>ResearchStatus</name>
    <message>
        <source>Planned</source>
        <translation>已计划</translation>
    </message>
    <message>
        <source>Queued</source>
        <translation>排队中</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>Published</source>
        <translation>已发布</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
</context>
<context>
    <name>ResearchSubtasks</name>
    <message>
        <source>Clock, identity, ledger and data gates</source>
        <translation>时钟、证券识别、账本与数据关卡</translation>
    </message>
    <message>
        <source>Fetching what the scene implies</source>
        <translation>获取场景所需的数据</translation>
    </message>
    <message>
        <source>Indicators, states, zones, backtest and scenarios</source>
        <translation>指标、状态、区间、回测与情景</translation>
    </message>
    <message>
        <source>BULL sub-study</source>
        <translation>多方子研究</translation>
    </message>
    <message>
        <source>BEAR sub-study</source>
        <translation>空方子研究</translation>
    </message>
    <message>
        <source>Refreshing the quote</source>
        <translation>刷新行情</translation>
    </message>
    <message>
        <source>Sizing orders against the ledger</source>
        <translation>按账本计算委托数量</translation>
    </message>
    <message>
        <source>Publication gates</source>
        <translation>发布关卡</translation>
    </message>
</context>
<context>
    <name>ReviewDialog</name>
    <message>
        <source>Accept</source>
        <translation>接受</translation>
    </message>
    <message>
        <source>Revise</source>
        <translation>修改</translation>
    </message>
    <message>
        <source>Reject</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <source>Evidence</source>
        <translation>证据</translation>
    </message>
    <message>
        <source>The call and the plan were right</source>
        <translation>判断与计划都正确</translation>
    </message>
    <message>
        <source>The action was wrong for the facts shown</source>
        <translation>就所示事实而言，操作建议有误</translation>
    </message>
    <message>
        <source>Buy, sell or stop levels were badly placed</source>
        <translation>买入、卖出或止损价位设置不当</translation>
    </message>
    <message>
        <source>A material risk was left out</source>
        <translation>遗漏了重大风险</translation>
    </message>
    <message>
        <source>A material announcement or event was left out</source>
        <translation>遗漏了重要公告或事件</translation>
    </message>
    <message>
        <source>Claims were thinly supported by the cited evidence</source>
        <translation>论断缺乏所引证据的充分支持</translation>
    </message>
    <message>
        <source>The data behind the report was out of date</source>
        <translation>报告所依据的数据已过时</translation>
    </message>
    <message>
        <source>Wrong sector index, peers or anchors</source>
        <translation>板块指数、同业或参照对象有误</translation>
    </message>
    <message>
        <source>Order sizes did not fit the account</source>
        <translation>下单数量与账户不匹配</translation>
    </message>
    <message>
        <source>The report was hard to follow</source>
        <translation>报告难以理解</translation>
    </message>
    <message>
        <source>Usefulness</source>
        <translation>实用性</translation>
    </message>
    <message>
        <source>Clarity</source>
        <translation>清晰度</translation>
    </message>
    <message>
        <source>Risk coverage</source>
        <translation>风险覆盖</translation>
    </message>
    <message>
        <source>Give at least one reason for a revise or reject verdict.</source>
        <translation>选择“修改”或“拒绝”时，请至少给出一个原因。</translation>
    </message>
    <message>
        <source>Keep the comment to %1 characters.</source>
        <translation>评论请控制在 %1 个字符以内。</translation>
    </message>
    <message>
        <source>Review report</source>
        <translation>复核报告</translation>
    </message>
    <message>
        <source>Reasons</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Comment (private: never sent to a model)</source>
        <translation>备注（私密：绝不发送给模型）</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <source>Revision</source>
        <translation>修改</translation>
    </message>
    <message>
        <source>Taken up by the next analysis of this symbol</source>
        <translation>由该标的的下一次分析承接修改</translation>
    </message>
    <message>
        <source>Start a revised analysis now</source>
        <translation>立即重新分析以修改该报告</translation>
    </message>
    <message>
        <source>Revised by %1</source>
        <translation>由 %1 修改</translation>
    </message>
    <message>
        <source>The next analysis of this symbol reads the reasons of a pending revise verdict and links its report to this one; or name a later analysis that already revises it.</source>
        <translation>该标的的下一次分析会读取待处理“修改”结论的原因，并把其报告关联到本报告；也可以指定一个已修改本报告的后续分析。</translation>
    </message>
    <message>
        <source>not scored</source>
        <translation>未评分</translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation>正在保存…</translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation>未保存：%1</translation>
    </message>
</context>
<context>
    <name>RunModel</name>
    <message>
        <source>Symbol</source>
        <translation>代码</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Sub-task</source>
        <translation>子任务</translation>
    </message>
    <message>
        <source>Elapsed</source>
        <translation>用时</translation>
    </message>
    <message>
        <source>Model calls</source>
        <translation>模型调用</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>费用</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>任务</translation>
    </message>
</context>
<context>
    <name>SearchPage</name>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Test</source>
        <translation>测试</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>清除</translation>
    </message>
    <message>
        <source>Brave Search API address (blank: Brave&apos;s own)</source>
        <translation>Brave Search API 地址（留空：Brave 官方地址）</translation>
    </message>
    <message>
        <source>stored: leave blank to keep it</source>
        <translation>已保存：留空则沿用</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <source>SearXNG address</source>
        <translation>SearXNG 地址</translation>
    </message>
    <message>
        <source>Search provider</source>
        <translation>搜索服务</translation>
    </message>
    <message>
        <source>Brave Search API key (kept in the key store, never in the workspace)</source>
        <translation>Brave Search API 密钥（保存在密钥库中，从不写入工作区）</translation>
    </message>
    <message>
        <source>Research may search the web through a SearXNG instance (its JSON format enabled) or the Brave Search API (with its key). Results are only candidates: research reads a page in full before quoting it. Without one, reports say that no search was run.</source>
        <translation>研究可通过 SearXNG 实例（需启用其 JSON 格式）或 Brave Search API（需其密钥）搜索网页。搜索结果只是候选：研究会先完整读取网页再引用。未设置时，报告会注明未进行搜索。</translation>
    </message>
    <message>
        <source>Saved: research searches through %1.</source>
        <translation>已保存：研究将通过 %1 搜索。</translation>
    </message>
    <message>
        <source>Cleared: research runs no web search.</source>
        <translation>已清除：研究不进行网页搜索。</translation>
    </message>
    <message>
        <source>Testing…</source>
        <translation>正在测试…</translation>
    </message>
    <message>
        <source>OK: %1 answered %2 results in %3 ms.</source>
        <translation>正常：%1 在 %3 毫秒内返回 %2 条结果。</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <source>Not accepted: %1</source>
        <translation>未接受：%1</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <source>Data sources</source>
        <translation>数据源</translation>
    </message>
    <message>
        <source>Fees</source>
        <translation>费用</translation>
    </message>
    <message>
        <source>Backups</source>
        <translation>备份</translation>
    </message>
    <message>
        <source>Appearance</source>
        <translation>外观</translation>
    </message>
</context>
<context>
    <name>SingleInstance</name>
    <message>
        <source>Stock Workbench is already open on %1; its window was brought to the front.</source>
        <translation>股票研究工作台已在 %1 上打开；已将其窗口切换到前台。</translation>
    </message>
</context>
<context>
    <name>SourcesPage</name>
    <message>
        <source>ok</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>resting</source>
        <translation>休息中</translation>
    </message>
    <message>
        <source>failing</source>
        <translation>失败中</translation>
    </message>
    <message>
        <source>disabled</source>
        <translation>已停用</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <translation>端点</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Failures</source>
        <translation>连续失败</translation>
    </message>
    <message>
        <source>Last good answer</source>
        <translation>最近成功</translation>
    </message>
    <message>
        <source>Last error</source>
        <translation>最近错误</translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation>基础地址</translation>
    </message>
    <message>
        <source>Move up</source>
        <translation>上移</translation>
    </message>
    <message>
        <source>Move down</source>
        <translation>下移</translation>
    </message>
    <message>
        <source>Save order</source>
        <translation>保存顺序</translation>
    </message>
    <message>
        <source>Where several sources hold a series, reads take the first source in this order. A new order applies the next time the workspace opens.</source>
        <translation>同一数据序列有多个来源时，读取按此顺序取第一个来源。新顺序在下次打开工作区时生效。</translation>
    </message>
    <message>
        <source>Each service asks its endpoints in turn; after failures in a row a host rests for a while. Times are exchange time.</source>
        <translation>每项服务依次询问各端点；某个主机连续失败后会休息一段时间。时间为交易所时间。</translation>
    </message>
    <message>
        <source>Base URL (empty: the service&apos;s own)</source>
        <translation>基础地址（留空：使用服务自身的地址）</translation>
    </message>
    <message>
        <source>Enabled</source>
        <translation>启用</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>Ask earlier</source>
        <translation>提前询问</translation>
    </message>
    <message>
        <source>Ask later</source>
        <translation>推后询问</translation>
    </message>
    <message>
        <source>Which source reads prefer:</source>
        <translation>读取时优先的来源：</translation>
    </message>
    <message>
        <source>Choose an endpoint first.</source>
        <translation>请先选择一个端点。</translation>
    </message>
    <message>
        <source>Saved.</source>
        <translation>已保存。</translation>
    </message>
    <message>
        <source>Not accepted: %1</source>
        <translation>未接受：%1</translation>
    </message>
</context>
<context>
    <name>StatusBar</name>
    <message>
        <source>Closed</source>
        <translation>休市</translation>
    </message>
    <message>
        <source>Opening auction</source>
        <translation>开盘集合竞价</translation>
    </message>
    <message>
        <source>Opening auction (no cancel)</source>
        <translation>开盘集合竞价（不可撤单）</translation>
    </message>
    <message>
        <source>About to open</source>
        <translation>即将开盘</translation>
    </message>
    <message>
        <source>Trading</source>
        <translation>连续竞价</translation>
    </message>
    <message>
        <source>Lunch break</source>
        <translation>午间休市</translation>
    </message>
    <message>
        <source>Closing auction</source>
        <translation>收盘集合竞价</translation>
    </message>
    <message>
        <source>After-hours fixed price</source>
        <translation>盘后固定价格交易</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>resting</source>
        <translation>休息中</translation>
    </message>
    <message>
        <source>failing</source>
        <translation>失败中</translation>
    </message>
    <message>
        <source>disabled</source>
        <translation>已停用</translation>
    </message>
    <message>
        <source>A-shares</source>
        <translation>A 股</translation>
    </message>
    <message>
        <source>HK</source>
        <translation>港股</translation>
    </message>
    <message numerus="yes">
        <source>Research: %n running</source>
        <translation>
            <numerusform>研究：%n 项进行中</numerusform>
        </translation>
    </message>
    <message>
        <source>Research: idle</source>
        <translation>研究：空闲</translation>
    </message>
    <message>
        <source>Sources</source>
        <translation>数据源</translation>
    </message>
    <message>
        <source>Data sources: …</source>
        <translation>数据源：…</translation>
    </message>
    <message>
        <source>all answering</source>
        <translation>全部正常应答</translation>
    </message>
    <message>
        <source>some resting or failing</source>
        <translation>部分休息或失败</translation>
    </message>
    <message>
        <source>a service has no source left</source>
        <translation>某项服务已没有可用来源</translation>
    </message>
    <message>
        <source>Stale quotes: %1</source>
        <translation>过时行情：%1</translation>
    </message>
    <message>
        <source>Data sources: %1</source>
        <translation>数据源：%1</translation>
    </message>
    <message>
        <source>No workspace</source>
        <translation>未打开工作区</translation>
    </message>
    <message>
        <source>Demo market: %1</source>
        <translation>演示市场：%1</translation>
    </message>
    <message>
        <source>Workspace: %1</source>
        <translation>工作区：%1</translation>
    </message>
    <message>
        <source>Replay clock: %1</source>
        <translation>回放时钟：%1</translation>
    </message>
    <message>
        <source>calendar unknown</source>
        <translation>日历未知</translation>
    </message>
    <message>
        <source>Closed today</source>
        <translation>今日休市</translation>
    </message>
    <message>
        <source>(half day)</source>
        <translation>（半日市）</translation>
    </message>
    <message>
        <source>Data: …</source>
        <translation>数据：…</translation>
    </message>
    <message>
        <source>Data: none yet</source>
        <translation>数据：暂无</translation>
    </message>
    <message>
        <source>Data to %1</source>
        <translation>数据截至 %1</translation>
    </message>
    <message>
        <source>Data to %1 (up to date)</source>
        <translation>数据截至 %1（已是最新）</translation>
    </message>
    <message numerus="yes">
        <source>Data to %1 (%n session(s) behind)</source>
        <translation>
            <numerusform>数据截至 %1（落后 %n 个交易日）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>StockChartWidget</name>
    <message>
        <source>Buy zone %1 – %2</source>
        <translation>买入区 %1 – %2</translation>
    </message>
    <message>
        <source>Sell zone %1 – %2</source>
        <translation>卖出区 %1 – %2</translation>
    </message>
    <message>
        <source>Stop %1</source>
        <translation>止损 %1</translation>
    </message>
    <message>
        <source>Buy</source>
        <translation>买</translation>
    </message>
    <message>
        <source>Sell</source>
        <translation>卖</translation>
    </message>
    <message>
        <source>%1 has no daily bars yet: there is nothing to draw. Refresh to fetch them.</source>
        <translation>%1 还没有日线数据，暂无可绘制的内容。请刷新以获取。</translation>
    </message>
    <message>
        <source>No symbol to chart yet: type a code above, or add one to the watchlist.</source>
        <translation>还没有可显示的证券：请在上方输入代码，或将证券加入自选股。</translation>
    </message>
    <message>
        <source>Loading the chart…</source>
        <translation>正在加载图表…</translation>
    </message>
    <message>
        <source>O %1</source>
        <translation>开 %1</translation>
    </message>
    <message>
        <source>H %1</source>
        <translation>高 %1</translation>
    </message>
    <message>
        <source>L %1</source>
        <translation>低 %1</translation>
    </message>
    <message>
        <source>C %1</source>
        <translation>收 %1</translation>
    </message>
    <message>
        <source>Vol %1</source>
        <translation>量 %1</translation>
    </message>
</context>
<context>
    <name>SymbolSearch</name>
    <message>
        <source>Add: code or name, e.g. 600519 or 茅台</source>
        <translation>添加：代码或名称，例如 600519 或 茅台</translation>
    </message>
    <message>
        <source>(no data yet)</source>
        <translation>（尚无数据）</translation>
    </message>
</context>
<context>
    <name>TrackRecordModel</name>
    <message>
        <source>Hit</source>
        <translation>命中</translation>
    </message>
    <message>
        <source>Miss</source>
        <translation>未命中</translation>
    </message>
    <message>
        <source>Symbol</source>
        <translation>代码</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Horizon (sessions)</source>
        <translation>期限（交易日）</translation>
    </message>
    <message>
        <source>Return</source>
        <translation>收益</translation>
    </message>
    <message>
        <source>Benchmark</source>
        <translation>基准</translation>
    </message>
    <message>
        <source>Excess</source>
        <translation>超额</translation>
    </message>
    <message>
        <source>Matured</source>
        <translation>已到期</translation>
    </message>
    <message>
        <source>Judged</source>
        <translation>已评判</translation>
    </message>
    <message>
        <source>Hits</source>
        <translation>命中数</translation>
    </message>
    <message>
        <source>Hit rate</source>
        <translation>命中率</translation>
    </message>
    <message>
        <source>Mean return</source>
        <translation>平均收益</translation>
    </message>
    <message>
        <source>Mean excess</source>
        <translation>平均超额</translation>
    </message>
</context>
<context>
    <name>TrackRecordPanel</name>
    <message>
        <source>A-shares</source>
        <translation>A 股</translation>
    </message>
    <message>
        <source>Hong Kong</source>
        <translation>香港</translation>
    </message>
    <message>
        <source>Hit rate by action</source>
        <translation>按操作统计的命中率</translation>
    </message>
    <message>
        <source>Matured calls</source>
        <translation>已到期的判断</translation>
    </message>
    <message>
        <source>Every symbol (type one to filter, e.g. 600519)</source>
        <translation>全部标的（输入代码筛选，如 600519）</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>显示</translation>
    </message>
    <message>
        <source>All symbols</source>
        <translation>全部标的</translation>
    </message>
    <message>
        <source>Symbol</source>
        <translation>代码</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>概要</translation>
    </message>
    <message>
        <source>As of</source>
        <translation>截至</translation>
    </message>
    <message>
        <source>Published calls</source>
        <translation>已发布的判断</translation>
    </message>
    <message>
        <source>Hit rate</source>
        <translation>命中率</translation>
    </message>
    <message>
        <source>Calibration</source>
        <translation>校准</translation>
    </message>
    <message>
        <source>Cost per report</source>
        <translation>每份报告费用</translation>
    </message>
    <message>
        <source>The multi-class Brier score of the reports&apos; up / sideways / down probabilities against what happened (0 is perfect, 2 the worst), beside the score of always forecasting the calibrated table&apos;s base rate. Positive skill means the reports beat the base rate.</source>
        <translation>报告中上涨／震荡／下跌概率相对实际结果的多类别 Brier 分数（0 为完美，2 为最差），并与始终按校准表基础概率预测的分数对比。技能值为正表示报告优于基础概率。</translation>
    </message>
    <message>
        <source>Scoring the published calls…</source>
        <translation>正在评估已发布的判断…</translation>
    </message>
    <message>
        <source>No published report yet: analyse a symbol, then come back once its horizon has passed.</source>
        <translation>尚无已发布的报告：先分析一个标的，待其期限结束后再来查看。</translation>
    </message>
    <message>
        <source>No call has matured yet: a call matures when its horizon of sessions has passed and the bars cover it.</source>
        <translation>尚无到期的判断：期限内的交易日全部过去且行情数据覆盖后，判断才算到期。</translation>
    </message>
    <message>
        <source>{time} Beijing time</source>
        <translation>{time} 北京时间</translation>
    </message>
    <message>
        <source>{0} reports: {1} matured, {2} pending, {3} unscored</source>
        <translation>{0} 份报告：{1} 份已到期，{2} 份待到期，{3} 份无法评估</translation>
    </message>
    <message>
        <source>{0} ({1} hits of {2} judged calls)</source>
        <translation>{0}（{2} 个已评判判断中命中 {1} 个）</translation>
    </message>
    <message>
        <source>no matured call with scenario probabilities yet</source>
        <translation>尚无带情景概率的到期判断</translation>
    </message>
    <message>
        <source>Brier score {0} against {1} for the base rate (skill {2}; {3} calls)</source>
        <translation>Brier 分数 {0}，基础概率为 {1}（技能 {2}；{3} 个判断）</translation>
    </message>
    <message>
        <source>{0} per report ({1} in all over {2} reports)</source>
        <translation>每份报告 {0}（{2} 份报告共 {1}）</translation>
    </message>
    <message>
        <source>— {0} model call(s) of unknown cost are not counted</source>
        <translation>— 另有 {0} 次费用未知的模型调用未计入</translation>
    </message>
    <message>
        <source>No benchmark index for {0}: the official index {1} has no bars in this workspace, so excess returns and hit rates are not computed.</source>
        <translation>{0} 没有基准指数：本工作区没有官方指数 {1} 的行情，因此不计算超额收益和命中率。</translation>
    </message>
    <message>
        <source>{0} calls are measured against {1} {2}, a stand-in: the official index {3} has no bars in this workspace.</source>
        <translation>{0} 的判断以 {1} {2} 作为替代基准衡量：本工作区没有官方指数 {3} 的行情。</translation>
    </message>
    <message>
        <source>{0} calls are measured against {1} {2}.</source>
        <translation>{0} 的判断以 {1} {2} 为基准衡量。</translation>
    </message>
    <message>
        <source>Report {0}</source>
        <translation>报告 {0}</translation>
    </message>
    <message>
        <source>Suspended on the exit session: its last close stands in.</source>
        <translation>到期交易日停牌：以其最后收盘价代替。</translation>
    </message>
</context>
<context>
    <name>WatchlistModel</name>
    <message>
        <source>Stop hit</source>
        <translation>触及止损</translation>
    </message>
    <message>
        <source>Below buy</source>
        <translation>低于买入区</translation>
    </message>
    <message>
        <source>In buy zone</source>
        <translation>在买入区</translation>
    </message>
    <message>
        <source>Between</source>
        <translation>两区之间</translation>
    </message>
    <message>
        <source>In sell zone</source>
        <translation>在卖出区</translation>
    </message>
    <message>
        <source>Above sell</source>
        <translation>高于卖出区</translation>
    </message>
    <message>
        <source>Live quote</source>
        <translation>实时行情</translation>
    </message>
    <message>
        <source>Delayed quote</source>
        <translation>延迟行情</translation>
    </message>
    <message>
        <source>Stale quote: no source gave a fresh one</source>
        <translation>过时行情：没有来源给出最新报价</translation>
    </message>
    <message>
        <source>Last close</source>
        <translation>最新收盘价</translation>
    </message>
    <message>
        <source>Symbol</source>
        <translation>代码</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Last</source>
        <translation>最新价</translation>
    </message>
    <message>
        <source>Change %</source>
        <translation>涨跌幅</translation>
    </message>
    <message>
        <source>Zone</source>
        <translation>区间</translation>
    </message>
    <message>
        <source>Holding</source>
        <translation>持仓</translation>
    </message>
    <message>
        <source>P&amp;L</source>
        <translation>盈亏</translation>
    </message>
    <message>
        <source>Report</source>
        <translation>报告</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
</context>
<context>
    <name>WatchlistPanel</name>
    <message>
        <source>New group…</source>
        <translation>新建分组…</translation>
    </message>
    <message>
        <source>Create a group</source>
        <translation>创建分组</translation>
    </message>
    <message>
        <source>Rename…</source>
        <translation>重命名…</translation>
    </message>
    <message>
        <source>Rename this group</source>
        <translation>重命名此分组</translation>
    </message>
    <message>
        <source>Delete group</source>
        <translation>删除分组</translation>
    </message>
    <message>
        <source>Delete this group</source>
        <translation>删除此分组</translation>
    </message>
    <message>
        <source>Up</source>
        <translation>上移</translation>
    </message>
    <message>
        <source>Move the symbol up</source>
        <translation>上移该证券</translation>
    </message>
    <message>
        <source>Down</source>
        <translation>下移</translation>
    </message>
    <message>
        <source>Move it down</source>
        <translation>下移该证券</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Remove from this group</source>
        <translation>从此分组移除</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Reload prices, zones and reports</source>
        <translation>重新载入价格、区间和报告</translation>
    </message>
    <message>
        <source>Default</source>
        <translation>默认</translation>
    </message>
    <message numerus="yes">
        <source>%n symbol(s)</source>
        <translation>
            <numerusform>%n 只证券</numerusform>
        </translation>
    </message>
    <message>
        <source>New group</source>
        <translation>新建分组</translation>
    </message>
    <message>
        <source>Name of the new group:</source>
        <translation>新分组名称：</translation>
    </message>
    <message>
        <source>Rename group</source>
        <translation>重命名分组</translation>
    </message>
    <message>
        <source>New name:</source>
        <translation>新名称：</translation>
    </message>
    <message>
        <source>Delete the group &apos;%1&apos; and the symbols on it?</source>
        <translation>删除分组“%1”及其中的证券？</translation>
    </message>
    <message>
        <source>Ask a question</source>
        <translation>提问</translation>
    </message>
    <message>
        <source>Your question about %1:</source>
        <translation>你关于 %1 的问题：</translation>
    </message>
    <message>
        <source>Analyze</source>
        <translation>分析</translation>
    </message>
    <message>
        <source>Ask a question…</source>
        <translation>提问…</translation>
    </message>
    <message>
        <source>Quick review</source>
        <translation>快速复盘</translation>
    </message>
    <message>
        <source>Check plan</source>
        <translation>检查计划</translation>
    </message>
    <message>
        <source>Open chart</source>
        <translation>打开图表</translation>
    </message>
    <message>
        <source>Open latest report</source>
        <translation>打开最新报告</translation>
    </message>
    <message>
        <source>No report on this symbol yet</source>
        <translation>该证券还没有报告</translation>
    </message>
    <message>
        <source>Record fill…</source>
        <translation>记录成交…</translation>
    </message>
    <message>
        <source>Move to group</source>
        <translation>移到分组</translation>
    </message>
</context>
<context>
    <name>WelcomeDialog</name>
    <message>
        <source>Welcome to Stock Workbench</source>
        <translation>欢迎使用股票研究工作台</translation>
    </message>
    <message>
        <source>Research A-share and Hong Kong stocks against your own ledger. Everything stays on this computer; the built-in offline model works without any API key.</source>
        <translation>结合你自己的账本研究 A 股与港股。所有数据都留在本机；内置离线模型无需任何 API 密钥即可使用。</translation>
    </message>
    <message>
        <source>Explore the demo market</source>
        <translation>探索演示市场</translation>
    </message>
    <message>
        <source>A fictional market with six years of prices, ready to research offline (示例 / DEMO).</source>
        <translation>一个含六年行情的虚构市场，可直接离线研究（示例 / DEMO）。</translation>
    </message>
    <message>
        <source>Create a new workspace…</source>
        <translation>新建工作区…</translation>
    </message>
    <message>
        <source>An empty workspace in a folder you choose, for your own data.</source>
        <translation>在你选择的文件夹中新建空白工作区，存放你自己的数据。</translation>
    </message>
    <message>
        <source>Open an existing workspace…</source>
        <translation>打开已有工作区…</translation>
    </message>
    <message>
        <source>A folder that already holds a Stock Workbench workspace.</source>
        <translation>一个已包含股票研究工作台工作区的文件夹。</translation>
    </message>
    <message>
        <source>Connect your model…</source>
        <translation>连接你的模型…</translation>
    </message>
    <message>
        <source>Start with the offline model</source>
        <translation>先用离线模型</translation>
    </message>
    <message>
        <source>Research right away without any key; connect a model later from File ▸ Connect Your Model.</source>
        <translation>无需任何密钥即可开始研究；以后可从“文件 ▸ 连接你的模型”连接模型。</translation>
    </message>
    <message>
        <source>DeepSeek, OpenAI, Kimi, Qwen, MiniMax or a local Ollama: choose the provider, paste your API key and test the connection.</source>
        <translation>DeepSeek、OpenAI、Kimi、通义千问、MiniMax 或本地 Ollama：选择服务商，粘贴 API 密钥并测试连接。</translation>
    </message>
    <message>
        <source>Preparing the demo market…</source>
        <translation>正在准备演示市场…</translation>
    </message>
    <message>
        <source>%1 holds no workspace. Choose another folder.</source>
        <translation>%1 中没有工作区，请选择其他文件夹。</translation>
    </message>
    <message>
        <source>Choose an empty folder for a new workspace.</source>
        <translation>请为新工作区选择一个空文件夹。</translation>
    </message>
    <message>
        <source>Opening the workspace…</source>
        <translation>正在打开工作区…</translation>
    </message>
    <message>
        <source>Folder for the new workspace</source>
        <translation>新工作区的文件夹</translation>
    </message>
    <message>
        <source>Workspace folder</source>
        <translation>工作区文件夹</translation>
    </message>
    <message>
        <source>Your workspace is ready. One more step, if you like:</source>
        <translation>工作区已就绪。如果愿意，还有一步：</translation>
    </message>
    <message>
        <source>The workspace could not be opened.</source>
        <translation>无法打开该工作区。</translation>
    </message>
</context>
<context>
    <name>WorkspaceController</name>
    <message>
        <source>Open a workspace folder</source>
        <translation>打开工作区文件夹</translation>
    </message>
    <message>
        <source>Not a workspace</source>
        <translation>不是工作区</translation>
    </message>
    <message>
        <source>%1 holds no workspace.</source>
        <translation>%1 中没有工作区。</translation>
    </message>
    <message>
        <source>Choose an empty folder for the new workspace</source>
        <translation>为新工作区选择一个空文件夹</translation>
    </message>
    <message>
        <source>Folder not empty</source>
        <translation>文件夹不为空</translation>
    </message>
    <message>
        <source>Choose an empty folder.</source>
        <translation>请选择一个空文件夹。</translation>
    </message>
</context>
</TS>
