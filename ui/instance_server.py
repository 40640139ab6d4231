"""One desktop instance per workspace: the first start listens on a local socket named for its workspace folder;
a later start on the same folder hands its request to it, waits for the acknowledgement and exits 0 without a
window, while the running window comes forward and acts on the request. Different folders run side by side.

`claim_instance(home, request)` is what every start calls: None when a running instance took the request, else
the listening `InstanceServer`. A socket name left behind by a killed process (a Unix socket file nobody answers
on) is removed after the connection to it fails; the decision is made under a lock file, so two starts at the
same moment cannot both listen, and neither removes the other's socket.
"""

from __future__ import annotations

import getpass
import hashlib
import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from PySide6.QtCore import QDir, QEventLoop, QLockFile, QObject, QTimer, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket

log = logging.getLogger(__name__)

PROTOCOL = 1
ACK = b"ok\n"
REFUSED = b"refused\n"
CONNECT_TIMEOUT_MS = 1000
ANSWER_TIMEOUT_MS = 5000  # the running window answers from its event loop; a busy GUI thread may take a moment
CLAIM_LOCK_TIMEOUT_MS = 5000
MAX_REQUEST_BYTES = 64 * 1024
HandOver = Literal["handed", "absent", "silent"]


def server_name(home: Path) -> str:
    """The local socket name for the workspace in `home`: one per user and folder (short: a Unix socket path has a
    length limit)."""
    try:
        user = getpass.getuser()
    except (OSError, KeyError):  # no user name in the environment or the password database
        user = ""
    digest = hashlib.sha256(f"{user}\0{home.expanduser().resolve()}".encode()).hexdigest()[:24]
    return f"stockbench-{digest}"


@dataclass(frozen=True, slots=True)
class StartRequest:
    """What a start of the desktop app asked for: come forward, on the workspace its command line named (None: the
    one the window shows)."""

    home: Path | None = None

    def encode(self) -> bytes:
        body = {"protocol": PROTOCOL, "action": "show", "home": str(self.home) if self.home is not None else None}
        return json.dumps(body).encode("utf-8") + b"\n"

    @classmethod
    def decode(cls, data: bytes) -> StartRequest | None:
        """The request in one line of `data`, or None when it is not one this version understands."""
        try:
            body = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            return None
        if not isinstance(body, dict) or body.get("protocol") != PROTOCOL or body.get("action") != "show":
            return None
        home = body.get("home")
        if home is not None and not isinstance(home, str):
            return None
        return cls(Path(home) if home else None)


class InstanceServer(QObject):
    """Listens for later starts on the socket named for the shown workspace; `requested(StartRequest)` arrives on
    the GUI thread after the start has been acknowledged."""

    requested = Signal(object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.server = QLocalServer(self)
        self.server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)  # nobody else may connect
        self.server.newConnection.connect(self._accept)
        self.name = ""
        self.recovered_stale = False  # a dead instance's socket name was removed before listening

    def listen(self, home: Path) -> bool:
        """Listen under `home`'s name (a name nobody answers on is removed first); False if another listens."""
        name = server_name(home)
        if name == self.name and self.server.isListening():
            return True
        with _ClaimLock(name):
            if hand_over(name, None) != "absent":
                return False
            return self._listen(name)

    def _listen(self, name: str) -> bool:
        """Listen on `name`, which nobody answered on: a socket file there is a dead instance's and goes first."""
        self.server.close()
        self.name = ""
        if Path(QDir.temp().filePath(name)).exists():  # where a Unix socket of that name lives (no pipe file)
            log.info("removing the instance socket %s a process that is gone left behind", name)
            self.recovered_stale = QLocalServer.removeServer(name)
        if not self.server.listen(name):
            log.warning("cannot listen on %s: %s", name, self.server.errorString())
            return False
        self.name = name
        return True

    def close(self) -> None:
        self.server.close()
        self.name = ""

    def _accept(self) -> None:
        while (connection := self.server.nextPendingConnection()) is not None:
            buffer = bytearray()
            connection.readyRead.connect(lambda c=connection, b=buffer: self._read(c, b))
            connection.disconnected.connect(connection.deleteLater)

    def _read(self, connection: QLocalSocket, buffer: bytearray) -> None:
        buffer.extend(bytes(connection.readAll().data()))
        if b"\n" not in buffer and len(buffer) < MAX_REQUEST_BYTES:
            return
        request = StartRequest.decode(bytes(buffer).split(b"\n", 1)[0])
        connection.write(ACK if request is not None else REFUSED)
        connection.flush()
        connection.disconnectFromServer()
        if request is None:
            log.warning("ignored a start request this version does not understand")
            return
        self.requested.emit(request)


class _ClaimLock:
    """A lock file beside the socket name while a start decides whether to hand over or listen (a stale lock of a
    killed start is taken over by QLockFile itself)."""

    def __init__(self, name: str) -> None:
        self.lock = QLockFile(QDir.temp().filePath(f"{name}.lock"))

    def __enter__(self) -> None:
        if not self.lock.tryLock(CLAIM_LOCK_TIMEOUT_MS):
            log.warning("the start lock %s stayed busy; deciding without it", self.lock.error())

    def __exit__(self, *_exc: object) -> None:
        self.lock.unlock()


def hand_over(name: str, request: StartRequest | None) -> HandOver:
    """Give `request` to the instance listening on `name`: "handed" once it acknowledged, "absent" when nobody
    listens, "silent" when it took the connection but did not answer in time. With no request, only probe."""
    socket = QLocalSocket()
    socket.connectToServer(name)
    if not socket.waitForConnected(CONNECT_TIMEOUT_MS):
        return "absent"
    if request is None:
        socket.abort()
        return "silent"  # someone listens; the caller must not take the name
    socket.write(request.encode())
    answer = bytearray()
    loop = QEventLoop()  # not waitForReadyRead: the instance may be in this very thread (the tests) and must run

    def read() -> None:
        answer.extend(bytes(socket.readAll().data()))
        if b"\n" in answer:
            loop.quit()

    socket.readyRead.connect(read)
    socket.disconnected.connect(loop.quit)
    QTimer.singleShot(ANSWER_TIMEOUT_MS, loop.quit)
    loop.exec()
    answer.extend(bytes(socket.readAll().data()))
    socket.abort()
    return "handed" if bytes(answer).startswith(ACK) else "silent"


def claim_instance(home: Path, request: StartRequest) -> InstanceServer | None:
    """None when an instance already shows `home` and took `request`; else a server listening under `home`'s name
    (not listening when an instance holds the name but does not answer: that start goes on alone)."""
    name = server_name(home)
    server = InstanceServer()
    with _ClaimLock(name):
        outcome = hand_over(name, request)
        if outcome == "handed":
            server.deleteLater()
            return None
        if outcome == "silent":
            log.warning("the instance on %s took the start request but did not answer", home)
        else:
            server._listen(name)
    return server
