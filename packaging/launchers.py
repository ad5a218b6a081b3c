"""The shell scripts of the Linux packages, made from the bundle's glibc floor.

- ``preinst`` (the .deb): refuses a system the bundle cannot run on *before* dpkg unpacks
  anything, with a sentence a person understands, in English and Bengali. apt already
  refuses through ``Depends: libc6 (>= floor)``, but ``dpkg -i`` (and a graphical
  installer that goes through dpkg) would otherwise unpack 1.2 GB that can never start.
- the GUI launchers (``/usr/bin/upabhasha-gui``, the tarball's ``upabhasha-launcher``): the
  same check, then the program with its stderr kept in ``launcher.log`` in the log folder the
  app uses (platformdirs' user log dir: ``$XDG_STATE_HOME/upabhasha/log``), so a crash at
  start can be read; a failure is shown in a window with the first dialog tool the desktop
  has (zenity, kdialog, xmessage, notify-send), because a program started from the menu has
  no terminal to print to.
- the CLI launcher (``/usr/bin/upabhasha``): the check, in the terminal only.

Every outside program the checks use is found on ``PATH`` (``getconf``, ``ldd``, ``uname``,
the dialog tools), so tests point them at fakes.
"""

from __future__ import annotations

# The first Debian release and the first Ubuntu LTS with each glibc (what the refusal names).
DEBIAN_GLIBC = (("11", "2.31"), ("12", "2.36"), ("13", "2.41"))
UBUNTU_LTS_GLIBC = (("20.04", "2.31"), ("22.04", "2.35"), ("24.04", "2.39"), ("26.04", "2.42"))
BENGALI_DIGITS = str.maketrans("0123456789", "০১২৩৪৫৬৭৮৯")
LOG_RESTART_BYTES = 1 << 20  # launcher.log starts again (the old one kept as .1) past 1 MiB


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


def systems_from(floor: str) -> tuple[str, str]:
    """The first Debian and Ubuntu LTS releases whose glibc is ``floor`` or newer, in English
    and in Bengali ("Debian 12, Ubuntu 24.04")."""
    found = []
    for name, bengali, releases in (
        ("Debian", "ডেবিয়ান", DEBIAN_GLIBC),
        ("Ubuntu", "উবুন্টু", UBUNTU_LTS_GLIBC),
    ):
        release = next((r for r, g in releases if _version(g) >= _version(floor)), None)
        if release:
            found.append((f"{name} {release}", f"{bengali} {release.translate(BENGALI_DIGITS)}"))
    return ", ".join(e for e, _ in found), ", ".join(b for _, b in found)


# Shell functions shared by the preinst and the launchers. ``system_problem`` prints the
# sentence (English, then Bengali) when this machine cannot run the bundle, else nothing.
CHECKS = r"""need={floor}
glibc_version() {{
    # getconf answers "glibc 2.36"; where it is missing, ldd's first line ends with it
    version=$(getconf GNU_LIBC_VERSION 2>/dev/null | sed -n 's/^glibc \([0-9.]*\)$/\1/p')
    [ -n "$version" ] || version=$(ldd --version 2>/dev/null | sed -n '1s/.* \([0-9][0-9.]*\)$/\1/p')
    echo "$version"
}}
bengali_digits() {{
    echo "$1" | sed 's/0/০/g; s/1/১/g; s/2/২/g; s/3/৩/g; s/4/৪/g; s/5/৫/g; s/6/৬/g; s/7/৭/g; s/8/৮/g; s/9/৯/g'
}}
system_problem() {{
    machine=$(uname -m 2>/dev/null)
    if [ -n "$machine" ] && [ "$machine" != x86_64 ]; then
        echo "Upabhasha needs a 64-bit Intel or AMD processor (x86-64); this computer has $machine."
        echo "উপভাষা চালাতে ৬৪-বিটের ইন্টেল বা এএমডি প্রসেসর লাগে; এই কম্পিউটারের প্রসেসর অন্য ধরনের।"
        return
    fi
    have=$(glibc_version)
    # an unknown version is let through: apt's Depends still guards the install
    if [ -n "$have" ] && [ "$(printf '%s\n%s\n' "$need" "$have" | sort -V | head -n1)" != "$need" ]; then
        echo "Upabhasha needs glibc $need or newer ({systems}); this computer has glibc $have."
        echo "উপভাষা চালাতে জিলিবসি {need_bn} বা তার নতুন সংস্করণ লাগে ({systems_bn}); এই কম্পিউটারে আছে $(bengali_digits "$have")।"
    fi
    return 0
}}"""


def checks(floor: str) -> str:
    systems, systems_bn = systems_from(floor)
    return CHECKS.format(
        floor=floor,
        systems=systems,
        systems_bn=systems_bn,
        need_bn=floor.translate(BENGALI_DIGITS),
    )


