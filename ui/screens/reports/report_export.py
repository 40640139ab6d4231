"""A report to PDF: its markdown laid out by QTextDocument and printed by QPdfWriter, off the GUI thread.

QTextDocument and QPdfWriter are reentrant, so a worker thread may build and print its own document. Raw HTML
in the markdown is ignored: a report's text is never trusted as markup.
"""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QMarginsF
from PySide6.QtGui import QPageLayout, QPageSize, QPdfWriter, QTextDocument

MARKDOWN_FEATURES = QTextDocument.MarkdownFeature.MarkdownDialectGitHub | QTextDocument.MarkdownFeature.MarkdownNoHTML
PDF_DPI = 300
MARGIN_MM = 18
_BLOCK_START = re.compile(r"\s*([-*+>#|]|```|\d+[.)])")


def with_line_breaks(markdown: str) -> str:
    """`markdown` with its single newlines kept as line breaks (reports put one item per line, as plain text
    would), by ending such lines with the markdown hard break; block starts (lists, headings, quotes) need none."""
    lines = markdown.split("\n")
    out = []
    for line, following in zip(lines, [*lines[1:], ""], strict=True):
        joins = line.strip() and following.strip() and not _BLOCK_START.match(following)
        out.append(line + "  " if joins and not line.lstrip().startswith(("#", "|", "```")) else line)
    return "\n".join(out)


def write_pdf(markdown: str, target: Path, *, title: str = "", creator: str = "") -> Path:
    """Lay out `markdown` on A4 pages and write them to `target` (its folder is created)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    writer = QPdfWriter(str(target))
    writer.setResolution(PDF_DPI)
    writer.setTitle(title)
    writer.setCreator(creator)
    margins = QMarginsF(MARGIN_MM, MARGIN_MM, MARGIN_MM, MARGIN_MM)
    portrait = QPageLayout.Orientation.Portrait
    layout = QPageLayout(QPageSize(QPageSize.PageSizeId.A4), portrait, margins, QPageLayout.Unit.Millimeter)
    writer.setPageLayout(layout)
    document = QTextDocument()
    document.setMarkdown(with_line_breaks(markdown), MARKDOWN_FEATURES)
    document.print_(writer)
    del writer  # the file is complete once the writer is gone
    return target
