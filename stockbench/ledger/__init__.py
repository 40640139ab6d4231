"""The user's books: accounts, cash, fills, positions with T+1 sellable, orders and corporate actions.

Entries are immutable and append-only; a correction is a void with a reason. Positions are a replay of
the entries, materialised after every write. Nothing outside this package writes ledger tables.
"""
