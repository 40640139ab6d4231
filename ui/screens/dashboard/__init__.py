"""The dashboard: cash and equity, positions, open orders with the latest report's decision, zone alerts, scan."""
