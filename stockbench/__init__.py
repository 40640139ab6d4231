"""Stock Workbench engine: research, market rules, ledger and data, with no Qt dependency.

The front door is `stockbench.workbench.Workbench`; the CLI and the desktop shell both go through it.
Importing this package is cheap: heavy libraries (polars, litellm) load only when a feature needs them.
"""

__version__ = "0.1.0"
