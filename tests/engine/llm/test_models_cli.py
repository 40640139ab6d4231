"""`stockbench models ...` end to end: add, key (stdin into the keyring), test against the scripted server, list,
remove, with the contract's JSON keys; the key never reaches the output or the workspace file."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import keyring
import keyring.backends.fail
import pytest

from stockbench.cli.main import run
from tests.conftest import MemoryKeyring
from tests.engine.llm.conftest import TEST_KEY
from tests.llm_server.server import LlmServer, Reply, deepseek_usage


@pytest.fixture
def call(home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Any:
    def invoke(*args: str, code: int = 0, stdin: str | None = None) -> Any:
        if stdin is not None:
            monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
        result = run(["--json", *args])
        captured = capsys.readouterr()
        assert TEST_KEY not in captured.out + captured.err
        assert result == code, captured.err
        return json.loads(captured.out) if captured.out.strip() else None

    return invoke


def test_add_key_test_list_remove(call: Any, llm_server: LlmServer, home: Path, memory_keyring: MemoryKeyring) -> None:
    added = call("models", "add", "ds", "--provider", "deepseek", "--model", "deepseek-chat",
                 "--api-base", llm_server.base_url)  # fmt: skip
    assert added == {
        "name": "ds", "provider": "deepseek", "model": "deepseek-chat", "api_base": llm_server.base_url,
        "fallback": None, "litellm_model": "deepseek/deepseek-chat", "key_required": True, "has_key": False,
        "key_source": "missing", "context_tokens": 131072, "tool_choice": "any", "reasoning": "echo",
        "price": {"currency": "USD", "input_uncached": "0.28", "input_cached": "0.028", "output": "0.42",
                  "per": "million tokens"},
        "usable": False, "next_step": "store its key with: stockbench models key ds (or set STOCKBENCH_KEY_DS)",
    }  # fmt: skip
    assert call("models", "key", "ds", stdin=f"{TEST_KEY}\n") == {"name": "ds", "stored": True}
    assert memory_keyring.entries == {("stockbench", "ds"): TEST_KEY}

    llm_server.script(Reply.text("ok", usage=deepseek_usage(12, 1, cached=8)))
    tested = call("models", "test", "ds")
    assert set(tested) == {"name", "litellm_model", "model", "latency_ms", "streamed", "content", "finish_reason",
                           "usage", "cost", "notes"}  # fmt: skip
    assert (tested["content"], tested["model"], tested["streamed"]) == ("ok", "deepseek-chat", True)
    assert isinstance(tested["latency_ms"], int)
    assert tested["usage"]["cached_tokens"] == 8 and tested["usage"]["raw"]["prompt_cache_hit_tokens"] == 8
    # 4 uncached at 0.28, 8 cached at 0.028, 1 output at 0.42 per million
    assert tested["cost"] == {"amount": "0.000001764", "currency": "USD"}
    [seen] = llm_server.chats
    assert seen.authorization_is(f"Bearer {TEST_KEY}") and seen.json["max_tokens"] == 32

    [listed] = call("models", "list")
    assert (listed["name"], listed["has_key"], listed["key_source"], listed["usable"]) == ("ds", True, "keyring", True)
    assert call("models", "remove", "ds") == {"name": "ds", "removed": True, "key_deleted": True}
    assert call("models", "list") == [] and memory_keyring.entries == {}
    assert TEST_KEY.encode() not in (home / "workspace.duckdb").read_bytes()


def test_test_without_a_key_says_how_to_store_one(
    call: Any, llm_server: LlmServer, capsys: pytest.CaptureFixture[str]
) -> None:
    call("models", "add", "kimi", "--provider", "moonshot", "--model", "kimi-k2.6", "--api-base", llm_server.base_url)
    failed = call("models", "test", "kimi", code=1)
    assert failed["error"]["code"] == "model_unavailable"
    assert failed["error"]["message"] == "no API key is stored for model 'kimi'"
    assert failed["error"]["hint"] == "store one with: stockbench models key kimi (or set STOCKBENCH_KEY_KIMI)"
    assert llm_server.chats == []


def test_test_of_an_unreachable_endpoint_names_the_cause(call: Any) -> None:
    call("models", "add", "local", "--provider", "ollama", "--model", "qwen3:8b", "--api-base", "http://127.0.0.1:9/v1")
    failed = call("models", "test", "local", code=1)
    assert failed["error"]["message"].startswith("model 'local' failed (connection):")
    assert "try again later" in failed["error"]["hint"]


def test_add_refuses_what_cannot_work(call: Any) -> None:
    unknown = call("models", "add", "x", "--provider", "anthropic", "--model", "m", code=1)["error"]
    assert unknown["message"] == "unknown provider 'anthropic'" and "deepseek" in unknown["hint"]
    no_base = call("models", "add", "x", "--provider", "openai_compatible", "--model", "m", code=1)["error"]
    assert "has no default endpoint" in no_base["message"] and no_base["hint"] == "pass --api-base URL"
    keyed_url = "https://user:secret@example.com/v1"
    assert "credentials" in call("models", "add", "x", "--provider", "openai", "--model", "m", "--api-base",
                                 keyed_url, code=1)["error"]["message"]  # fmt: skip
    assert "not configured" in call("models", "add", "x", "--provider", "openai", "--model", "m",
                                    "--fallback", "nope", code=1)["error"]["message"]  # fmt: skip
    assert "cannot name a model" in call("models", "add", "offline", "--provider", "openai", "--model", "m",
                                         code=1)["error"]["message"]  # fmt: skip
    assert call("models", "list") == []


def test_fallbacks_must_exist_and_stay(call: Any) -> None:
    call("models", "add", "backup", "--provider", "deepseek", "--model", "deepseek-chat")
    main = call("models", "add", "main", "--provider", "openai", "--model", "gpt-4o", "--fallback", "backup")
    assert main["fallback"] == "backup" and main["api_base"] == "https://api.openai.com/v1"
    refused = call("models", "remove", "backup", code=1)["error"]
    assert refused["message"] == "model 'backup' is the fallback of main"
    loop = call("models", "add", "backup", "--provider", "deepseek", "--model", "deepseek-chat", "--fallback", "main",
                "--replace", code=1)["error"]  # fmt: skip
    assert loop["message"] == "fallbacks would form a loop: backup -> main -> backup"
    again = call("models", "add", "main", "--provider", "openai", "--model", "gpt-4o", code=1)["error"]
    assert again["hint"] == "pass --replace to change it"


def test_key_input_is_checked(call: Any) -> None:
    call("models", "add", "ds", "--provider", "deepseek", "--model", "deepseek-chat")
    assert call("models", "key", "ds", stdin="\n", code=1)["error"]["message"] == "no API key on standard input"
    two = call("models", "key", "ds", stdin=f"{TEST_KEY}\nsecond-line\n", code=1)["error"]
    assert two["message"] == "the API key contains spaces or several lines"
    assert call("models", "key", "nope", stdin=TEST_KEY, code=1)["error"]["code"] == "not_found"
    assert call("models", "key", "ds", "--delete") == {"name": "ds", "deleted": False}


DEBIAN = {"ID": "debian", "PRETTY_NAME": "Debian GNU/Linux 13 (trixie)"}
ENV_KEY = "sk-from-env-0123456789abcdef"


@pytest.fixture
def no_keyring(monkeypatch: pytest.MonkeyPatch) -> None:
    """A headless Debian machine: no keyring backend, no D-Bus session."""
    keyring.set_keyring(keyring.backends.fail.Keyring())
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr("stockbench.llm.keys._os_release", lambda: DEBIAN)
    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS", raising=False)


def test_without_an_os_keyring_the_error_says_what_is_missing_and_how_to_get_it(call: Any, no_keyring: None) -> None:
    added = call("models", "add", "ds", "--provider", "deepseek", "--model", "deepseek-chat", code=5)
    assert (added["has_key"], added["key_source"], added["usable"]) == (None, "keyring_unavailable", False)
    assert added["next_step"].startswith("no key can be stored or read: the OS keyring is not available: ")
    assert "set STOCKBENCH_KEY_DS" in added["next_step"] and "models keystore file" in added["next_step"]
    failed = call("models", "key", "ds", stdin=TEST_KEY, code=1)["error"]
    assert failed["code"] == "keyring_unavailable"
    assert failed["message"].startswith("the OS keyring is not available: no Secret Service keyring (GNOME Keyring "
                                        "/ KWallet) can be reached: there is no D-Bus session")  # fmt: skip
    assert failed["hint"].startswith("on Debian GNU/Linux 13 (trixie): `sudo apt install gnome-keyring "
                                     "libsecret-tools`")  # fmt: skip
    assert "STOCKBENCH_KEY_<NAME>" in failed["hint"] and "stockbench models keystore file" in failed["hint"]
    assert "configure a keyring backend" not in failed["hint"]
    assert call("models", "list")[0]["key_source"] == "keyring_unavailable"
    assert call("models", "test", "ds", code=1)["error"]["message"].startswith("the OS keyring is not available")
    # a model that needs no key is usable all the same
    assert call("models", "add", "local", "--provider", "ollama", "--model", "qwen3:8b")["usable"] is True


def test_a_key_from_the_environment_is_used_and_never_stored(
    call: Any, no_keyring: None, llm_server: LlmServer, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STOCKBENCH_KEY_DS_V4", ENV_KEY)
    added = call("models", "add", "ds-v4", "--provider", "deepseek", "--model", "deepseek-chat", "--api-base",
                 llm_server.base_url)  # fmt: skip
    assert (added["has_key"], added["key_source"], added["usable"], added["next_step"]) == (
        True, "environment", True, None)  # fmt: skip
    llm_server.script(Reply.text("ok"))
    assert call("models", "test", "ds-v4")["content"] == "ok"
    assert llm_server.chats[-1].authorization_is(f"Bearer {ENV_KEY}")
    assert ENV_KEY.encode() not in (home / "workspace.duckdb").read_bytes()
    assert not (home / "keys.cfg").exists()


def test_the_environment_key_overrides_a_stored_one(call: Any, memory_keyring: MemoryKeyring,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    call("models", "add", "ds", "--provider", "deepseek", "--model", "deepseek-chat")
    call("models", "key", "ds", stdin=TEST_KEY)
    assert call("models", "list")[0]["key_source"] == "keyring"
    monkeypatch.setenv("STOCKBENCH_KEY_DS", ENV_KEY)
    assert call("models", "list")[0]["key_source"] == "environment"
    assert memory_keyring.entries == {("stockbench", "ds"): TEST_KEY}


def test_keys_in_an_encrypted_file_behind_a_passphrase(
    call: Any, no_keyring: None, llm_server: LlmServer, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    phrase = "correct horse battery staple"
    shown = call("models", "keystore", "file", stdin=f"{phrase}\n")  # the passphrase on standard input
    assert shown == {"store": "file", "path": str(home / "keys.cfg"), "available": True, "reason": None,
                     "hint": None, "environment": "STOCKBENCH_KEY_<NAME>", "file_exists": True}  # fmt: skip
    monkeypatch.setenv("STOCKBENCH_KEYSTORE_PASSPHRASE", phrase)  # a later process reads it from here
    assert call("models", "add", "ds", "--provider", "deepseek", "--model", "deepseek-chat", "--api-base",
                llm_server.base_url)["key_source"] == "missing"  # fmt: skip
    assert call("models", "key", "ds", stdin=f"{TEST_KEY}\n") == {"name": "ds", "stored": True}
    assert call("models", "list")[0]["key_source"] == "file"
    llm_server.script(Reply.text("ok"))
    call("models", "test", "ds")
    assert llm_server.chats[-1].authorization_is(f"Bearer {TEST_KEY}")
    sealed = (home / "keys.cfg").read_bytes()
    assert TEST_KEY.encode() not in sealed and phrase.encode() not in sealed
    assert phrase.encode() not in (home / "workspace.duckdb").read_bytes()

    monkeypatch.setenv("STOCKBENCH_KEYSTORE_PASSPHRASE", "not the passphrase")
    assert call("models", "list")[0]["key_source"] == "file_locked"  # the key file, not the OS keyring
    locked = call("models", "key", "ds", stdin=TEST_KEY, code=1)["error"]
    assert locked["code"] == "keystore_locked"
    assert locked["message"] == f"the passphrase does not open the encrypted key file {home / 'keys.cfg'}"
    monkeypatch.delenv("STOCKBENCH_KEYSTORE_PASSPHRASE")
    view = call("models", "keystore")
    assert (view["available"], view["reason"]) == (False, f"the encrypted key file {home / 'keys.cfg'} needs its "
                                                          "passphrase")  # fmt: skip
    assert call("models", "keystore", "os")["store"] == "os"
    assert call("models", "list")[0]["key_source"] == "keyring_unavailable"  # the OS keyring is still absent


def test_providers_lists_every_preset(call: Any) -> None:
    names = [p["provider"] for p in call("models", "providers")]
    assert names == ["deepseek", "openai", "moonshot", "qwen", "minimax", "ollama", "openai_compatible"]


def test_add_from_a_preset_and_list_the_presets(call: Any) -> None:
    from stockbench.llm.presets import default_presets

    listed = call("models", "presets")
    assert [p["preset"] for p in listed] == ["deepseek", "openai", "kimi", "qwen", "minimax", "ollama"]
    deepseek = default_presets().get("deepseek")
    added = call("models", "add", "ds", "--preset", "deepseek")
    assert (added["provider"], added["model"]) == (deepseek.provider.name, deepseek.model)
    local = call("models", "add", "local", "--preset", "ollama", "--model", "qwen3:14b", "--fallback", "ds")
    assert (local["model"], local["fallback"]) == ("qwen3:14b", "ds")
    assert (
        "unknown model preset 'claude'" in call("models", "add", "x", "--preset", "claude", code=1)["error"]["message"]
    )
    clash = call("models", "add", "x", "--preset", "deepseek", "--provider", "openai", code=1)["error"]
    assert "uses the provider deepseek" in clash["message"]
    missing = call("models", "add", "x", "--provider", "openai", code=1)["error"]
    assert "--provider and --model, or a --preset" in missing["message"]
    assert [m["name"] for m in call("models", "list")] == ["ds", "local"]


# ---- keys without an OS keyring, said in the user's language (issue 19) -----------------------------------------
LIBRARY_WORDS = ("No recommended backend", "keyrings.alt", "pypi.org/project/keyring")  # the keyring library's own


@pytest.fixture
def say(home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Any:
    """A command's human output (stdout and stderr) in the language asked for, and its exit code."""

    def invoke(*args: str, lang: str = "zh", stdin: str | None = None) -> tuple[int, str]:
        if stdin is not None:
            monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
        code = run(["--lang", lang, *args])
        captured = capsys.readouterr()
        return code, captured.out + captured.err

    return invoke


