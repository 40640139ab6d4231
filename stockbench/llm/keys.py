"""API keys: where each model's key comes from, and redaction of secrets from error text.

A key is read at use, first from the environment variable `STOCKBENCH_KEY_<NAME>` (never stored), else from the
workspace's key store: the OS keyring (service "stockbench", one entry per model name), or, when the user chose
it, an encrypted file behind a passphrase (`stockbench.llm.key_file`). Keys are never stored in the workspace
database, never logged, and `stockbench.errors.redact` removes them (and anything shaped like a key or a bearer
token) from error text before it is shown, journalled or logged.
"""

from __future__ import annotations

import logging
import os
import re
import sys
from collections.abc import Callable, Mapping
from typing import Any, Literal, Protocol

from stockbench.errors import REDACTED, redact
from stockbench.llm import KeyFileLocked, KeyringUnavailable
from stockbench.messages import Note, note, user_error

__all__ = ["ENV_PREFIX", "REDACTED", "SERVICE", "KeySource", "KeyStore", "Keys", "OsKeyring", "env_name", "redact"]

SERVICE = "stockbench"
ENV_PREFIX = "STOCKBENCH_KEY_"
# Where a model's key comes from, as `models list` shows it: file_locked is the encrypted key file without its
# passphrase (or with a wrong one), keyring_unavailable a machine where no OS keyring answers.
KeySource = Literal["environment", "keyring", "file", "missing", "keyring_unavailable", "file_locked"]
UNREADABLE: tuple[KeySource, ...] = ("keyring_unavailable", "file_locked")  # a stored key cannot be read now
_ELSEWHERE = {"env": "STOCKBENCH_KEY_<NAME>", "command": "stockbench models keystore file"}
log = logging.getLogger(__name__)


class KeyStore(Protocol):
    """Where keys are kept: the OS keyring in the app, the same interface anywhere else."""

    def set(self, name: str, key: str) -> None: ...

    def get(self, name: str) -> str | None: ...

    def delete(self, name: str) -> bool: ...


def env_name(name: str) -> str:
    """The environment variable that gives model `name` its key: STOCKBENCH_KEY_ and the name upper-cased, every
    character other than A-Z and 0-9 as `_` (model "deepseek-v4" reads STOCKBENCH_KEY_DEEPSEEK_V4)."""
    return ENV_PREFIX + re.sub(r"[^A-Z0-9]", "_", name.upper())


class Keys:
    """A model's key from its environment variable first, else from the chosen key store (read at each use)."""

    def __init__(
        self, stored: Callable[[], tuple[KeyStore, KeySource]], environ: Mapping[str, str] | None = None
    ) -> None:
        self._stored = stored
        self._environ = environ

    def from_environment(self, name: str) -> str | None:
        """The key in STOCKBENCH_KEY_<NAME>, or None."""
        found = (os.environ if self._environ is None else self._environ).get(env_name(name), "").strip()
        return found or None

    def get(self, name: str) -> str | None:
        """The key of `name`: its environment variable's, else the stored one, else None."""
        return self.from_environment(name) or self._stored()[0].get(name)

    def source(self, name: str) -> KeySource:
        """Where the key of `name` would come from now."""
        if self.from_environment(name):
            return "environment"
        store, stored_as = self._stored()
        try:
            return stored_as if store.get(name) else "missing"
        except KeyFileLocked:
            return "file_locked"
        except KeyringUnavailable:
            return "keyring_unavailable"

    def set(self, name: str, key: str) -> None:
        """Store `key` for `name` in the chosen store (an environment variable is never written)."""
        self._stored()[0].set(name, key)

    def delete(self, name: str) -> bool:
        """Remove the stored key of `name`; False when there was none."""
        return self._stored()[0].delete(name)


class OsKeyring:
    """The OS keyring through the `keyring` package (imported on first use)."""

    def __init__(self, service: str = SERVICE) -> None:
        self.service = service

    def set(self, name: str, key: str) -> None:
        """Store `key` for the model named `name` (replacing any earlier key)."""
        key = key.strip()
        if not key:
            from stockbench.errors import InvalidInput

            raise user_error(InvalidInput, "key_empty")
        self._call("set_password", name, key)

    def get(self, name: str) -> str | None:
        """The stored key for `name`, or None."""
        found = self._call("get_password", name)
        return found if isinstance(found, str) and found else None

    def delete(self, name: str) -> bool:
        """Remove the key for `name`; False when there was none."""
        import keyring.errors

        try:
            self._call("delete_password", name)
        except keyring.errors.PasswordDeleteError:
            return False
        return True

    def _call(self, method: str, name: str, *args: str) -> Any:
        import keyring.errors

        try:
            return getattr(os_backend(), method)(self.service, name, *args)
        except keyring.errors.PasswordDeleteError:
            raise
        except (keyring.errors.NoKeyringError, keyring.errors.InitError, keyring.errors.KeyringLocked) as error:
            log.info("no OS keyring: %s", _reason(error))  # the library's own words: for the log, never shown
            missing, how = keyring_notes()
            raise user_error(KeyringUnavailable, "keyring_unavailable", missing=missing.text("en"),
                             missing_zh=missing.text("zh"), how=how.text("en"), how_zh=how.text("zh"),
                             **_ELSEWHERE) from None  # fmt: skip
        except keyring.errors.KeyringError as error:
            log.warning("the OS keyring refused a request: %s", _reason(error))
            raise user_error(KeyringUnavailable, "keyring_refused", **_ELSEWHERE) from None


