"""API keys live in the OS keyring only (service "stockbench", one entry per configured model name).

They are never stored in the workspace, never logged, and `stockbench.errors.redact` removes them (and anything
shaped like a key or a bearer token) from error text before it is shown, journalled or logged.
"""

from __future__ import annotations

from typing import Any, Protocol

from stockbench.errors import REDACTED, redact
from stockbench.llm import KeyringUnavailable

__all__ = ["KEYRING_HINT", "REDACTED", "SERVICE", "KeyStore", "OsKeyring", "redact"]

SERVICE = "stockbench"
KEYRING_HINT = (
    "start or unlock the desktop keyring (GNOME Keyring, KWallet, macOS Keychain, Windows Credential Manager); "
    "on a headless machine, configure a keyring backend for the `keyring` package"
)


class KeyStore(Protocol):
    """Where keys are kept: the OS keyring in the app, the same interface anywhere else."""

    def set(self, name: str, key: str) -> None: ...

    def get(self, name: str) -> str | None: ...

    def delete(self, name: str) -> bool: ...


class OsKeyring:
    """The OS keyring through the `keyring` package (imported on first use)."""

    def __init__(self, service: str = SERVICE) -> None:
        self.service = service

    def set(self, name: str, key: str) -> None:
        """Store `key` for the model named `name` (replacing any earlier key)."""
        key = key.strip()
        if not key:
            from stockbench.errors import InvalidInput

            raise InvalidInput("the API key is empty", "paste the key on standard input")
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
        import keyring
        import keyring.errors

        try:
            return getattr(keyring, method)(self.service, name, *args)
        except keyring.errors.PasswordDeleteError:
            raise
        except (keyring.errors.NoKeyringError, keyring.errors.InitError, keyring.errors.KeyringLocked) as error:
            raise KeyringUnavailable(f"the OS keyring is not available: {_reason(error)}", KEYRING_HINT) from None
        except keyring.errors.KeyringError as error:
            raise KeyringUnavailable(f"the OS keyring refused the request: {_reason(error)}", KEYRING_HINT) from None


def _reason(error: BaseException) -> str:
    return redact(str(error)) or type(error).__name__
