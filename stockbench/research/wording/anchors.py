"""The zone anchors' words in the report's catalogue: the one catalogue's (stockbench.messages.ANCHORS), which the
scan and the zones command say too."""

from __future__ import annotations

from stockbench.messages import ANCHORS
from stockbench.research.wording.entry import Entry

WORDS: dict[str, Entry] = {key: Entry(words.zh, words.en) for key, words in ANCHORS.items()}
