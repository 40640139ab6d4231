"""Build the desktop bundle with PyInstaller and smoke-test it: `uv run --group packaging python packaging/build.py`.

Builds `packaging/dist/stockbench/` (one folder) from packaging/stockbench.spec, checks that the shipped data is
inside, then runs the bundle with no network (a network namespace where `unshare` allows one, else a dead proxy;
and every run fails on any network call Python makes, see entry.py's audit hook):
`demo`, a full offline `analyze` that must publish, `reports verify`, `eval` (ok), litellm's offline import, and
the window offscreen until its first paint (STOCKBENCH_SMOKE_QUIT). Prints the bundle size and the start times.
Exit code 1 on any failure. `--no-build` smoke-tests the existing bundle.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DIST = HERE / "dist"
WORK = HERE / "work"
BUNDLE = DIST / "stockbench"
EXE = BUNDLE / ("stockbench.exe" if sys.platform == "win32" else "stockbench")
PREFERRED_SYMBOL = "605903.SH"
TIMEOUT_S = 600
# Files that must be inside the bundle's data folder (relative to it): the app finds them through sys._MEIPASS.
REQUIRED = (
    "handbook/index.toml", "resources/market_rules.toml", "resources/llm_capabilities.toml",
    "resources/evals/tool_routing.toml", "resources/demo/market.toml", "resources/demo/announcements.toml",
    "resources/calibration/scenario_table.json", "resources/icons/stockbench.svg",
    "resources/translations/stockbench_zh_CN.qm", "PySide6/Qt/translations/qtbase_zh_CN.qm",
    "stockbench/store/schema/0001_foundation.sql", "litellm/model_prices_and_context_window_backup.json",
    "PySide6/Qt/plugins/platforms/libqoffscreen.so", "PySide6/Qt/plugins/imageformats/libqsvg.so",
)  # fmt: skip
AUDIT_ENV, ATTEMPT_MARK = "STOCKBENCH_BUNDLE_AUDIT_NETWORK", "NETWORK_ATTEMPT"  # see packaging/entry.py
FORBIDDEN = ("resources/translations/stockbench_zh_CN.ts", "PySide6/QtQuick.abi3.so", "pytest", "PyInstaller")


class SmokeFailure(Exception):
    """The bundle did not do what it must."""


def build() -> float:
    """Run PyInstaller on the spec; returns the seconds it took."""
    started = time.perf_counter()
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    subprocess.run(
        [sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean", "--log-level", "WARN",
         "--distpath", str(DIST), "--workpath", str(WORK), str(HERE / "stockbench.spec")],
        check=True, cwd=ROOT, env=env,
    )  # fmt: skip
    return time.perf_counter() - started


def data_folder() -> Path:
    """Where PyInstaller put the data files (`_internal/` since PyInstaller 6)."""
    internal = BUNDLE / "_internal"
    return internal if internal.is_dir() else BUNDLE


def check_contents() -> None:
    """The shipped data is inside and the excluded modules are not."""
    folder = data_folder()
    missing = [name for name in REQUIRED if not (folder / name).exists()]
    present = [name for name in FORBIDDEN if (folder / name).exists()]
    dangling = [str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_symlink() and not p.exists()]
    if missing or present or dangling:
        raise SmokeFailure(f"bundle contents: missing {missing}, should be absent {present}, broken links {dangling}")


def size_mb(path: Path) -> float:
    """Bytes under `path` in MB (symbolic links count as nothing: they point inside the bundle)."""
    if path.is_symlink() or not path.exists():
        return 0.0
    if path.is_file():
        return path.stat().st_size / 1e6
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink()) / 1e6


def largest(folder: Path, count: int = 8) -> list[tuple[str, float]]:
    """The biggest top-level entries of the data folder, in MB."""
    return sorted(((p.name, size_mb(p)) for p in folder.iterdir()), key=lambda item: -item[1])[:count]


def offline_prefix() -> tuple[list[str], dict[str, str]]:
    """How to run with no network: a new network namespace (only loopback, down) if allowed, else a dead proxy."""
    unshare = shutil.which("unshare")
    if unshare and subprocess.run([unshare, "-rn", "true"], capture_output=True, check=False).returncode == 0:
        return [unshare, "-rn"], {}
    dead = "http://127.0.0.1:9"
    return [], {"HTTP_PROXY": dead, "HTTPS_PROXY": dead, "ALL_PROXY": dead, "NO_PROXY": ""}


class Bundle:
    """Runs the built executable offline, offscreen, on folders under `scratch` (never the user's)."""

    def __init__(self, exe: Path, scratch: Path) -> None:
        self.exe, self.scratch = exe, scratch
        prefix, proxy = offline_prefix()
        self.prefix, self.isolation = prefix, ("network namespace" if prefix else "dead proxy")
        keep = {k: v for k, v in os.environ.items() if not k.startswith(("STOCKBENCH_", "XDG_", "LITELLM_", "PYTHON"))}
        self.env = {**keep, **proxy, "QT_QPA_PLATFORM": "offscreen", "HOME": str(scratch / "user"),
                    "XDG_CONFIG_HOME": str(scratch / "config"), "XDG_DATA_HOME": str(scratch / "data"),
                    "XDG_CACHE_HOME": str(scratch / "cache"), "STOCKBENCH_HOME": str(scratch / "demo"),
                    AUDIT_ENV: "1"}  # fmt: skip

    def run(self, *args: str, extra: dict[str, str] | None = None) -> tuple[str, float, str]:
        """Run the bundle with `args`; (stdout, wall seconds, stderr). Raises SmokeFailure on a non-zero exit or
        on any network call."""
        started = time.perf_counter()
        command, env = [*self.prefix, str(self.exe), *args], {**self.env, **(extra or {})}
        done = subprocess.run(
            command, env=env, cwd=self.scratch, capture_output=True, text=True, timeout=TIMEOUT_S, check=False
        )
        seconds = time.perf_counter() - started
        if done.returncode != 0:
            raise SmokeFailure(f"`stockbench {' '.join(args)}` exited {done.returncode}:\n{done.stderr[-3000:]}")
        attempts = [line for line in done.stderr.splitlines() if line.startswith(ATTEMPT_MARK)]
        if attempts:
            raise SmokeFailure(f"`stockbench {' '.join(args)}` {extra or ''} tried the network: {attempts}")
        return done.stdout, seconds, done.stderr

    def json(self, *args: str) -> dict[str, object]:
        stdout, _, _ = self.run("--json", *args)
        return json.loads(stdout)  # type: ignore[no-any-return]

    def first_paint(self, extra: dict[str, str]) -> float:
        """Seconds from process start to the first paint, as the process itself reports it."""
        stdout, _, _ = self.run(extra=extra)
        for line in stdout.splitlines():
            if line.startswith("first-paint "):
                return float(line.split()[1])
        raise SmokeFailure(f"no first-paint line in {stdout!r}")


def chinese_window(bundle: Bundle) -> None:
    """The window in Chinese (the language setting, as Settings writes it) finds both translation catalogues."""
    settings = bundle.scratch / "config" / "StockWorkbench" / "Stock Workbench.conf"  # ui/app.py ORGANIZATION
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text("[ui]\nlanguage=zh_CN\n", encoding="utf-8")
    try:
        stderr = bundle.run(extra={"STOCKBENCH_SMOKE_QUIT": "1"})[2]
    finally:
        settings.unlink()
    if "translation" in stderr:
        raise SmokeFailure(f"the Chinese catalogues did not load: {stderr[-2000:]}")


def start_times(bundle: Bundle) -> dict[str, float]:
    """`--version` (first run and best of the next two), the window's first paint and an empty window's."""
    runs = [bundle.run("--version")[1] for _ in range(3)]
    window = bundle.first_paint({"STOCKBENCH_SMOKE_QUIT": "1"})
    empty = bundle.first_paint({"STOCKBENCH_BUNDLE_CHECK": "empty-window"})
    return {"cli_version_cold_s": runs[0], "cli_version_warm_s": min(runs[1:]), "first_paint_s": window,
            "empty_window_first_paint_s": empty, "first_paint_ratio": window / empty}  # fmt: skip


def research(bundle: Bundle) -> dict[str, object]:
    """demo, analyze (offline model, must publish), reports verify, eval (ok), litellm offline, the window."""
    symbols = [str(s) for s in bundle.json("demo")["symbols"]]  # type: ignore[attr-defined]
    symbol = PREFERRED_SYMBOL if PREFERRED_SYMBOL in symbols else next(s for s in symbols if s.startswith("6"))
    started = time.perf_counter()
    outcome = bundle.json("analyze", symbol)
    analysis_s = time.perf_counter() - started
    if outcome.get("status") != "published":
        raise SmokeFailure(f"the offline analysis did not publish: {outcome}")
    verified = bundle.json("reports", "verify", str(outcome["report_id"]))
    if not verified.get("ok"):
        raise SmokeFailure(f"the published report does not verify: {verified}")
    evaluation = bundle.json("eval")
    if evaluation.get("ok") is not True:
        raise SmokeFailure(f"eval is not ok: {json.dumps(evaluation)[:2000]}")
    litellm = json.loads(bundle.run(extra={"STOCKBENCH_BUNDLE_CHECK": "litellm"})[0])
    attached = bundle.run(extra={"STOCKBENCH_SMOKE_QUIT": "attached"})[0]
    chinese_window(bundle)
    return {"symbol": symbol, "report_id": outcome["report_id"], "analysis_s": analysis_s, "litellm": litellm,
            "eval_cases": sum(int(c["passed"]) for c in evaluation["categories"].values()),  # type: ignore[attr-defined]
            "window_attached": attached.split()[-2] if "workspace-attached" in attached else None}  # fmt: skip


def report(build_s: float | None, times: dict[str, float], facts: dict[str, object], isolation: str) -> None:
    folder = data_folder()
    print(f"bundle: {BUNDLE} ({size_mb(BUNDLE):.0f} MB)" + (f", built in {build_s:.0f} s" if build_s else ""))
    print("  largest: " + ", ".join(f"{name} {mb:.0f} MB" for name, mb in largest(folder)))
    print(f"smoke ran offline ({isolation}), offscreen")
    print(f"cold start: CLI --version {times['cli_version_cold_s']:.2f} s (warm {times['cli_version_warm_s']:.2f} s), "
          f"window first paint {times['first_paint_s']:.2f} s vs an empty PySide6 window "
          f"{times['empty_window_first_paint_s']:.2f} s (ratio {times['first_paint_ratio']:.1f})")  # fmt: skip
    print(f"window with the demo workspace attached: {facts['window_attached']} s after start")
    print(f"offline analysis of {facts['symbol']}: {facts['analysis_s']:.1f} s, report {facts['report_id']} verified; "
          f"eval ok ({facts['eval_cases']} cases passed)")  # fmt: skip
    print(f"litellm offline: {json.dumps(facts['litellm'], ensure_ascii=False)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--no-build", action="store_true", help="smoke-test the existing bundle")
    parser.add_argument("--archive", action="store_true", help="after a passing smoke test, pack the bundle to share")
    args = parser.parse_args()
    build_s = None if args.no_build else build()
    try:
        check_contents()
        with tempfile.TemporaryDirectory(prefix="stockbench-smoke-") as scratch:
            bundle = Bundle(EXE, Path(scratch))
            times = start_times(bundle)
            facts = research(bundle)
    except (SmokeFailure, subprocess.TimeoutExpired, json.JSONDecodeError) as error:
        print(f"smoke test failed: {error}", file=sys.stderr)
        return 1
    report(build_s, times, facts, bundle.isolation)
    if args.archive:
        print(f"archive: {archive()}")
    return 0


def archive() -> Path:
    """`packaging/dist/stockbench-<version>-<os>-<machine>.tar.gz`: the tested folder, ready to download and unpack."""
    import platform
    import shutil

    from stockbench import __version__

    name = f"stockbench-{__version__}-{sys.platform.replace('32', '')}-{platform.machine().lower()}"
    fmt = "zip" if sys.platform == "win32" else "gztar"
    return Path(shutil.make_archive(str(DIST / name), fmt, root_dir=DIST, base_dir="stockbench"))


if __name__ == "__main__":
    sys.exit(main())
