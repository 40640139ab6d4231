"""Widgets the screens and dialogs share (the status bar, small shared controls)."""
