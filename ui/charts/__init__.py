"""Charts: the only package that draws with pyqtgraph (palette and chart_data stay free of it)."""
