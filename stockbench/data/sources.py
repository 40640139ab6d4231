"""The data sources one can see and change: per service the endpoints asked in order, the user's changes to them
(base URL, enabled, order), their health, and the circuit breaker that rests a failing host.

The endpoints and the breaker's rule come from resources/data_sources.toml; the user's changes live in the
workspace setting `data.sources`; this module owns the `source_health` table.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Literal, cast
from urllib.parse import urlsplit

from stockbench.config import resources_dir
from stockbench.data.records import DataKind
from stockbench.errors import InternalError, Problem
from stockbench.messages import problem, refusal
from stockbench.store.database import Database
from stockbench.store.settings import DATA_SOURCES, Settings

SOURCES_FILE = "data_sources.toml"
SourceState = Literal["ok", "resting", "failing", "disabled"]
Health = Literal["ok", "degraded", "failing"]
_EXAMPLE = "https://mirror.example.com"
_OPTIONS = "--base-url URL | --enabled true|false | --order N"
SOURCE_KEYS = ("name", "base_url", "state", "last_ok", "last_error", "failures")


@dataclass(frozen=True, slots=True)
class Endpoint:
    """One endpoint of a service as declared: its URL is `base_url` followed by each path (the provider's
    endpoint fields), asked for `kind` of the `markets`."""

    name: str
    kind: DataKind
    provider: str
    markets: tuple[str, ...]
    base_url: str
    paths: Mapping[str, str]
    delay_minutes: int = 0  # how late the source publishes its quotes (0: real time)
    enabled: bool = True  # as declared: an endpoint known to be down ships turned off, for the user to turn on

    @property
    def delayed(self) -> bool:
        return self.delay_minutes > 0

    @property
    def service(self) -> str:
        return self.name.split(".", maxsplit=1)[0]


@dataclass(frozen=True, slots=True)
class BreakerRule:
    failures: int
    cooldown: timedelta
    counted: frozenset[str]


@dataclass(frozen=True, slots=True)
class Choice:
    """The user's change to one endpoint (None: as declared)."""

    base_url: str | None = None
    enabled: bool | None = None
    order: int | None = None

    def as_json(self) -> dict[str, Any]:
        return {"base_url": self.base_url, "enabled": self.enabled, "order": self.order}


@dataclass(frozen=True, slots=True)
class Source:
    """An endpoint as it stands: its effective base URL and place, and its health."""

    endpoint: Endpoint
    base_url: str
    enabled: bool
    order: int  # 1-based place in its service
    state: SourceState
    failures: int
    last_ok: datetime | None
    last_error: str | None
    last_error_at: datetime | None
    resting_until: datetime | None

    @property
    def name(self) -> str:
        return self.endpoint.name

    @property
    def host(self) -> str:
        return host_of(self.base_url)

    def urls(self) -> dict[str, str]:
        """The provider's endpoint fields at the effective base URL."""
        base = self.base_url.rstrip("/")
        return {field: base + path for field, path in self.endpoint.paths.items()}

    def as_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "base_url": self.base_url,
            "state": self.state,
            "last_ok": self.last_ok,
            "last_error": self.last_error,
            "failures": self.failures,
        }


