"""cninfo (巨潮资讯): A-share announcement lists and their text, extracted from the PDF with pypdf.

- orgId: looked up in www.cninfo.com.cn/new/data/szse_stock.json (`stockList` of {code, orgId, ...}); never
  derived from the code, since the pattern does not hold for every company.
- List: POST form to /new/hisAnnouncement/query (stock=CODE,ORGID, seDate=FROM~TO, column=szse,
  tabName=fulltext, pageSize=30, pageNum=N ...); the answer has totalAnnouncement, hasMore and `announcements`
  (announcementId, announcementTitle with <em> highlights, announcementTime in ms, announcementType,
  adjunctUrl). The query is sent with the Origin header the site's own page sends (a peer reports that without
  it the answer is silently empty). A period with no announcements is a real, empty answer only in the full
  shape (totalAnnouncement 0, announcements null or [], hasMore false); an answer missing any of those keys, or
  announcing rows it does not hold, is a failure, and a firewall page instead of JSON is "blocked": never
  "no announcements".
- Text: static.cninfo.com.cn/ + adjunctUrl, fetched through the guarded document fetch.
"""

from __future__ import annotations

import functools
import io
import re
import threading
from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any, ClassVar

from stockbench.clock import MARKET_TZ
from stockbench.data.http import HttpClient, Target, looks_like_page
from stockbench.data.providers.base import PayloadError, ProviderBase, instrument, is_a_share_stock
from stockbench.data.records import Announcement, DataKind
from stockbench.market.instruments import Instrument

SOURCE = "cninfo"
PAGE_SIZE = 30
MAX_PAGES = 200
AJAX = {
    "X-Requested-With": "XMLHttpRequest",
    "Origin": "https://www.cninfo.com.cn",
    "Referer": "https://www.cninfo.com.cn/new/disclosure",
}
_PAGE_KEYS = ("totalAnnouncement", "announcements", "hasMore")
_TAG = re.compile(r"<[^>]+>")


@dataclass(frozen=True, slots=True)
class CninfoEndpoints:
    stock_list: str = "https://www.cninfo.com.cn/new/data/szse_stock.json"
    query: str = "https://www.cninfo.com.cn/new/hisAnnouncement/query"
    static: str = "https://static.cninfo.com.cn/"

    @classmethod
    def at(cls, base: str) -> CninfoEndpoints:
        """The same paths on another base URL (the local replay server in tests)."""
        base = base.rstrip("/")
        return cls(f"{base}/new/data/szse_stock.json", f"{base}/new/hisAnnouncement/query", f"{base}/static/")


def parse_org_ids(payload: Any) -> dict[str, str]:
    """code -> orgId from szse_stock.json."""
    stocks = payload.get("stockList") if isinstance(payload, dict) else None
    if not isinstance(stocks, list) or not stocks:
        raise PayloadError("'stockList' is missing or empty")
    ids = {str(s.get("code")): str(s.get("orgId")) for s in stocks if isinstance(s, dict) and s.get("orgId")}
    if not ids:
        raise PayloadError("no orgId in 'stockList'")
    return ids


@dataclass(frozen=True, slots=True)
class AnnouncementPage:
    items: list[Announcement]
    rows: int  # rows on the page, before keeping only the company's own
    total: int
    has_more: bool


def parse_announcement_page(payload: Any, inst: Instrument, static: str) -> AnnouncementPage:
    """One page of hisAnnouncement/query; `announcements: null` with a total of 0 is a genuine empty page."""
    if not isinstance(payload, dict):
        raise PayloadError("the answer is not an announcement page")
    missing = [key for key in _PAGE_KEYS if key not in payload]
    if missing:
        raise PayloadError(f"the answer has no {', '.join(repr(key) for key in missing)}: not a full page")
    total = payload["totalAnnouncement"]
    if not isinstance(total, int) or isinstance(total, bool) or total < 0:
        raise PayloadError(f"'totalAnnouncement' is not a count: {str(total)[:20]!r}")
    rows = payload["announcements"] or []
    if not isinstance(rows, list):
        raise PayloadError("'announcements' is not a list")
    if not rows and (total or payload["hasMore"]):
        raise PayloadError(f"no rows on the page though {total} announcements are announced")
    items = [_announcement(row, inst, static) for row in rows if _same_company(row, inst)]
    return AnnouncementPage(items, len(rows), total, bool(payload.get("hasMore")))


def _same_company(row: Any, inst: Instrument) -> bool:
    if not isinstance(row, dict):
        raise PayloadError("an announcement is not an object")
    return str(row.get("secCode") or inst.code) == inst.code


