"""The Debian 11 root the Linux bundle is built in, so that no bundled file needs a glibc newer
than Debian 11's (2.31: Debian 11, Ubuntu 20.04 and 22.04 install it).

A program linked on a newer system asks for that system's glibc symbol versions, and
PyInstaller bundles the build machine's libstdc++, libssl, libsqlite3 and Python itself. So
the build venv, llama.cpp's compilation and PyInstaller all run inside a Debian 11 root:

1. ``debootstrap --variant=minbase bullseye`` with the compilers, the headers Python's
   modules need and the system libraries Qt's xcb platform plug-in links to (they are
   bundled, so they must be Debian 11's too);
2. SQLite and OpenSSL, then Python 3.11 linked to them, compiled there from Debian 12's own
   ``sqlite3``, ``openssl`` and ``python3.11`` sources with Debian's upstream fixes applied
   (bullseye has only Python 3.9, SQLite 3.34 and OpenSSL 1.1.1), every tarball checked
   against the sha256 the Debian archive's source index gives;
3. the build tools bullseye lacks, from the host: Vulkan and SPIR-V headers (bullseye's are
   older than llama.cpp accepts) and the shader compiler ``glslc``, which runs at build time
   only, with the host's own loader and libraries beside it.

The root is made once under ``~/.cache/upabhasha/roots/`` and reused while what it is made from
is unchanged (CI's clean clone reuses it); it is made in a scratch folder and renamed when
complete, so a killed build leaves no half root. Each command runs in a private mount
namespace (``unshare --mount``): the bind mounts it needs (the clone at its own path, the
pip and wheel caches, the host's pip configuration) vanish with the process however it ends.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import tarfile
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterable
from pathlib import Path

SUITE = "bullseye"
GLIBC_FLOOR = "2.31"  # Debian 11's glibc: what the bundle may need at most
# Debian 11's C++ runtime (gcc 10), which the bundle takes from the system (system_floor)
GLIBCXX_FLOOR = "3.4.28"
MIRROR = "http://deb.debian.org/debian"
POOL = f"{MIRROR}/pool/main/p/python3.11"
# Debian 12's python3.11 source: the upstream tarball and Debian's patches, with the sha256
# of the archive's source index (dists/bookworm/main/source/Sources.xz)
PYTHON_SOURCE = (
    (
        "python3.11_3.11.2.orig.tar.gz",
        "2411c74bda5bbcfcddaf4531f66d1adc73f247f529aee981b029513aefdbf849",
    ),
    (
        "python3.11_3.11.2-6+deb12u8.debian.tar.xz",
        "ece2d63c70ac0b7a401fbe6b51b0103be997c294a01a3865549be1862794ba97",
    ),
)
# Debian's patches before this one adapt Python to Debian's own file layout; from it on they
# are upstream fixes (security fixes among them), which the build applies
FIRST_UPSTREAM_FIX = "shutdown-deadlock.diff"
PYTHON_PREFIX = "/opt/python3.11"
PYTHON = f"{PYTHON_PREFIX}/bin/python3.11"
# Debian 12's SQLite (3.40.1): the workspace's SQL needs 3.35 (DROP COLUMN, an upsert without a
# conflict target) and bullseye has 3.34. Compiled with Debian's flags, its upstream fixes
# applied, into Python's prefix (on Python's run path, so _sqlite3 loads it).
SQLITE_POOL = f"{MIRROR}/pool/main/s/sqlite3"
SQLITE_SOURCE = (
    (
        "sqlite3_3.40.1.orig.tar.xz",
        "aaa776260ab4dc976db34aa7891819484c8676b5b2783123ebc6301e2ca5d655",
    ),
    (
        "sqlite3_3.40.1-2+deb12u2.debian.tar.xz",
        "0843bc12e4364076477935ce313a6d0796fd899a989ff18ebb6545540e10e4ca",
    ),
)
SQLITE_FIRST_FIX = "41-fix_a_bug_in_the_NOT_NULL-IS_NULL_optimization.patch"
SQLITE_CFLAGS = (
    "-O2 -fno-strict-aliasing -DSQLITE_SECURE_DELETE -DSQLITE_ENABLE_COLUMN_METADATA "
    "-DSQLITE_ENABLE_FTS3 -DSQLITE_ENABLE_FTS3_PARENTHESIS -DSQLITE_ENABLE_RTREE=1 "
    "-DSQLITE_SOUNDEX=1 -DSQLITE_ENABLE_UNLOCK_NOTIFY -DSQLITE_OMIT_LOOKASIDE=1 "
    "-DSQLITE_ENABLE_DBSTAT_VTAB -DSQLITE_ALLOW_ROWID_IN_VIEW "
    "-DSQLITE_ENABLE_UPDATE_DELETE_LIMIT=1 -DSQLITE_ENABLE_LOAD_EXTENSION "
    "-DSQLITE_ENABLE_JSON1 -DSQLITE_LIKE_DOESNT_MATCH_BLOBS -DSQLITE_THREADSAFE=1 "
    "-DSQLITE_ENABLE_FTS3_TOKENIZER=1 -DSQLITE_USE_URI=1 -DSQLITE_MAX_SCHEMA_RETRY=25 "
    "-DSQLITE_ENABLE_PREUPDATE_HOOK -DSQLITE_ENABLE_SESSION -DSQLITE_ENABLE_STMTVTAB "
    "-DSQLITE_MAX_VARIABLE_NUMBER=250000"
)
SQLITE_CONFIGURE = (
    "--enable-threadsafe", "--enable-load-extension", "--enable-fts4", "--enable-fts5",
    "--disable-tcl", "--disable-static",
)  # fmt: skip
# Debian 12's OpenSSL 3.0 (Debian 11's 1.1.1 is past its end of life), with Debian's flags
# and upstream fixes, into Python's prefix like SQLite. Its configuration folder is Debian's
# and Ubuntu's, so the system's settings and certificates are read (httpx brings certifi's).
OPENSSL_POOL = f"{MIRROR}/pool/main/o/openssl"
OPENSSL_SOURCE = (
    (
        "openssl_3.0.20.orig.tar.gz",
        "c80a01dfc70ece4dc21168932c37739042d404d46ccc81a5986dd75314ecda6f",
    ),
    (
        "openssl_3.0.20-1~deb12u2.debian.tar.xz",
        "7279efe85c359500c95aa88347e3395dd303d7566e2bb818d80d96e0c3bb9629",
    ),
)
OPENSSL_FIRST_FIX = "conf-Serialize-allocation-free-of-ssl_names.patch"
OPENSSL_CONFIGURE = (
    "shared", f"--prefix={PYTHON_PREFIX}", "--openssldir=/usr/lib/ssl", "--libdir=lib",
    "no-idea", "no-mdc2", "no-rc5", "no-zlib", "no-ssl3", "no-ssl3-method", "enable-rfc3779",
    "enable-cms", "no-capieng", "no-rdrand", "enable-ec_nistp_64_gcc_128", "linux-x86_64",
    f"-Wl,-rpath,{PYTHON_PREFIX}/lib",
)  # fmt: skip
# what the root's Python must have: the modules the product and pip use, SQLite >= 3.35,
# OpenSSL 3
PYTHON_CHECK = (
    "import bz2, ctypes, lzma, pyexpat, readline, sqlite3, ssl, uuid, zlib; "
    "assert sqlite3.sqlite_version_info >= (3, 35), sqlite3.sqlite_version; "
    "assert ssl.OPENSSL_VERSION_INFO >= (3, 0), ssl.OPENSSL_VERSION; "
    "print('Python', __import__('sys').version.split()[0], 'SQLite', sqlite3.sqlite_version, "
    "ssl.OPENSSL_VERSION)"
)
CONFIGURE = (
    f"--prefix={PYTHON_PREFIX}",
    "--enable-shared",
    "--with-ensurepip=install",
    f"--with-openssl={PYTHON_PREFIX}",
    f"LDFLAGS=-Wl,-rpath,{PYTHON_PREFIX}/lib",
)
# Debian's fix for CVE-2026-4224 makes pyexpat.c use core headers; Debian compiles the module
# as a core module, and 3.11's setup.py must be told to
PYEXPAT_FIX = "s|^MODULE_PYEXPAT_CFLAGS=.*|& -DPy_BUILD_CORE_MODULE|"
PACKAGES = (
    # compilers and the headers of Python's own modules
    "build-essential", "ca-certificates", "xz-utils", "pkg-config", "binutils", "file",
    "libffi-dev", "zlib1g-dev", "libbz2-dev", "liblzma-dev",
    "uuid-dev", "libreadline-dev", "libncurses-dev", "libexpat1-dev", "libgdbm-dev",
    "tcl",  # SQLite's build generates its sources with tclsh
    # llama.cpp's Vulkan backend links the loader (cmake and ninja come from PyPI)
    "libvulkan-dev",
    # what Qt's xcb plug-in links to: bundled, so taken from Debian 11
    "libx11-xcb1", "libxcb-cursor0", "libxcb-glx0", "libxcb-icccm4", "libxcb-image0",
    "libxcb-keysyms1", "libxcb-randr0", "libxcb-render-util0", "libxcb-render0",
    "libxcb-shape0", "libxcb-shm0", "libxcb-sync1", "libxcb-util1", "libxcb-xfixes0",
    "libxcb-xkb1", "libxkbcommon-x11-0", "libxkbcommon0", "libfontconfig1", "libfreetype6",
    "libglib2.0-0", "libdbus-1-3", "libgl1", "libegl1", "libwayland-client0",
    "libwayland-cursor0", "libwayland-egl1",
)  # fmt: skip
HOST_GLSLC = Path("/usr/bin/glslc")
# the host's Vulkan and SPIR-V headers (and SPIR-V's cmake package), copied under /usr/local,
# which the root's compiler and cmake search before /usr: from these host packages
HOST_PACKAGES = ("glslc", "libvulkan-dev", "spirv-headers")
HOST_FILES = ("include/vulkan", "include/vk_video", "include/spirv", "share/cmake/SPIRV-Headers")
# what the root is made from: a change makes a new root (the old one is removed)
RECIPE = {
    "suite": SUITE,
    "packages": PACKAGES,
    "python": PYTHON_SOURCE,
    "sqlite": (SQLITE_SOURCE, SQLITE_FIRST_FIX, SQLITE_CFLAGS, SQLITE_CONFIGURE),
    "openssl": (OPENSSL_SOURCE, OPENSSL_FIRST_FIX, OPENSSL_CONFIGURE),
    "configure": CONFIGURE,
    "pyexpat": PYEXPAT_FIX,
    "first_fix": FIRST_UPSTREAM_FIX,
    "host_tools": ("glslc with its loader", HOST_FILES),
}


def roots_folder() -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "upabhasha" / "roots"


def root_path() -> Path:
    key = hashlib.sha256(json.dumps(RECIPE).encode()).hexdigest()[:12]
    return roots_folder() / f"{SUITE}-{key}"


def ensure_root(say: Callable[[str], None]) -> Path:
    """The cached build root, made now when missing (a few minutes: debootstrap, Python)."""
    root = root_path()
    if (root / PYTHON.lstrip("/")).is_file():
        say(f"reusing the {SUITE} build root {root}")
        return root
    ensure_root_tools(say)
    optional = ("include/vk_video",)  # only in newer Vulkan headers
    needed = [Path("/usr") / name for name in HOST_FILES if name not in optional]
    if not HOST_GLSLC.is_file() or not all(path.exists() for path in needed):
        _apt_install(say, list(HOST_PACKAGES))
    started = time.perf_counter()
    say(f"debootstrap {SUITE}, then Python, into {root} (once; cached)")

    def finish(scratch: Path) -> None:
        _add_host_tools(scratch)
        _build_python(scratch, say)

    make_root(root, SUITE, PACKAGES, finish)
    say(f"build root ready in {(time.perf_counter() - started) / 60:.1f} min: {root}")
    return root


def make_root(
    root: Path, suite: str, packages: Iterable[str], finish: Callable[[Path], None]
) -> None:
    """``debootstrap --variant=minbase suite`` with ``packages`` in a scratch folder, then
    ``finish(scratch)``, then renamed to ``root``, the older roots of its kind removed: a
    killed build leaves no half root. Needs root (ensure_root_tools)."""
    kind = root.name.rsplit("-", 1)[0]  # "bullseye", "install-bookworm": the key dropped
    roots_folder().mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=f"making-{kind}-", dir=roots_folder()))
    scratch.chmod(0o755)  # a system's / (mkdtemp makes it the owner's alone)
    try:
        subprocess.run(
            ["debootstrap", "--variant=minbase", f"--include={','.join(packages)}", suite,
             str(scratch), MIRROR],
            check=True, capture_output=True,
        )  # fmt: skip
        finish(scratch)
        for old in roots_folder().glob(f"{kind}-*"):
            shutil.rmtree(old, ignore_errors=True)
        os.replace(scratch, root)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def ensure_root_tools(say: Callable[[str], None]) -> None:
    """Making a root needs root and debootstrap (installed with apt-get when missing)."""
    if os.geteuid() != 0:
        raise SystemExit(
            f"the Linux bundle is built and checked in Debian roots (glibc {GLIBC_FLOOR}): run "
            "as root (debootstrap, chroot and mount need it)"
        )
    if not shutil.which("debootstrap"):
        _apt_install(say, ["debootstrap"])


def _apt_install(say: Callable[[str], None], packages: list[str]) -> None:
    say(f"apt-get install {' '.join(packages)} (to make the build root)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "install", "-y", "-q", *packages], check=True, env=env)


def _add_host_tools(root: Path) -> None:
    """glslc with the host's loader and libraries in a folder of its own (it runs at build
    time only, so bullseye's older glibc never meets it), and the host's Vulkan and SPIR-V
    headers."""
    tools = root / "opt" / "host-glslc"
    tools.mkdir(parents=True)
    listed = subprocess.run(["ldd", str(HOST_GLSLC)], capture_output=True, text=True, check=True)
    libraries = re.findall(r"(/\S+\.so[.\d]*)", listed.stdout)
    loader = next(Path(lib) for lib in libraries if "ld-linux" in lib)
    for lib in libraries:
        shutil.copy2(Path(lib).resolve(), tools / Path(lib).name)
    shutil.copy2(HOST_GLSLC, tools / "glslc")
    wrapper = root / "usr" / "local" / "bin" / "glslc"
    wrapper.write_text(
        "#!/bin/sh\n"
        f'exec /opt/host-glslc/{loader.name} --library-path /opt/host-glslc /opt/host-glslc/glslc "$@"\n'
    )
    wrapper.chmod(0o755)
    for name in HOST_FILES:
        if (Path("/usr") / name).is_dir():
            shutil.copytree(Path("/usr") / name, root / "usr" / "local" / name)


def _fetch_checked(pool: str, name: str, sha256: str, folder: Path) -> Path:
    target = folder / name
    with urllib.request.urlopen(f"{pool}/{name}", timeout=120) as response:
        target.write_bytes(response.read())
    found = hashlib.sha256(target.read_bytes()).hexdigest()
    if found != sha256:
        raise SystemExit(f"{name}: sha256 {found}, the Debian archive says {sha256}")
    return target


def _unpack_patched(
    root: Path, pool: str, source: tuple, first_fix: str, say: Callable[[str], None]
) -> Path:
    """Debian's upstream tarball and its patches from ``first_fix`` on, in the root's /tmp."""
    folder = root / "tmp" / "sources"
    folder.mkdir(parents=True, exist_ok=True)
    tops = []
    for name, sha256 in source:
        with tarfile.open(_fetch_checked(pool, name, sha256, folder)) as tar:
            tops.append(tar.getnames()[0].split("/")[0])
            tar.extractall(folder, filter="data")
    tree = folder / tops[0]  # the upstream tarball's folder (the other one is debian/)
    patches = folder / "debian" / "patches"
    series = (patches / "series").read_text().split()
    fixes = series[series.index(first_fix) :]
    for fix in fixes:
        subprocess.run(["patch", "-p1", "-s", "-i", str(patches / fix)], cwd=tree, check=True)
    shutil.rmtree(folder / "debian")
    say(f"{tree.name} with Debian's {len(fixes)} upstream fixes: compiling in the root")
    return tree


def _compile(root: Path, tree: Path, script: str) -> None:
    inside = "/" + str(tree.relative_to(root))
    built = run_in_root(root, ["sh", "-c", f"cd {shlex.quote(inside)} && {script}"], capture=True)
    if built.returncode != 0:
        raise SystemExit(f"compiling {tree.name} in the root failed:\n{built.stderr[-3000:]}")


def _build_python(root: Path, say: Callable[[str], None]) -> None:
    """SQLite and OpenSSL, then Python linked to them, all into PYTHON_PREFIX; then
    PYTHON_CHECK."""
    jobs = os.cpu_count() or 2
    openssl = _unpack_patched(root, OPENSSL_POOL, OPENSSL_SOURCE, OPENSSL_FIRST_FIX, say)
    _compile(
        root,
        openssl,
        f"./Configure {shlex.join(OPENSSL_CONFIGURE)} > /dev/null && make -s -j{jobs} build_libs "
        "&& make -s install_dev",  # the libraries and headers: no programs, no manuals
    )
    sqlite = _unpack_patched(root, SQLITE_POOL, SQLITE_SOURCE, SQLITE_FIRST_FIX, say)
    _compile(
        root,
        sqlite,
        f"CFLAGS={shlex.quote(SQLITE_CFLAGS)} ./configure -q --prefix={PYTHON_PREFIX} "
        f"{shlex.join(SQLITE_CONFIGURE)} && make -s -j{jobs} && make -s install",
    )
    python = _unpack_patched(root, POOL, PYTHON_SOURCE, FIRST_UPSTREAM_FIX, say)
    _compile(
        root,
        python,
        f"PKG_CONFIG_PATH={PYTHON_PREFIX}/lib/pkgconfig ./configure -q {shlex.join(CONFIGURE)} "
        f"&& sed -i {shlex.quote(PYEXPAT_FIX)} Makefile && make -s -j{jobs} && make -s install",
    )
    shutil.rmtree(root / "tmp" / "sources")
    checked = run_in_root(root, [PYTHON, "-c", PYTHON_CHECK], capture=True, network=False)
    if checked.returncode != 0:
        raise SystemExit(f"the root's Python lacks what the product needs:\n{checked.stderr}")
    say(checked.stdout.strip())


def pip_configuration() -> list[Path]:
    """The host's pip configuration files and the local folders they name (find-links,
    file:// indexes, constraints), so pip in the root resolves as on the host."""
    found = subprocess.run(
        ["python3", "-m", "pip", "config", "debug"], capture_output=True, text=True
    ).stdout
    return pip_paths(found, dict(os.environ))


