"""The program's half of the research: indicators, valuation, states, zones, backtests, scenarios, sizing, scan.

Everything here is computed from data and rule tables, reproducibly, vectorised with polars across symbols.
"""