def _announcement(row: dict[str, Any], inst: Instrument, static: str) -> Announcement:
    ident, adjunct, millis = row.get("announcementId"), row.get("adjunctUrl"), row.get("announcementTime")
    if not ident or not adjunct or not isinstance(millis, int | Decimal):
        raise PayloadError(f"announcement {ident!r} lacks its id, adjunctUrl or announcementTime")
    published = datetime.fromtimestamp(int(millis) / 1000, tz=UTC).astimezone(MARKET_TZ["CN"])
    return Announcement(
        symbol=inst.symbol,
        source_id=str(ident),
        published_at=published,
        title=_TAG.sub("", str(row.get("announcementTitle") or "")).strip(),
        category=str(row.get("announcementType") or ""),
        url=static + str(adjunct).lstrip("/"),
        source=SOURCE,
    )


def pdf_text(data: bytes) -> str:
    """The text of a PDF; a firewall page instead of the PDF is "blocked", a PDF without text "empty"."""
    if not data.lstrip().startswith(b"%PDF-"):
        if looks_like_page(data[:4096].decode("utf-8", "replace")):
            raise PayloadError("an HTML page came back instead of the PDF", "blocked")
        raise PayloadError("the document is not a PDF")
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    try:
        reader = PdfReader(io.BytesIO(data))
        text = "\n".join(page.extract_text() or "" for page in reader.pages)
    except (PyPdfError, ValueError, KeyError, TypeError) as exc:
        raise PayloadError(f"the PDF cannot be read: {type(exc).__name__}: {exc}") from None
    if not text.strip():
        raise PayloadError("the PDF has no extractable text (a scanned image?)", "empty")
    return text


class CninfoProvider(ProviderBase):
    """cninfo announcements for A-shares (lists and full text)."""

    name: ClassVar[str] = SOURCE
    kinds: ClassVar[frozenset[DataKind]] = frozenset({"announcements"})

    def __init__(self, http: HttpClient, endpoints: CninfoEndpoints | None = None) -> None:
        super().__init__(http)
        self.endpoints = endpoints or CninfoEndpoints()
        self._org_ids: dict[str, str] | None = None
        self._lock = threading.Lock()

    def announcements(self, symbol: str, start: date, end: date) -> list[Announcement]:
        inst = instrument(symbol)
        if not is_a_share_stock(inst):
            raise self.unsupported("announcements", symbol, "cninfo announcements cover A-share stocks only")
        target = self.target("announcements", symbol)
        org_id = self._org_id(target, inst)
        form = {
            "pageSize": str(PAGE_SIZE),
            "column": "szse",
            "tabName": "fulltext",
            "plate": "",
            "stock": f"{inst.code},{org_id}",
            "searchkey": "",
            "secid": "",
            "category": "",
            "trade": "",
            "seDate": f"{start.isoformat()}~{end.isoformat()}",
            "sortName": "",
            "sortType": "",
            "isHLtitle": "true",
        }
        return self._pages(target, inst, form)

    def announcement_text(self, announcement: Announcement) -> str:
        target = self.target("announcements", announcement.symbol)
        data = self.http.fetch_document(target, announcement.url)
        return self.parsed(target, announcement.url, lambda: pdf_text(data))

    def _org_id(self, target: Target, inst: Instrument) -> str:
        """The company's orgId from the stock list (kept; fetched again once when a code is missing from it)."""
        with self._lock:
            ids = self._org_ids
        if ids is None or inst.code not in ids:
            url = self.endpoints.stock_list
            payload = self.http.get_json(target, url)
            ids = self.parsed(target, url, lambda: parse_org_ids(payload))
            with self._lock:
                self._org_ids = ids
        if inst.code not in ids:
            raise target.failure("unknown_symbol", f"cninfo's stock list has no {inst.code}")
        return ids[inst.code]

    def _pages(self, target: Target, inst: Instrument, form: dict[str, str]) -> list[Announcement]:
        url, static = self.endpoints.query, self.endpoints.static
        found: dict[str, Announcement] = {}
        for page_number in range(1, MAX_PAGES + 1):
            payload = self.http.post_form_json(target, url, {**form, "pageNum": str(page_number)}, headers=AJAX)
            page = self.parsed(target, url, functools.partial(parse_announcement_page, payload, inst, static))
            found.update({item.source_id: item for item in page.items})
            if not page.has_more or page_number * PAGE_SIZE >= page.total:
                return sorted(found.values(), key=lambda item: (item.published_at, item.source_id))
            if not page.rows:
                raise target.failure("unparseable", f"page {page_number} is empty though {page.total} are announced")
        raise target.failure("unparseable", f"more than {MAX_PAGES} pages of announcements", url=url)
