"""The refusal a person sees: the .deb's preinst and the launchers, run as dash runs them,
with the outside programs they ask (getconf, ldd, uname, the dialog tools) replaced by
fakes on PATH where a test needs another answer (fault injection). Fast: no build."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "packaging"))

launchers = pytest.importorskip("launchers")

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the Linux packages' scripts")

FLOOR = "2.36"
SENTENCE = (
    "Upabhasha needs glibc 2.36 or newer (Debian 12, Ubuntu 24.04); this computer has glibc 2.31."
)
BENGALI = "এই কম্পিউটারে আছে ২.৩১।"
DIALOGS = ("zenity", "kdialog", "xmessage", "notify-send")


def fake(folder: Path, name: str, body: str) -> Path:
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
    path.chmod(0o755)
    return path


def recorder(folder: Path, name: str) -> Path:
    """A fake dialog tool that writes its arguments, one a line, then what it read on stdin,
    to ``<name>.args``."""
    record = folder.parent / f"{name}.args"
    fake(folder, name, f'printf "%s\\n" "$@" > "{record}"\ncat >> "{record}"')
    return record


def hidden_dialogs(folder: Path) -> str:
    """A PATH on which only the fakes in ``folder`` provide a dialog tool: the system
    folders are reached through links to the few programs the scripts use."""
    tools = folder.parent / "tools"
    tools.mkdir(exist_ok=True)
    for name in ("sh", "sed", "sort", "head", "tail", "cat", "date", "wc", "mkdir", "touch",
                 "mv", "tee", "grep", "printf", "dirname", "readlink", "uname", "getconf",
                 "ldd", "kill"):  # fmt: skip
        found = shutil.which(name)
        if found and not (tools / name).exists():
            (tools / name).symlink_to(found)
    return f"{folder}:{tools}"


def run(script: str, *args: str, path: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run the text ``script``, or the launcher file it names, with only ``env``."""
    command = ["sh", "-c", script, "sh", *args] if script.startswith("#!") else [script, *args]
    return subprocess.run(
        command,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env={"PATH": path, "LANG": "C.UTF-8", **(env or {})},
        timeout=60,
    )


def test_the_floor_names_the_first_debian_and_ubuntu_that_have_it():
    assert launchers.systems_from("2.36") == ("Debian 12, Ubuntu 24.04", "ডেবিয়ান ১২, উবুন্টু ২৪.০৪")
    assert launchers.systems_from("2.31")[0] == "Debian 11, Ubuntu 20.04"
    assert launchers.systems_from("2.35")[0] == "Debian 12, Ubuntu 22.04"


def test_preinst_refuses_an_older_glibc_with_a_plain_sentence(tmp_path):
    bin_ = tmp_path / "bin"
    fake(bin_, "getconf", 'echo "glibc 2.31"')
    refused = run(launchers.preinst(FLOOR), "install", path=f"{bin_}:/usr/bin:/bin")
    assert refused.returncode == 1
    assert refused.stdout == ""
    english, bengali = refused.stderr.splitlines()
    assert english == SENTENCE
    assert bengali.endswith(BENGALI) and not any("a" <= c.lower() <= "z" for c in bengali)


def test_preinst_reads_ldd_where_getconf_is_missing(tmp_path):
    bin_ = tmp_path / "bin"
    fake(bin_, "getconf", "exit 1")
    fake(bin_, "ldd", 'echo "ldd (Debian GLIBC 2.31-13+deb11u11) 2.31"')
    refused = run(launchers.preinst(FLOOR), "install", path=f"{bin_}:/usr/bin:/bin")
    assert refused.returncode == 1 and refused.stderr.splitlines()[0] == SENTENCE


