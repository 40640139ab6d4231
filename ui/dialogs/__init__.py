"""The shell's dialogs: each a window of its own over the front door (stockbench.workbench)."""
