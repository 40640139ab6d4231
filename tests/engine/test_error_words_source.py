"""No user error of the engine is worded in English only (issue 19): every UserError (or subclass) the engine's
source builds from a plain string — `raise NotFound(f"...")`, `InvalidInput("...")` — is either made with
`stockbench.messages.user_error` (or carries its catalogue `key=`), or stands on the allow-list below, each with why
a person never reads it."""

from __future__ import annotations

import ast
from pathlib import Path

import stockbench

ENGINE = Path(stockbench.__file__).parent

# (file, how its text starts): errors built from a plain string that no person reads as an error line or a dialog
ALLOWED = {
    # the eval harness's simulated provider failure: the eval injects it and records it as the fault it chose
    ("evals/faults.py", "simulated: the provider did not answer"),
    # a chat request is built by the program (the research loop, the probe), never from what a person types: a bad
    # one is a bug of its caller
    ("llm/messages.py", "{what} is not plain JSON"),
    ("llm/messages.py", "a chat request needs at least one message"),
    ("llm/messages.py", "extra request parameters may not set"),
    # two model call costs the program adds up; a person never gives a cost's currency
    ("llm/prices.py", "cannot add"),
    # the connection test's one-key store: the program only reads it, nothing stores into it
    ("llm/service.py", "a draft key cannot be stored"),
    # the error ending a model call that tried no model: its reason is the attempts' notes (the providers' words)
    ("llm/client.py", "model '{self.request.model}' was not called"),
}


def _user_error_classes(trees: dict[Path, ast.Module]) -> set[str]:
    """UserError and every class of the engine derived from it (by name, through any depth)."""
    found, grew = {"UserError"}, True
    while grew:
        grew = False
        for tree in trees.values():
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef) and node.name not in found:
                    bases = {b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases}
                    if bases & found:
                        found.add(node.name)
                        grew = True
    return found


def _text_start(node: ast.expr) -> str | None:
    """How a plain-string message starts ({name} for a value), or None when the message is not a literal."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{" + ast.unparse(v.value) + "}"
                       for v in node.values)  # fmt: skip
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        return _text_start(node.left)
    return None


def plain_worded(root: Path = ENGINE) -> list[tuple[str, str, int]]:
    """(file, message start, line) of every UserError the source under `root` builds from a plain string without a
    catalogue key."""
    trees = {path: ast.parse(path.read_text(encoding="utf-8")) for path in sorted(root.rglob("*.py"))}
    classes = _user_error_classes(trees)
    found = []
    for path, tree in trees.items():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or any(k.arg == "key" for k in node.keywords):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            first = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "message"), None)
            text = _text_start(first) if name in classes and first is not None else None
            if text is not None:
                found.append((path.relative_to(root).as_posix(), text, node.lineno))
    return found


def _allowed(file: str, text: str) -> bool:
    return any(file == where and text.startswith(start) for where, start in ALLOWED)


def test_no_user_error_is_worded_in_english_only() -> None:
    left = [
        f"stockbench/{file}:{line}: {text[:80]!r}" for file, text, line in plain_worded() if not _allowed(file, text)
    ]
    assert not left, "user errors worded in English only (use messages.user_error with a key):\n" + "\n".join(left)


def test_every_allowed_error_is_still_there() -> None:
    found = plain_worded()
    stale = [entry for entry in ALLOWED if not any(file == entry[0] and text.startswith(entry[1])
                                                   for file, text, _ in found)]  # fmt: skip
    assert not stale, f"allow-list entries that match nothing any more: {stale}"


def test_the_scan_finds_a_plain_worded_error(tmp_path: Path) -> None:
    """The scan itself: a raise of a subclass of a subclass with an f-string is found, one with a key is not."""
    (tmp_path / "mod.py").write_text(
        "class UserError(Exception): ...\nclass NotFound(UserError): ...\nclass Gone(NotFound): ...\n"
        "def f(x):\n    raise Gone(f'no {x} here', 'look elsewhere')\n"
        "def g(x):\n    raise NotFound('no x', key='x_missing')\n"
        "def h(x):\n    raise user_error(NotFound, 'x_missing', x=x)\n",
        encoding="utf-8",
    )
    assert plain_worded(tmp_path) == [("mod.py", "no {x} here", 5)]