PREINST = """#!/bin/sh
# Refuses a machine that cannot run Upabhasha before dpkg unpacks anything (dpkg shows
# this script's message and stops; nothing of the package is left behind).
set -e
{checks}
case "$1" in
    install|upgrade)
        problem=$(system_problem)
        if [ -n "$problem" ]; then
            echo "$problem" >&2
            exit 1
        fi
        ;;
esac
exit 0
"""


def preinst(floor: str) -> str:
    return PREINST.format(checks=checks(floor))


CLI_LAUNCHER = """#!/bin/sh
# Upabhasha (command line); the program folder is /{prefix}
{checks}
problem=$(system_problem)
if [ -n "$problem" ]; then
    echo "$problem" >&2
    exit 1
fi
exec /{prefix}/upabhasha "$@"
"""


def cli_launcher(floor: str, prefix: str) -> str:
    return CLI_LAUNCHER.format(checks=checks(floor), prefix=prefix)


# The program runs with its stderr going through tee into launcher.log and on to the
# launcher's own stderr (tee -p: a closed stderr does not stop it); its exit status comes
# back through file descriptor 4.
GUI_LAUNCHER = """#!/bin/sh
# {title}
# A failure is written to launcher.log in the app's log folder (with everything the program
# writes to stderr) and shown in a window when there is no terminal to show it.
{checks}
{program}
log_dir="${{UPABHASHA_LOG_DIR:-${{XDG_STATE_HOME:-$HOME/.local/state}}/upabhasha/log}}"
log="$log_dir/launcher.log"
if mkdir -p "$log_dir" 2>/dev/null && touch "$log" 2>/dev/null; then
    if [ "$(wc -c < "$log")" -gt {restart_bytes} ]; then
        mv -f "$log" "$log.1"
    fi
else
    log=""
fi

show_failure() {{
    echo "$1" >&2
    if [ -n "$log" ]; then
        printf '%s launcher: %s\\n' "$(date '+%Y-%m-%d %H:%M:%S')" "$1" >> "$log"
    fi
    # from a terminal the person has read it there; without a display no window can show
    if [ -t 2 ] || [ -z "$DISPLAY$WAYLAND_DISPLAY" ]; then
        return 0
    fi
    if command -v zenity >/dev/null 2>&1; then
        zenity --error --no-markup --title=Upabhasha --text="$1"
    elif command -v kdialog >/dev/null 2>&1; then
        kdialog --title Upabhasha --error "$1"
    elif command -v xmessage >/dev/null 2>&1; then
        # X core fonts have no Bengali letters: the English lines only
        echo "$1" | grep -v '[^ -~]' | xmessage -center -title Upabhasha -file -
    elif command -v notify-send >/dev/null 2>&1; then
        notify-send --app-name=Upabhasha --urgency=critical Upabhasha "$1"
    fi
    return 0
}}

problem=$(system_problem)
if [ -n "$problem" ]; then
    show_failure "$problem"
    exit 1
fi
if [ -z "$log" ]; then
    exec "$program" "$@"  # no writable log folder: start as it is
fi
before=$(wc -c < "$log")
printf '%s launcher: start %s\\n' "$(date '+%Y-%m-%d %H:%M:%S')" "$program" >> "$log"
{{ status=$( {{ {{ "$program" "$@" 2>&1 1>&3 3>&- 4>&-; echo $? >&4; }} | tee -a -p "$log" >&2 3>&- 4>&-; }} 4>&1 ); }} 3>&1
status=${{status:-1}}
if [ "$status" -ne 0 ]; then
    said=$(tail -c +"$((before + 1))" "$log" | grep -v ' launcher: start ' | tail -n 6)
    show_failure "Upabhasha stopped with an error (exit status $status). The details are in $log:
$said
উপভাষা একটি ত্রুটির কারণে বন্ধ হয়ে গেছে (প্রস্থান অবস্থা $(bengali_digits "$status"))। বিস্তারিত আছে $log ফাইলে।"
fi
exit "$status"
"""


def gui_launcher(floor: str, program: str, title: str) -> str:
    """``program``: the shell line that sets ``$program`` (an absolute path, or one next to
    the launcher)."""
    return GUI_LAUNCHER.format(
        checks=checks(floor), program=program, title=title, restart_bytes=LOG_RESTART_BYTES
    )


def deb_gui_launcher(floor: str, prefix: str) -> str:
    return gui_launcher(
        floor,
        f'program="/{prefix}/upabhasha-gui"',
        f"Upabhasha (window); the program folder is /{prefix}",
    )


def tarball_launcher(floor: str) -> str:
    return gui_launcher(
        floor,
        'program="$(dirname "$(readlink -f "$0")")/upabhasha-gui"',
        "Upabhasha launcher: starts the program from wherever this folder was unpacked.\n"
        "# The command line is next to it: ./upabhasha --help",
    )