def os_backend() -> Any:
    """The `keyring` package's backend, never the encrypted file one: that backend registers itself with `keyring`
    and would be chosen where no OS keyring exists (or chained after one), asking for its passphrase on the
    terminal; it is used only on request (`stockbench.llm.key_file`). An explicit PYTHON_KEYRING_BACKEND or
    keyringrc.cfg still wins."""
    import keyring
    import keyring.core

    current = keyring.get_keyring()
    if _involves_file_store(current):
        keyring.core.init_backend(limit=lambda backend: not _is_file_store(backend))
        current = keyring.get_keyring()
    return current


def _is_file_store(backend: object) -> bool:
    return type(backend).__module__.startswith("keyrings.cryptfile")


def _involves_file_store(backend: object) -> bool:
    from keyring.backends.chainer import ChainerBackend

    chained = backend.backends if isinstance(backend, ChainerBackend) else ()
    return _is_file_store(backend) or any(_is_file_store(b) for b in chained)


def keyring_help(
    system: str | None = None, release: Mapping[str, str] | None = None, environ: Mapping[str, str] | None = None
) -> tuple[str, str]:
    """(what is missing, how to get it) in English when no OS keyring answers, for this platform (`sys.platform`,
    and on Linux the distribution in /etc/os-release and whether there is a D-Bus session)."""
    missing, how = keyring_notes(system, release, environ)
    return missing.text("en"), how.text("en")


def keyring_notes(
    system: str | None = None, release: Mapping[str, str] | None = None, environ: Mapping[str, str] | None = None
) -> tuple[Note, Note]:
    """`keyring_help` as notes of the message catalogue, said in either language."""
    system = sys.platform if system is None else system
    if system == "darwin":
        return (note("keyring.missing.darwin", keychain="macOS Keychain"),
                note("keyring.how.darwin", app="Keychain Access", command="security unlock-keychain"))  # fmt: skip
    if system.startswith("win"):
        return (note("keyring.missing.windows", manager="Windows Credential Manager"),
                note("keyring.how.windows", system="Windows"))  # fmt: skip
    if not system.startswith("linux"):
        return note("keyring.missing.other"), note("keyring.how.other", package="keyring")
    environ = os.environ if environ is None else environ
    names = {"service": "Secret Service", "backends": "GNOME Keyring / KWallet", "bus": "D-Bus"}
    missing = note("keyring.missing.linux", **names)
    if not environ.get("DBUS_SESSION_BUS_ADDRESS"):
        missing = note("keyring.missing.linux_headless", variable="DBUS_SESSION_BUS_ADDRESS", ssh="SSH", **names)
    return missing, _linux_install(_os_release() if release is None else release)


_INSTALL = {
    "debian": "sudo apt install gnome-keyring libsecret-tools",
    "fedora": "sudo dnf install gnome-keyring libsecret",
    "arch": "sudo pacman -S gnome-keyring libsecret",
    "suse": "sudo zypper install gnome-keyring libsecret-tools",
}
_FAMILY = {"ubuntu": "debian", "linuxmint": "debian", "rhel": "fedora", "centos": "fedora", "opensuse": "suse"}


def _linux_install(release: Mapping[str, str]) -> Note:
    ids = [release.get("ID", ""), *release.get("ID_LIKE", "").split()]
    family = next((_FAMILY.get(i, i) for i in ids if _FAMILY.get(i, i) in _INSTALL), None)
    name = release.get("PRETTY_NAME") or release.get("NAME") or "this Linux"
    if family is None:
        return note("keyring.how.linux_unknown", gnome="GNOME Keyring", tool="secret-tool", kwallet="KWallet")
    kwallet = "sudo apt install kwalletmanager" if family == "debian" else "install KWallet"
    return note("keyring.how.linux", name=name, install=_INSTALL[family], check=f"secret-tool search service {SERVICE}",
                kde="KDE", kwallet=kwallet)  # fmt: skip


def _os_release() -> dict[str, str]:
    import platform

    try:
        return platform.freedesktop_os_release()
    except OSError:
        return {}


def _reason(error: BaseException) -> str:
    return redact(str(error)) or type(error).__name__
