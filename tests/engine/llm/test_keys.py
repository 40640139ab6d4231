"""API keys: kept in the keyring under service "stockbench", one entry per model name; redacted from any text."""

from __future__ import annotations

import keyring
import keyring.backends.fail
import pytest
from hypothesis import given
from hypothesis import strategies as st

from stockbench.errors import InvalidInput
from stockbench.llm import KeyringUnavailable
from stockbench.llm.keys import REDACTED, SERVICE, OsKeyring, redact
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
        assert "keyring" in caught.value.hint


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