@functools.cache
def _table(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise InternalError(f"cannot read the data sources table {path}: {error}") from error


def declared(path: Path | None = None) -> tuple[Endpoint, ...]:
    """The endpoints of resources/data_sources.toml, in their declared order."""
    rows = _table(path or resources_dir() / SOURCES_FILE)["endpoints"]
    return tuple(
        Endpoint(row["name"], cast("DataKind", row["kind"]), row["provider"], tuple(row["markets"]),
                 row["base_url"], dict(row["paths"]), int(row.get("delay_minutes", 0)), bool(row.get("enabled", True)))
        for row in rows
    )  # fmt: skip


def breaker_rule(path: Path | None = None) -> BreakerRule:
    """The circuit breaker's rule of resources/data_sources.toml."""
    row = _table(path or resources_dir() / SOURCES_FILE)["breaker"]
    return BreakerRule(int(row["failures"]), timedelta(minutes=float(row["cooldown_minutes"])),
                       frozenset(row["counted"]))  # fmt: skip


def host_of(url: str) -> str:
    """`host[:port]` of a URL: the unit the breaker rests (loopback test servers differ by port)."""
    return urlsplit(url).netloc.lower()


def base_url_problems(url: str) -> list[Problem]:
    """What is wrong with `url` as a base URL: http(s), a host, no user name or password, no query or fragment.
    A loopback address is accepted: it is only ever set explicitly, by the person (a local proxy or mirror)."""
    parts = urlsplit(url.strip())
    if parts.username or parts.password:  # never repeat a password, not even in a message
        url = parts._replace(netloc=parts.netloc.rsplit("@", 1)[-1]).geturl()
    found = []
    if parts.scheme not in {"http", "https"}:
        found.append(problem("source_url_scheme", location="base_url", url=url, schemes="http/https", example=_EXAMPLE))
    if not parts.hostname:
        found.append(problem("source_url_host", location="base_url", url=url, example=_EXAMPLE))
    if parts.username or parts.password:
        found.append(problem("source_url_credentials", location="base_url"))
    if parts.query or parts.fragment:
        found.append(problem("source_url_query", location="base_url", url=url))
    return found


class SourceBook:
    """The endpoints as the workspace has them: declared, changed by the user, and their health."""

    def __init__(
        self,
        db: Database,
        now: Callable[[], datetime] | None = None,
        endpoints: Sequence[Endpoint] | None = None,
        rule: BreakerRule | None = None,
    ) -> None:
        self._db = db
        self._now = now or (lambda: datetime.now(UTC))
        self._declared = tuple(endpoints) if endpoints is not None else declared()
        self.rule = rule or breaker_rule()

    # ---- reading ------------------------------------------------------------------------------------------

    def _choices(self) -> dict[str, Choice]:
        stored = Settings(self._db).get(DATA_SOURCES)
        return {name: Choice(row.get("base_url"), _flag(row.get("enabled")), row.get("order"))
                for name, row in stored.items()}  # fmt: skip

    def _health(self) -> dict[str, tuple[Any, ...]]:
        rows = self._db.fetchall(
            "SELECT name, host, failures, last_ok, last_error, last_error_at, resting_until FROM source_health"
        )
        return {row[0]: row[1:] for row in rows}

    def sources(self) -> list[Source]:
        """Every endpoint, by service (in declared order of services) and place within it."""
        choices, health, now = self._choices(), self._health(), self._now()
        resting: dict[str, datetime] = {}
        for host, _, _, _, _, until in health.values():
            if until is not None and until > now:
                resting[host] = max(until, resting.get(host, until))
        found = []
        for service in dict.fromkeys(e.service for e in self._declared):
            members = [e for e in self._declared if e.service == service]
            for place, endpoint in enumerate(_placed(members, choices), 1):
                found.append(self._source(endpoint, place, choices.get(endpoint.name, Choice()),
                                          health.get(endpoint.name), resting))  # fmt: skip
        return found

    def _source(
        self, endpoint: Endpoint, place: int, choice: Choice, row: tuple[Any, ...] | None, resting: dict[str, datetime]
    ) -> Source:
        base = choice.base_url or endpoint.base_url
        enabled = endpoint.enabled if choice.enabled is None else choice.enabled
        _, failures, last_ok, last_error, last_error_at, _ = row or ("", 0, None, None, None, None)
        until = resting.get(host_of(base))
        state: SourceState = "disabled" if not enabled else "resting" if until else "failing" if failures else "ok"
        return Source(endpoint, base, enabled, place, state, int(failures), _utc(last_ok), last_error,
                      _utc(last_error_at), until)  # fmt: skip

    def source(self, name: str) -> Source:
        for found in self.sources():
            if found.name == name:
                return found
        names = ", ".join(e.name for e in self._declared)
        raise refusal("source_not_changed", [problem("source_unknown", location="name", name=name, names=names)],
                      name=name)  # fmt: skip

    def chain(self, kind: DataKind, market: str) -> list[Source]:
        """The enabled endpoints for `kind` of `market`, in order (resting ones included: the caller skips them
        and says so)."""
        return sorted(
            (s for s in self.sources() if s.enabled and s.endpoint.kind == kind and market in s.endpoint.markets),
            key=lambda s: s.order,
        )

    def health(self) -> Health:
        """ok when every enabled endpoint is ok; failing when some service of kind has no endpoint that is not
        resting or failing; degraded otherwise."""
        sources = [s for s in self.sources() if s.enabled]
        if all(s.state == "ok" for s in sources):
            return "ok"
        for service in dict.fromkeys(s.endpoint.service for s in sources):
            if all(s.state != "ok" for s in sources if s.endpoint.service == service):
                return "failing"
        return "degraded"

    # ---- changing -----------------------------------------------------------------------------------------

    def change(
        self, name: str, *, base_url: str | None = None, enabled: bool | None = None, order: int | None = None
    ) -> Source:
        """Change one endpoint; every problem is reported at once (a RuleViolation), nothing is stored then.
        An empty base URL restores the declared one."""
        names = [e.name for e in self._declared]
        found: list[Problem] = []
        if name not in names:
            found.append(problem("source_unknown", location="name", name=name, names=", ".join(names)))
        if base_url is None and enabled is None and order is None:
            found.append(problem("source_no_change", location="name", options=_OPTIONS))
        if base_url:
            found.extend(base_url_problems(base_url))
        if order is not None and order < 1:
            found.append(problem("source_order", location="order", order=order))
        if found:
            raise refusal("source_not_changed", found, name=name)
        stored = Settings(self._db).get(DATA_SOURCES)
        now = self._choices().get(name, Choice())
        if base_url is not None:
            now = Choice(base_url.strip().rstrip("/") or None, now.enabled, now.order)
        if enabled is not None:
            now = Choice(now.base_url, enabled, now.order)
        if order is not None:
            now = Choice(now.base_url, now.enabled, order)
        Settings(self._db).set(DATA_SOURCES, {**stored, name: now.as_json()})
        if base_url is not None:  # a new address starts with a clean record
            with self._db.transaction() as cur:
                cur.execute("DELETE FROM source_health WHERE name = ?", [name])
        return self.source(name)

    # ---- the breaker --------------------------------------------------------------------------------------

    def succeeded(self, source: Source) -> None:
        """A good answer: the failures in a row end and the host's rest (if any) is over for this endpoint."""
        self._write(source, failures=0, last_ok=self._now(), last_error=None, last_error_at=None, until=None)

    def failed(self, source: Source, kind: str, reason: str) -> None:
        """A failure; a counted one adds to the failures in a row, and the Nth rests the host for the cooldown."""
        if kind not in self.rule.counted:
            return
        now = self._now()
        row = self._health().get(source.name)
        failures = (int(row[1]) if row else 0) + 1
        until = now + self.rule.cooldown if failures >= self.rule.failures else None
        self._write(source, failures=failures, last_ok=row[2] if row else None, last_error=reason[:500],
                    last_error_at=now, until=until)  # fmt: skip

    def resting_until(self, source: Source) -> datetime | None:
        """Until when the source's host rests (None: it may be asked)."""
        until = self._db.scalar(
            "SELECT max(resting_until) FROM source_health WHERE host = ? AND resting_until > ?",
            [source.host, self._now()],
        )
        return _utc(until)

    def _write(
        self,
        source: Source,
        *,
        failures: int,
        last_ok: datetime | None,
        last_error: str | None,
        last_error_at: datetime | None,
        until: datetime | None,
    ) -> None:
        with self._db.transaction() as cur:
            old = cur.execute(
                "SELECT last_error, last_error_at FROM source_health WHERE name = ?", [source.name]
            ).fetchone()
            if last_error is None and old is not None:
                last_error, last_error_at = old
            cur.execute(
                "INSERT INTO source_health (name, host, failures, last_ok, last_error, last_error_at, resting_until)"
                " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (name) DO UPDATE SET host = excluded.host,"
                " failures = excluded.failures, last_ok = excluded.last_ok, last_error = excluded.last_error,"
                " last_error_at = excluded.last_error_at, resting_until = excluded.resting_until",
                [source.name, source.host, failures, last_ok, last_error, last_error_at, until],
            )


def _placed(members: list[Endpoint], choices: Mapping[str, Choice]) -> list[Endpoint]:
    """The endpoints of one service in order: one the user gave place N to moves there, the rest keep theirs."""
    placed = list(members)
    moved = sorted((choices[e.name].order or 0, i, e) for i, e in enumerate(members)
                   if e.name in choices and choices[e.name].order)  # fmt: skip
    for order, _, endpoint in moved:
        placed.remove(endpoint)
        placed.insert(min(order, len(placed) + 1) - 1, endpoint)
    return placed


def _flag(value: object) -> bool | None:
    """A stored `enabled`: None (as declared) when the user never set it."""
    return None if value is None else bool(value)


def _utc(value: datetime | None) -> datetime | None:
    return value.astimezone(UTC) if value is not None else None
