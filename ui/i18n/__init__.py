"""Translations of the shell: which language to show (Simplified Chinese or English) and loading Qt's files."""
