"""Which tools each stage of a run may call: names only, so the plan, the engine and the tools share one table."""

from __future__ import annotations

READING = ("methods_read", "evidence_read", "calc")
STAGE_TOOLS: dict[str, tuple[str, ...]] = {
    "scene": ("submit_scene", "methods_read", "evidence_read"),
    "bull": ("submit_arguments", *READING),
    "bear": ("submit_arguments", *READING),
    "analyze": ("submit_diagnosis", "documents_read", "search", *READING),
    "decide": ("submit_judgments", *READING),
    "report": ("submit_report", *READING),
    "publish_fix": ("submit_judgments", "submit_report", "submit_diagnosis", *READING),
}
TOOL_NAMES = frozenset(name for names in STAGE_TOOLS.values() for name in names)
