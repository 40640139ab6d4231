"""The method handbook: loaded from `handbook/`, identified by its content hash, locked for a whole run.

The main handbook (Simplified Chinese, canonical) goes into the system context; the reference documents
appear there only as a table of contents (title and one-paragraph summary) and are read on demand, a page
at a time, through the `methods.read` tool. Every version a run uses is stored in the workspace, so a run
can resume and be audited with exactly the text it was given.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from stockbench.config import handbook_dir
from stockbench.errors import InternalError, NotFound, UserError
from stockbench.messages import user_error
from stockbench.store.database import Database

MAIN_ZH = "zh/handbook.md"
MAIN_EN = "en/handbook.md"
PAGE_CHARS = 6000
_FRONT = re.compile(r"\A---\n(.*?)\n---\n", re.DOTALL)


class HandbookUnavailable(UserError):
    code = "handbook_unavailable"


@dataclass(frozen=True)
class HandbookVersion:
    """A handbook version stored in the workspace (every version a run used), and how many runs used it."""

    version: str
    stored_at: datetime
    runs: int
    current: bool


@dataclass(frozen=True, slots=True)
class Reference:
    slug: str
    title: str
    title_en: str
    summary: str
    text: str

    @property
    def pages(self) -> int:
        return max(1, -(-len(self.text) // PAGE_CHARS))


def _front_matter(text: str) -> tuple[dict[str, str], str]:
    match = _FRONT.match(text)
    if not match:
        return {}, text
    fields: dict[str, str] = {}
    for line in match.group(1).splitlines():
        key, sep, value = line.partition(":")
        if sep:
            fields[key.strip()] = value.strip()
    return fields, text[match.end() :]


def content_hash(files: dict[str, str]) -> str:
    """The version of a handbook: SHA-256 over its files' paths and texts, in path order."""
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(path.encode("utf-8") + b"\0" + files[path].encode("utf-8") + b"\0")
    return digest.hexdigest()[:16]


@dataclass(frozen=True)
class Handbook:
    version: str
    files: dict[str, str]

    @classmethod
    def load(cls, folder: Path | None = None) -> Handbook:
        """The handbook as it is on disk now."""
        folder = folder or handbook_dir()
        if not (folder / MAIN_ZH).is_file():
            raise user_error(HandbookUnavailable, "handbook_missing", path=folder / MAIN_ZH)
        files = {
            str(p.relative_to(folder)).replace("\\", "/"): p.read_text(encoding="utf-8")
            for p in sorted(folder.rglob("*"))
            if p.is_file() and p.suffix in {".md", ".toml"}
        }
        return cls(content_hash(files), files)

    @classmethod
    def stored(cls, db: Database, version: str) -> Handbook:
        """A version a run used, from the workspace; refuses when it is gone."""
        raw = db.scalar("SELECT files FROM handbook_versions WHERE version = ?", [version])
        if raw is None:
            raise user_error(HandbookUnavailable, "handbook_version_gone", version=version)
        files = json.loads(raw)
        if content_hash(files) != version:
            raise InternalError(f"stored handbook {version} does not match its hash")
        return cls(version, files)

    @classmethod
    def versions(cls, db: Database) -> tuple[HandbookVersion, ...]:
        """The versions stored in the workspace, newest first, with how many runs used each."""
        current = cls.load().version
        rows = db.fetchall(
            "SELECT h.version, h.stored_at, count(r.run_id) FROM handbook_versions h LEFT JOIN runs r "
            "ON r.handbook_version = h.version GROUP BY h.version, h.stored_at ORDER BY h.stored_at DESC"
        )
        return tuple(HandbookVersion(v, at, int(n), v == current) for v, at, n in rows)

    def store(self, db: Database, at: datetime) -> None:
        with db.transaction() as cur:
            cur.execute(
                "INSERT INTO handbook_versions (version, files, stored_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                [self.version, json.dumps(self.files, ensure_ascii=False, sort_keys=True), at],
            )

    @property
    def main(self) -> str:
        return self.files[MAIN_ZH]

    @property
    def main_en(self) -> str:
        return self.files.get(MAIN_EN, "")

    def references(self) -> dict[str, Reference]:
        found = {}
        for path, text in self.files.items():
            if path.startswith("references/") and path.endswith(".md"):
                meta, body = _front_matter(text)
                slug = Path(path).stem
                found[slug] = Reference(
                    slug, meta.get("title", slug), meta.get("title_en", ""), meta.get("summary", ""), body
                )
        return dict(sorted(found.items()))

    def table_of_contents(self) -> str:
        lines = ["# 参考资料目录 (read with the methods_read tool: slug and page)"]
        for ref in self.references().values():
            lines.append(f"- `{ref.slug}` {ref.title} ({ref.pages} page(s)): {ref.summary}")
        return "\n".join(lines)

    def read(self, slug: str, page: int = 1) -> tuple[str, int]:
        """One page of a reference document and the number of pages."""
        refs = self.references()
        if slug not in refs:
            raise user_error(NotFound, "handbook_no_reference", reference=slug)
        ref = refs[slug]
        if not 1 <= page <= ref.pages:
            raise user_error(NotFound, "handbook_no_page", reference=slug, pages=ref.pages, page=page)
        return ref.text[(page - 1) * PAGE_CHARS : page * PAGE_CHARS], ref.pages
