"""The ledger screen: positions, cash, fills (with void), orders (with cancel) and corporate actions."""
