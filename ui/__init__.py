"""The PySide6 desktop shell. It calls the engine (`stockbench.workbench`); the engine never imports it."""