def pip_paths(debug: str, environ: dict[str, str]) -> list[Path]:
    """The existing files and folders ``pip config debug`` output and PIP_* variables name."""
    files = [Path(p) for p in re.findall(r"^\s+(/\S+), exists: True", debug, re.M)]
    values = re.findall(r"^\s+(?:PIP_\w+=|[\w.-]+: )(.+)$", debug, re.M) + [
        value for key, value in environ.items() if key.startswith("PIP_")
    ]
    folders = []
    for value in values:
        for word in value.replace("'", " ").split():
            path = Path(word.removeprefix("file://"))
            if word.startswith("file://"):
                path = path.parent  # an index's pages link to files beside it (../../files)
            if path.is_absolute() and path.exists():
                folders.append(path)
    return sorted({*files, *folders})


def run_in_root(
    root: Path,
    command: list[str],
    *,
    binds: tuple[Path, ...] = (),
    cwd: Path | None = None,
    capture: bool = False,
    network: bool = True,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess:
    """``command`` inside ``root`` in a private mount namespace (without a network unless
    ``network``): /proc, /dev and /sys, and each of ``binds`` at its own path, are mounted for
    this process alone and vanish with it however it ends."""
    if network:
        shutil.copy2("/etc/resolv.conf", root / "etc" / "resolv.conf", follow_symlinks=True)
    mounts = [
        f"mount -t proc proc {shlex.quote(str(root / 'proc'))}",
        f"mount --rbind /dev {shlex.quote(str(root / 'dev'))}",
        f"mount -t tmpfs tmpfs {shlex.quote(str(root / 'dev' / 'shm'))}",
        f"mount --rbind /sys {shlex.quote(str(root / 'sys'))}",
    ]
    for path in binds:
        inside = shlex.quote(str(root / str(path).lstrip("/")))
        make = (
            f"mkdir -p {inside}"
            if path.is_dir()
            else f"mkdir -p $(dirname {inside}) && touch {inside}"
        )
        mounts.append(f"{make} && mount --bind {shlex.quote(str(path))} {inside}")
    variables = {
        "PATH": "/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        "HOME": str(Path.home()),
        "LANG": "C.UTF-8",
        "DEBIAN_FRONTEND": "noninteractive",
        **(env or {}),
    }
    inner = ["chroot", str(root), "env", "-i", *(f"{k}={v}" for k, v in variables.items())]
    inner += ["sh", "-c", f"cd {shlex.quote(str(cwd or '/'))} && exec {shlex.join(command)}"]
    script = " && ".join([*mounts, f"exec {shlex.join(inner)}"])
    isolate = ["unshare", "--mount", "--propagation", "private", *([] if network else ["--net"])]
    return subprocess.run([*isolate, "sh", "-c", script], capture_output=capture, text=True)


def build_environment() -> dict[str, str]:
    """What the build inside the root takes from the caller's environment."""
    passed = ("PIP_", "XDG_CACHE", "CMAKE_", "TORCH_SPEC", "UPABHASHA_VULKAN_BUILD_DIR")
    return {k: v for k, v in os.environ.items() if k.startswith(passed)}