def test_without_an_os_keyring_models_add_and_key_say_it_in_chinese(say: Any, call: Any, no_keyring: None) -> None:
    """Found on main: `--lang zh models add` printed "暂不可用：no key can be stored or read: ..." and both languages
    carried the keyring library's own sentence ("No recommended backend was available...")."""
    code, shown = say("models", "add", "ds", "--provider", "deepseek", "--model", "deepseek-chat")
    assert code == 5
    assert "暂不可用：无法保存或读取密钥：操作系统钥匙串不可用：无法连接 Secret Service 钥匙串" in shown
    assert "要使用它：请设置环境变量 STOCKBENCH_KEY_DS" in shown and "sudo apt install gnome-keyring" in shown
    assert "no key can be stored" not in shown and "To use it" not in shown
    code, refused = say("models", "key", "ds", stdin=TEST_KEY)
    assert code == 1 and "操作系统钥匙串不可用" in refused and "在 Debian GNU/Linux 13 (trixie) 上" in refused
    english = call("models", "list")[0]["next_step"]
    assert english.startswith("no key can be stored or read: the OS keyring is not available: no Secret Service")
    failed = call("models", "key", "ds", stdin=TEST_KEY, code=1)["error"]
    for text in (shown, refused, english, failed["message"], failed["hint"]):
        assert not [w for w in LIBRARY_WORDS if w in text], text


