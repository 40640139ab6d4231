"""The watchlist screen: groups of symbols with prices, zone positions, holdings and the latest reports."""
