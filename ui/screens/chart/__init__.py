"""The chart screen: one symbol's candlesticks with its zones, stop, fills, open orders and reports."""