@pytest.mark.parametrize("have", ["2.36", "2.39", "2.41"])
def test_preinst_lets_the_floor_and_newer_install(tmp_path, have):
    bin_ = tmp_path / "bin"
    fake(bin_, "getconf", f'echo "glibc {have}"')
    for action in ("install", "upgrade"):
        done = run(launchers.preinst(FLOOR), action, "0.1.0", path=f"{bin_}:/usr/bin:/bin")
        assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_preinst_refuses_another_processor_and_stays_out_of_an_abort(tmp_path):
    bin_ = tmp_path / "bin"
    fake(bin_, "uname", "echo aarch64")
    script = launchers.preinst(FLOOR)
    refused = run(script, "install", path=f"{bin_}:/usr/bin:/bin")
    assert refused.returncode == 1
    assert refused.stderr.startswith("Upabhasha needs a 64-bit Intel or AMD processor (x86-64);")
    assert "this computer has aarch64." in refused.stderr
    # dpkg calls preinst again with abort-*: nothing to refuse then
    assert run(script, "abort-upgrade", "0.1.0", path=f"{bin_}:/usr/bin:/bin").returncode == 0


def test_the_cli_launcher_refuses_in_the_terminal_and_starts_otherwise(tmp_path):
    bin_ = tmp_path / "bin"
    fake(bin_, "getconf", 'echo "glibc 2.31"')
    prefix = tmp_path / "opt"
    fake(prefix, "upabhasha", 'echo "started $*"')
    script = launchers.cli_launcher(FLOOR, str(prefix).lstrip("/"))
    refused = run(script, "--help", path=f"{bin_}:/usr/bin:/bin")
    assert refused.returncode == 1 and refused.stderr.splitlines()[0] == SENTENCE
    fake(bin_, "getconf", 'echo "glibc 2.36"')
    started = run(script, "--help", path=f"{bin_}:/usr/bin:/bin")
    assert (started.returncode, started.stdout) == (0, "started --help\n")