def test_a_locked_key_file_has_its_own_state_and_words(
    say: Any, call: Any, no_keyring: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found on main: a key file without its passphrase was listed as keyring_unavailable (钥匙串不可用)."""
    call("models", "keystore", "file", stdin="correct horse battery staple\n")
    monkeypatch.setenv("STOCKBENCH_KEYSTORE_PASSPHRASE", "not the passphrase")
    added = call("models", "add", "ds", "--provider", "deepseek", "--model", "deepseek-chat", code=5)
    assert (added["key_source"], added["has_key"], added["usable"]) == ("file_locked", None, False)
    assert added["next_step"].startswith("its key cannot be read while the key file is locked: the passphrase does "
                                         "not open the encrypted key file")  # fmt: skip
    code, listed = say("models", "list")
    assert code == 0 and "密钥文件已锁定" in listed and "钥匙串不可用" not in listed
    code, shown = say("models", "add", "ds2", "--provider", "deepseek", "--model", "deepseek-chat")
    assert code == 5 and "暂不可用：密钥文件锁定期间无法读取它的密钥：该口令打不开加密密钥文件" in shown
    assert "或设置环境变量 STOCKBENCH_KEY_DS2" in shown


def test_search_test_says_its_reason_and_hint_in_chinese(say: Any, call: Any) -> None:
    """Found on main: `--lang zh search test` printed "could not reach ...: [Errno 111] Connection refused" and its
    hint in English, though the catalogue has search_unreachable."""
    from tests.search_server import SearchServer

    server = SearchServer([]).start()
    url = server.url
    server.stop()  # nothing answers there now
    call("search", "set", "--searxng", url)
    code, shown = say("search", "test")
    assert code == 1
    assert shown.splitlines() == [f"失败：无法连接 {url}：连接被拒绝", "  请检查地址，并确认服务器正在运行"]
    code, english = say("search", "test", lang="en")
    assert english.splitlines() == [f"failed: could not reach {url}: the connection was refused",
                                    "  check the address and that the server runs"]  # fmt: skip


def test_a_brave_key_without_an_os_keyring_is_said_in_chinese(say: Any, call: Any, no_keyring: None) -> None:
    call("search", "set", "--brave", "--base-url", "http://127.0.0.1:9", code=1, stdin="BSAkey0123456789\n")
    from stockbench.store.settings import SEARCH_PROVIDER, SEARCH_URL
    from stockbench.workbench import Workbench

    with Workbench.open(None) as bench:  # saved by hand: the key store refused the key, as it should
        bench.workspace.settings.set(SEARCH_PROVIDER, "brave")
        bench.workspace.settings.set(SEARCH_URL, "http://127.0.0.1:9")
    code, shown = say("search", "test")
    assert code == 1 and shown.startswith("错误：无法读取 Brave Search API 的密钥：操作系统钥匙串不可用：")
    assert "在 Debian GNU/Linux 13 (trixie) 上" in shown and not [w for w in LIBRARY_WORDS if w in shown]
