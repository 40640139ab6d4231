"""API keys in an encrypted file behind a passphrase, for machines without an OS keyring (used only on request).

The file is `keys.cfg` in the workspace folder, written by the `keyrings.cryptfile` backend of the `keyring`
package (each entry sealed with AES in an authenticated mode, the key derived from the passphrase with Argon2;
no cryptography of our own). The passphrase is read at each use from STOCKBENCH_KEYSTORE_PASSPHRASE, or held in
memory for this process once given (`FileKeys.unlock`); it is never stored.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

from stockbench.errors import InvalidInput
from stockbench.llm import KeyFileLocked
from stockbench.llm.keys import SERVICE
from stockbench.messages import user_error

FILE_NAME = "keys.cfg"
PASSPHRASE_ENV = "STOCKBENCH_KEYSTORE_PASSPHRASE"
MIN_PASSPHRASE = 8


class FileKeys:
    """The encrypted key file at `path` (a `KeyStore`)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._held: str | None = None
        self._open: tuple[str, Any] | None = None  # (passphrase, unlocked backend)
        self._lock = threading.Lock()

    def unlock(self, passphrase: str) -> None:
        """Open the file with `passphrase` (creating it if absent) and hold the passphrase for this process.
        KeyFileLocked when it is not the file's; InvalidInput when a new file's passphrase is too short."""
        if not self.path.exists() and len(passphrase) < MIN_PASSPHRASE:
            raise user_error(InvalidInput, "passphrase_short", minimum=MIN_PASSPHRASE)
        self._backend(passphrase)
        self._held = passphrase

    def passphrase(self) -> str | None:
        """The passphrase held for this process, else STOCKBENCH_KEYSTORE_PASSPHRASE's, else None."""
        return self._held or os.environ.get(PASSPHRASE_ENV) or None

    def set(self, name: str, key: str) -> None:
        key = key.strip()
        if not key:
            raise user_error(InvalidInput, "key_empty")
        self._backend().set_password(SERVICE, name, key)

    def get(self, name: str) -> str | None:
        if not self.path.exists():
            return None
        found = self._backend().get_password(SERVICE, name)
        return found if isinstance(found, str) and found else None

    def delete(self, name: str) -> bool:
        import keyring.errors

        if not self.path.exists():
            return False
        try:
            self._backend().delete_password(SERVICE, name)
        except keyring.errors.PasswordDeleteError:
            return False
        return True

    def _backend(self, passphrase: str | None = None) -> Any:
        """The unlocked backend. Its passphrase is always set before use, so it never asks on the terminal."""
        passphrase = passphrase or self.passphrase()
        if not passphrase:
            raise user_error(KeyFileLocked, "keyfile_locked", path=self.path, env=PASSPHRASE_ENV)
        with self._lock:
            if self._open is not None and self._open[0] == passphrase:
                return self._open[1]
            from keyrings.cryptfile.cryptfile import CryptFileKeyring

            backend = CryptFileKeyring()
            backend.file_path = str(self.path)
            try:
                backend.keyring_key = passphrase  # unlocks the file, or creates it with this passphrase
            except ValueError:
                raise user_error(
                    KeyFileLocked, "keyfile_wrong_passphrase", path=self.path, env=PASSPHRASE_ENV
                ) from None
            self._open = (passphrase, backend)
            return backend