def launcher_in(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "upabhasha-launcher"
    path.write_text(launchers.tarball_launcher(FLOOR), encoding="utf-8")
    path.chmod(0o755)
    return path


def user(tmp_path: Path, **extra: str) -> dict:
    return {"HOME": str(tmp_path / "home"), "DISPLAY": ":99", **extra}


def app_log_dir(monkeypatch, env: dict) -> Path:
    """The log folder the app itself uses (platformdirs) in the environment ``env``."""
    from app.logging_setup import log_dir

    for key in ("UPABHASHA_LOG_DIR", "XDG_STATE_HOME"):
        monkeypatch.delenv(key, raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    return log_dir()


def test_a_bundle_that_aborts_at_start_is_logged_and_shown_in_a_window(tmp_path, monkeypatch):
    program = tmp_path / "upabhasha-0.1.0"
    fake(program, "upabhasha-gui", 'echo "Fatal Python error: no module named encodings" >&2\n'
         'echo "stdout stays stdout"\nkill -ABRT $$')  # fmt: skip
    bin_ = tmp_path / "bin"
    args = recorder(bin_, "zenity")
    recorder(bin_, "xmessage")
    env = user(tmp_path)
    done = run(str(launcher_in(program)), path=hidden_dialogs(bin_), env=env)
    assert done.returncode == 134  # 128 + SIGABRT, passed on
    assert done.stdout == "stdout stays stdout\n"
    assert "Fatal Python error: no module named encodings" in done.stderr  # still on stderr
    log = app_log_dir(monkeypatch, env) / "launcher.log"
    assert log == tmp_path / "home/.local/state/upabhasha/log/launcher.log"
    text = log.read_text(encoding="utf-8")
    assert "Fatal Python error: no module named encodings" in text
    assert "Upabhasha stopped with an error (exit status 134)" in text
    shown = args.read_text(encoding="utf-8")
    assert shown.startswith("--error\n--no-markup\n--title=Upabhasha\n--text=Upabhasha stopped")
    assert "Fatal Python error: no module named encodings" in shown and str(log) in shown
    assert "(প্রস্থান অবস্থা ১৩৪)" in shown
    assert not (tmp_path / "xmessage.args").exists()  # the first tool found, only


def test_the_window_comes_from_the_first_dialog_tool_the_desktop_has(tmp_path):
    program = tmp_path / "upabhasha-0.1.0"
    fake(program, "upabhasha-gui", 'echo "Cannot load the Qt platform plugin xcb" >&2\nexit 3')
    launcher = str(launcher_in(program))
    for i, tool in enumerate(reversed(DIALOGS)):
        bin_ = tmp_path / f"case{i}" / "bin"
        bin_.parent.mkdir()
        records = {name: recorder(bin_, name) for name in DIALOGS[DIALOGS.index(tool) :]}
        done = run(launcher, path=hidden_dialogs(bin_), env=user(tmp_path))
        assert done.returncode == 3
        called = [name for name, record in records.items() if record.exists()]
        assert called == [tool]
        shown = records[tool].read_text(encoding="utf-8")
        assert "Cannot load the Qt platform plugin xcb" in shown
        if tool == "xmessage":  # X core fonts: no Bengali line
            assert "উপভাষা" not in shown and "-file\n-" in shown
        else:
            assert "উপভাষা" in shown


def test_an_old_system_is_refused_in_a_window_before_the_program_runs(tmp_path, monkeypatch):
    program = tmp_path / "upabhasha-0.1.0"
    ran = tmp_path / "ran"
    fake(program, "upabhasha-gui", f'touch "{ran}"')
    bin_ = tmp_path / "bin"
    fake(bin_, "getconf", 'echo "glibc 2.31"')
    args = recorder(bin_, "kdialog")
    env = user(tmp_path, XDG_STATE_HOME=str(tmp_path / "state"))
    done = run(str(launcher_in(program)), path=hidden_dialogs(bin_), env=env)
    assert done.returncode == 1 and not ran.exists()
    assert args.read_text(encoding="utf-8").splitlines()[:4] == [
        "--title",
        "Upabhasha",
        "--error",
        SENTENCE,
    ]
    log = app_log_dir(monkeypatch, env) / "launcher.log"
    assert log == tmp_path / "state/upabhasha/log/launcher.log" and SENTENCE in log.read_text()


def test_a_clean_start_and_exit_shows_nothing_and_keeps_stderr(tmp_path):
    program = tmp_path / "upabhasha-0.1.0"
    fake(program, "upabhasha-gui", 'echo "a Qt warning" >&2\necho "args: $*"')
    bin_ = tmp_path / "bin"
    args = recorder(bin_, "zenity")
    logs = tmp_path / "logs"
    env = user(tmp_path, UPABHASHA_LOG_DIR=str(logs))  # the app's own override, honoured
    done = run(str(launcher_in(program)), "study.sqlite", "--new", path=hidden_dialogs(bin_),
               env=env)  # fmt: skip
    assert (done.returncode, done.stdout) == (0, "args: study.sqlite --new\n")
    assert done.stderr == "a Qt warning\n"
    assert "a Qt warning" in (logs / "launcher.log").read_text()
    assert not args.exists()


def test_without_a_display_or_from_a_terminal_no_window_is_opened(tmp_path):
    program = tmp_path / "upabhasha-0.1.0"
    fake(program, "upabhasha-gui", "exit 1")
    bin_ = tmp_path / "bin"
    args = recorder(bin_, "zenity")
    env = {"HOME": str(tmp_path / "home")}  # no DISPLAY, no WAYLAND_DISPLAY
    done = run(str(launcher_in(program)), path=hidden_dialogs(bin_), env=env)
    assert done.returncode == 1 and "exit status 1" in done.stderr
    assert not args.exists()


def test_an_unwritable_home_still_starts_the_program(tmp_path):
    program = tmp_path / "upabhasha-0.1.0"
    fake(program, "upabhasha-gui", 'echo "started"')
    bin_ = tmp_path / "bin"
    recorder(bin_, "zenity")
    env = user(tmp_path, XDG_STATE_HOME="/proc/no-such-folder")
    done = run(str(launcher_in(program)), path=hidden_dialogs(bin_), env=env)
    assert (done.returncode, done.stdout) == (0, "started\n")


def test_scripts_parse_under_dash():
    if not shutil.which("dash"):
        pytest.skip("dash is Debian's /bin/sh")
    for script in (
        launchers.preinst(FLOOR),
        launchers.cli_launcher(FLOOR, "opt/upabhasha"),
        launchers.deb_gui_launcher(FLOOR, "opt/upabhasha"),
        launchers.tarball_launcher(FLOOR),
    ):
        assert script.startswith("#!/bin/sh\n")
        checked = subprocess.run(["dash", "-n"], input=script, capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr
