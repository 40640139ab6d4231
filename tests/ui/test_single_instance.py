"""One window per workspace (issue 19.8): a second start on the same workspace used to open a second, empty window
with an English message about `--home DIR`. Now it hands its request to the running window and exits 0."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QDir, QSettings
from PySide6.QtNetwork import QLocalServer, QLocalSocket
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from stockbench.cli.main import run
from ui.app import _serve
from ui.instance_server import InstanceServer, StartRequest, claim_instance, hand_over, server_name
from ui.main_window import MainWindow

SUBPROCESS_LIMIT_S = 10


@pytest.fixture
def first(qtbot: QtBot, demo_home: Path) -> Iterator[tuple[MainWindow, InstanceServer, list[StartRequest]]]:
    """The first instance, as run_desktop builds it: its server claimed for the demo copy, its window attached."""
    server = claim_instance(demo_home, StartRequest())
    assert server is not None and server.server.isListening()
    window = MainWindow(settings=QSettings())
    qtbot.addWidget(window)
    _serve(server, window)
    received: list[StartRequest] = []
    server.requested.connect(received.append)
    with qtbot.waitSignal(window.workspace_attached, timeout=30_000):
        window.open_workspace(demo_home)
    window.showMinimized()
    yield window, server, received
    server.close()
    window.shutdown()


def _windows(app: QApplication) -> list[MainWindow]:
    return [w for w in app.topLevelWidgets() if isinstance(w, MainWindow)]


def test_a_second_start_on_the_same_workspace_hands_over_and_exits_0(
    qapp: QApplication, first: tuple[MainWindow, InstanceServer, list[StartRequest]], demo_home: Path
) -> None:
    window, _server, received = first
    before = _windows(qapp)
    assert run(["--home", str(demo_home)]) == 0  # what a real second process runs, here in-process
    assert _windows(qapp) == before  # no second window
    assert received == [StartRequest(demo_home.resolve())]
    assert not window.isMinimized()  # brought forward
    assert "started again" in window.statusBar().currentMessage()
    assert window.ctx is not None and window.ctx.bench.home == demo_home  # the same workspace, not reopened


def test_the_second_start_says_so_in_the_chosen_language(
    capsys: pytest.CaptureFixture[str], first: tuple[MainWindow, InstanceServer, list[StartRequest]], demo_home: Path
) -> None:
    window, _server, received = first
    QSettings().setValue("ui/language", "zh_CN")
    assert run(["--home", str(demo_home)]) == 0
    assert f"股票研究工作台已在 {demo_home.resolve()} 上打开" in capsys.readouterr().out
    assert len(received) == 1
    window.set_language("zh_CN")
    window.bring_forward()
    assert window.statusBar().currentMessage() == "股票研究工作台再次启动；请使用这个窗口。"


def test_a_second_process_hands_over_and_exits_0(
    qtbot: QtBot, tmp_path: Path, first: tuple[MainWindow, InstanceServer, list[StartRequest]], demo_home: Path
) -> None:
    _window, _server, received = first
    env = {k: v for k, v in os.environ.items() if not k.startswith(("STOCKBENCH_", "XDG_"))}
    env.update(QT_QPA_PLATFORM="offscreen", LITELLM_LOCAL_MODEL_COST_MAP="True", HOME=str(tmp_path / "user"),
               XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_DATA_HOME=str(tmp_path / "data"))  # fmt: skip
    started = time.perf_counter()
    with subprocess.Popen([sys.executable, "-m", "stockbench", "--home", str(demo_home)], env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as second:  # fmt: skip
        qtbot.waitUntil(lambda: second.poll() is not None, timeout=SUBPROCESS_LIMIT_S * 1000)  # our loop answers
        out, err = second.communicate()
    assert second.returncode == 0, err[-2000:]
    assert time.perf_counter() - started < SUBPROCESS_LIMIT_S
    assert "already open" in out and str(demo_home) in out
    assert received == [StartRequest(demo_home.resolve())]


def test_another_workspace_runs_side_by_side(qtbot: QtBot, tmp_path: Path) -> None:
    one, other = claim_instance(tmp_path / "one", StartRequest()), claim_instance(tmp_path / "two", StartRequest())
    try:
        assert one is not None and other is not None
        assert one.server.isListening() and other.server.isListening()
        assert one.name != other.name
    finally:
        for server in (one, other):
            if server is not None:
                server.close()


@pytest.mark.skipif(sys.platform == "win32", reason="a named pipe leaves nothing behind when its process dies")
def test_a_socket_left_by_a_killed_instance_is_recovered(qtbot: QtBot, tmp_path: Path) -> None:
    home = tmp_path / "ws"
    name = server_name(home)
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)  # what a killed instance leaves: a socket file
    stale.bind(QDir.temp().filePath(name))
    stale.close()
    try:
        assert Path(QDir.temp().filePath(name)).exists()  # the name is taken by the dead socket file
        assert hand_over(name, StartRequest()) == "absent"  # and nobody answers on it
        server = claim_instance(home, StartRequest())
        assert server is not None and server.server.isListening()
        assert server.recovered_stale  # it listens because the dead name was removed after its listen failed
        received: list[StartRequest] = []
        server.requested.connect(received.append)
        assert hand_over(name, StartRequest(home)) == "handed"  # the recovered name works
        assert received == [StartRequest(home)]
        server.close()
    finally:
        QLocalServer.removeServer(name)


def test_a_request_this_version_does_not_understand_is_refused(qtbot: QtBot, tmp_path: Path) -> None:
    server = claim_instance(tmp_path / "ws", StartRequest())
    assert server is not None
    received: list[StartRequest] = []
    server.requested.connect(received.append)
    client = QLocalSocket()
    client.connectToServer(server.name)
    assert client.waitForConnected(1000)
    client.write(b'{"protocol": 99, "action": "delete"}\n')
    answer = bytearray()
    client.readyRead.connect(lambda: answer.extend(bytes(client.readAll().data())))
    qtbot.waitUntil(lambda: bytes(answer) == b"refused\n", timeout=5000)
    assert received == []
    client.abort()
    server.close()


def test_start_requests_round_trip_and_reject_garbage() -> None:
    for request in (StartRequest(), StartRequest(Path("/tmp/ws"))):
        assert StartRequest.decode(request.encode().strip()) == request
    for garbage in (b"", b"\xff", b"[]", b'{"protocol": 1, "action": "show", "home": 3}'):
        assert StartRequest.decode(garbage) is None


def test_a_killed_session_is_named_when_its_workspace_opens_again(qtbot: QtBot, demo_home: Path) -> None:
    hold = ("import os, signal, sys; from stockbench.store.workspace import Workspace; "
            "Workspace.open(sys.argv[1], command='killed-test'); os.kill(os.getpid(), signal.SIGKILL)")  # fmt: skip
    killed = subprocess.run([sys.executable, "-c", hold, str(demo_home)], check=False, timeout=60)
    assert killed.returncode != 0  # it died holding the workspace
    window = MainWindow(settings=QSettings())
    qtbot.addWidget(window)
    with qtbot.waitSignal(window.workspace_attached, timeout=30_000):
        window.open_workspace(demo_home)
    try:
        message = window.statusBar().currentMessage()
        assert "ended without closing" in message and "process " in message
    finally:
        window.shutdown()


def test_the_socket_follows_the_workspace_the_window_switches_to(
    qtbot: QtBot, qapp: QApplication, tmp_path: Path, first: tuple[MainWindow, InstanceServer, list[StartRequest]]
) -> None:
    window, server, received = first
    other = tmp_path / "other"
    with qtbot.waitSignal(window.workspace_attached, timeout=30_000):
        window.open_workspace(other)
    assert server.name == server_name(other) and server.server.isListening()
    before = _windows(qapp)
    assert run(["--home", str(other)]) == 0
    assert _windows(qapp) == before and received == [StartRequest(other.resolve())]
