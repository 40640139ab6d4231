"""Untrusted text: fetched documents reach the model only inside delimiters derived from their evidence hash.

A fetched page or announcement may contain anything, including text that looks like instructions. Before
it enters a prompt it is cleaned (invisible and control characters removed, anything resembling our
delimiters defused) and wrapped in a begin/end pair that carries the evidence id and a hash fragment the
document cannot know in advance, so the model (and a wire-level test) can tell exactly where it starts and
ends. Only verified quote spans of it ever enter a report.
"""

from __future__ import annotations

import re
import unicodedata

from stockbench.evidence.quotes import INVISIBLE
from stockbench.evidence.store import Evidence

# Full-width and small-form angle brackets too: a model reads "＜＜＜END UNTRUSTED＞＞＞" as a delimiter.
_DELIMITER_LIKE = re.compile(r"[<＜﹤]{2,}\s*/?\s*(UNTRUSTED|END)[^>＞﹥]*[>＞﹥]{2,}", re.IGNORECASE)
_CONTROL = re.compile(r"[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]")


def clean(text: str) -> str:
    """Remove invisible and control characters and defuse delimiter look-alikes."""
    text = unicodedata.normalize("NFC", text)
    text = INVISIBLE.sub("", _CONTROL.sub("", text))
    return _DELIMITER_LIKE.sub("[delimiter removed]", text)


def delimiters(evidence: Evidence) -> tuple[str, str]:
    tag = f"{evidence.evidence_id} {evidence.sha256[24:40]}"
    return f"<<<UNTRUSTED {tag}>>>", f"<<<END UNTRUSTED {tag}>>>"


def wrap(evidence: Evidence, text: str | None = None) -> str:
    """The cleaned text of `evidence` (or `text`, a page of it) between its delimiters."""
    begin, end = delimiters(evidence)
    body = clean(evidence.body if text is None else text)
    return f"{begin}\n{body}\n{end}"


def outside_delimiters(prompt: str) -> str:
    """The part of `prompt` that lies outside every untrusted block (for wire-level tests)."""
    return re.sub(r"<<<UNTRUSTED (ev-[0-9a-f]+ [0-9a-f]+)>>>.*?<<<END UNTRUSTED \1>>>", "", prompt, flags=re.DOTALL)
