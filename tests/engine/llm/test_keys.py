"""API keys: kept in the keyring under service "stockbench", one entry per model name; redacted from any text."""

from __future__ import annotations

import keyring
import keyring.backends.fail
import pytest
from hypothesis import given
from hypothesis import strategies as st

from stockbench.errors import InvalidInput
from stockbench.llm import KeyringUnavailable
from stockbench.llm.keys import REDACTED, SERVICE, Keys, OsKeyring, env_name, keyring_help, redact
from tests.conftest import MemoryKeyring
from tests.engine.llm.conftest import TEST_KEY


def test_keys_are_stored_per_model_name(memory_keyring: MemoryKeyring) -> None:
    keys = OsKeyring()
    assert keys.get("ds") is None
    keys.set("ds", f"  {TEST_KEY}\n")
    keys.set("kimi", "sk-kimi-abcdefgh")
    assert keys.get("ds") == TEST_KEY
    assert memory_keyring.entries == {(SERVICE, "ds"): TEST_KEY, (SERVICE, "kimi"): "sk-kimi-abcdefgh"}
    assert keys.delete("ds") is True
    assert keys.delete("ds") is False
    assert keys.get("ds") is None and keys.get("kimi") == "sk-kimi-abcdefgh"


def test_an_empty_key_is_refused() -> None:
    with pytest.raises(InvalidInput, match="the API key is empty"):
        OsKeyring().set("ds", " \n")


def test_no_keyring_is_a_user_error_with_a_hint() -> None:
    keyring.set_keyring(keyring.backends.fail.Keyring())
    for action in (lambda k: k.get("ds"), lambda k: k.set("ds", TEST_KEY), lambda k: k.delete("ds")):
        with pytest.raises(KeyringUnavailable) as caught:
            action(OsKeyring())
        assert caught.value.message.startswith("the OS keyring is not available")
        assert "STOCKBENCH_KEY_<NAME>" in caught.value.hint and "models keystore file" in caught.value.hint


@pytest.mark.parametrize(
    ("system", "release", "environ", "missing", "how"),
    [
        ("linux", {"ID": "ubuntu", "ID_LIKE": "debian", "PRETTY_NAME": "Ubuntu 24.04 LTS"}, {},
         "there is no D-Bus session (DBUS_SESSION_BUS_ADDRESS is unset)",
         "on Ubuntu 24.04 LTS: `sudo apt install gnome-keyring libsecret-tools`"),
        ("linux", {"ID": "fedora", "NAME": "Fedora Linux"}, {"DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/bus"},
         "answers on the D-Bus session bus", "on Fedora Linux: `sudo dnf install gnome-keyring libsecret`"),
        ("linux", {"ID": "rocky", "ID_LIKE": "rhel centos fedora"}, {}, "GNOME Keyring / KWallet",
         "`sudo dnf install gnome-keyring libsecret`"),
        ("linux", {"ID": "arch"}, {}, "no D-Bus session", "`sudo pacman -S gnome-keyring libsecret`"),
        ("linux", {"ID": "nixos"}, {}, "no D-Bus session", "with your distribution's package manager"),
        ("darwin", {}, {}, "the macOS Keychain did not answer (it is always present", "security unlock-keychain"),
        ("win32", {}, {}, "Windows Credential Manager did not answer (it is always present)", "signed-in"),
    ],
)  # fmt: skip
def test_what_is_missing_and_how_to_get_it_follow_the_platform(
    system: str, release: dict[str, str], environ: dict[str, str], missing: str, how: str
) -> None:
    said_missing, said_how = keyring_help(system, release, environ)
    assert missing in said_missing and how in said_how


def test_the_environment_variable_of_a_model_name() -> None:
    assert env_name("ds") == "STOCKBENCH_KEY_DS"
    assert env_name("deepseek-v4.flash") == "STOCKBENCH_KEY_DEEPSEEK_V4_FLASH"
    assert env_name("我的 model") == "STOCKBENCH_KEY_" + "___MODEL"


def test_an_environment_key_is_read_at_use_before_the_stored_one(memory_keyring: MemoryKeyring) -> None:
    environ: dict[str, str] = {}
    keys = Keys(lambda: (OsKeyring(), "keyring"), environ)
    assert (keys.get("ds"), keys.source("ds")) == (None, "missing")
    keys.set("ds", TEST_KEY)
    assert (keys.get("ds"), keys.source("ds")) == (TEST_KEY, "keyring")
    environ["STOCKBENCH_KEY_DS"] = " sk-env-abcdefgh \n"
    assert (keys.get("ds"), keys.source("ds")) == ("sk-env-abcdefgh", "environment")
    assert memory_keyring.entries == {(SERVICE, "ds"): TEST_KEY}  # never written back
    keyring.set_keyring(keyring.backends.fail.Keyring())
    assert keys.source("ds") == "environment"  # the missing keyring is never asked
    del environ["STOCKBENCH_KEY_DS"]
    assert keys.source("ds") == "keyring_unavailable"


def test_the_encrypted_file_backend_is_never_chosen_on_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """keyrings.cryptfile registers itself with `keyring`; left alone it would be picked where no OS keyring
    exists and ask for a passphrase on the terminal."""
    import keyring.backend
    from keyrings.cryptfile.cryptfile import CryptFileKeyring

    os_one = MemoryKeyring()
    monkeypatch.setattr(keyring.backend, "get_all_keyring", lambda: [CryptFileKeyring(), os_one])
    monkeypatch.delenv("PYTHON_KEYRING_BACKEND", raising=False)
    monkeypatch.setattr("keyring.core.load_config", lambda: None)
    keyring.set_keyring(CryptFileKeyring())
    OsKeyring().set("ds", TEST_KEY)
    assert os_one.entries == {(SERVICE, "ds"): TEST_KEY}
    assert keyring.get_keyring() is os_one


def test_redact_removes_known_secrets_and_key_shapes() -> None:
    text = (
        f"Incorrect API key provided: {TEST_KEY}. headers={{'Authorization': 'Bearer abc.def-123'}} "
        "api_key=plainsecret x-api-key: qwerty12 (see https://platform.example.com/account/api-keys)"
    )
    cleaned = redact(text, ["plainsecret"])
    for secret in (TEST_KEY, "abc.def-123", "plainsecret", "qwerty12"):
        assert secret not in cleaned
    assert cleaned.count(REDACTED) >= 4
    assert "https://platform.example.com/account/api-keys" in cleaned
    assert (
        redact("model 'ds' failed (server_error): 502 Bad Gateway")
        == "model 'ds' failed (server_error): 502 Bad Gateway"
    )


@given(secret=st.text(alphabet=st.characters(codec="ascii", categories=["L", "N"]), min_size=4, max_size=40),
       before=st.text(max_size=30), after=st.text(max_size=30))  # fmt: skip
def test_a_given_secret_never_survives_redaction(secret: str, before: str, after: str) -> None:
    assert secret not in redact(before + secret + after, [secret])
