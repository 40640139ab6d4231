"""Compare two reports on the same symbol section by section: what changed since the previous report.

Plain Python: the comparison is computed from the reports' drafts (their sections), rendered as escaped HTML
side by side with changed lines marked. Report text is never trusted as HTML.
"""

from __future__ import annotations

import difflib
import html
from dataclasses import dataclass
from typing import Any

CHANGED_STYLE = "background-color:rgba(255,196,0,0.28);"


@dataclass(frozen=True)
class SectionChange:
    key: str
    title: str
    before: str  # "" when the section is new
    after: str  # "" when the section was dropped

    @property
    def changed(self) -> bool:
        return self.before != self.after


def _sections(draft: dict[str, Any]) -> dict[str, tuple[str, str]]:
    return {
        str(s["key"]): (str(s.get("title") or s["key"]), str(s.get("text") or "")) for s in draft.get("sections", [])
    }


def compare_sections(previous: dict[str, Any], current: dict[str, Any]) -> list[SectionChange]:
    """Each section of either draft (current order first), with its text before and after."""
    before, after = _sections(previous), _sections(current)
    keys = list(after) + [k for k in before if k not in after]
    return [
        SectionChange(k, (after.get(k) or before[k])[0], before.get(k, ("", ""))[1], after.get(k, ("", ""))[1])
        for k in keys
    ]


def _marked(lines: list[str], changed: set[int]) -> str:
    cells = []
    for i, line in enumerate(lines):
        style = f" style='{CHANGED_STYLE}'" if i in changed else ""
        cells.append(f"<div{style}>{html.escape(line) or '&nbsp;'}</div>")
    return "".join(cells)


def _side_by_side(before: str, after: str) -> tuple[str, str]:
    old, new = before.split("\n") if before else [], after.split("\n") if after else []
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    old_changed, new_changed = set(range(len(old))), set(range(len(new)))
    for block in matcher.get_matching_blocks():
        old_changed -= set(range(block.a, block.a + block.size))
        new_changed -= set(range(block.b, block.b + block.size))
    return _marked(old, old_changed), _marked(new, new_changed)


def comparison_html(changes: list[SectionChange], labels: tuple[str, str], unchanged_label: str) -> str:
    """Side-by-side HTML: `labels` head the previous and current columns; unchanged sections are folded."""
    head = "".join(f"<th width='50%' align='left'>{html.escape(label)}</th>" for label in labels)
    rows = []
    for change in changes:
        title = f"<tr><td colspan='2'><h3>{html.escape(change.title)}</h3></td></tr>"
        if not change.changed:
            rows.append(title + f"<tr><td colspan='2'><i>{html.escape(unchanged_label)}</i></td></tr>")
            continue
        old, new = _side_by_side(change.before, change.after)
        rows.append(title + f"<tr><td valign='top'>{old}</td><td valign='top'>{new}</td></tr>")
    return f"<table width='100%' cellpadding='4'><tr>{head}</tr>{''.join(rows)}</table>"
