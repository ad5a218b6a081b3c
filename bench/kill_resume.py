"""``kill -9`` during real commands, resumed until they finish, compared with uninterrupted runs.

Drives the real CLI (``python -m app.cli``) as a user would, on temp workspaces built from the
real data in ``../shared/data`` (Vashantor corpus and questions, the BanglaSocialBias gender
template probes, scored translations written from Vashantor sentences) and the embedded GGUF.
For each command — ``run-task``, ``probe``, ``package import`` (two full review packages in
one transaction), ``eval-metrics``, ``import scored-translations`` and ``replicate`` — one
uninterrupted reference run in workspace A; then in workspace B, a copy of the same start,
the same command ``SIGKILL``ed at seeded random moments and rerun until it exits 0. Model
commands rotate three kills: the main process and its model worker (the process group), the
worker alone (the step ends incomplete, exit 3) and the main process alone (the orphaned
worker must go by itself). After every kill ``PRAGMA integrity_check`` must say ok.

B is compared with A row by row over every table of the workspace, ignoring only what
legitimately differs between two runs: integer primary keys (``id``; a ``run_id`` is
replaced by its run's ``run_key``, the hash of its card), wall-clock columns
(``created_at``, ``at``, ``added_at``, ``elapsed_ms``, the run lease, the run card's
``plan_timing``) and ``responses.attempts`` (a retried item counts its tries). The command's
own outputs are compared by key: ``lost`` = keys of A missing in B, ``duplicated`` = rows of B
beyond one per key, ``differ`` = same key, other content. ``replicate`` stores one row per
finished replication; a worker kill stores a partial one (by design, no agreement figure), so
its complete rows are compared and its partial rows counted. ``eval-metrics`` writes nothing:
its ``--json`` report is compared, and the workspace must be unchanged.

Then the concurrency check (``run-task`` + ``probe`` + ``package import`` started at once on
one workspace: all exit 0, no "database is locked", every item decoded once — the run card's
count of decoded items equals the run's items — and the outputs equal A's, so two fresh runs
give the same bytes) and, without ``--quick``, ``bench/reproducibility.py --quick`` (the demo
twice fresh and once killed). Prints one JSON object last.

    python bench/kill_resume.py [--quick] [--seed S] [--only CMD,...] [--keep]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from merge import fill  # noqa: E402  (the way bench/merge.py fills review packages)
from reproducibility import children  # noqa: E402  (a process's children, from /proc)

DATA = Path(os.environ.get("UPABHASHA_SHARED_DATA", REPO.parent / "shared" / "data"))
DIALECTS = "barishal,chittagong,mymensingh,noakhali,sylhet"
ANNOTATORS = ("alice", "bob")
# columns that differ between two correct runs (see the module docstring)
IGNORED = {"id", "created_at", "at", "added_at", "elapsed_ms", "lease_owner", "lease_heartbeat"}
IGNORED_IN = {"responses": {"attempts"}}
# a replication with failed items (a worker kill) is stored as partial, by design; a package
# imported again (the kill came after its commit) is logged with n_new = 0
SEPARATE = {
    "llm_replications": ("partial_replications_stored", lambda r: not r["complete"]),
    "annotation_packages": (
        "reimports_logged",
        lambda r: r["direction"] == "import" and r["n_new"] == 0,
    ),
}
# what each command's start needs (build_base)
NEEDS = {
    "corpus": {"run-task", "replicate"},
    "probes": {"probe"},
    "annotation": {"package import"},
    "scored": {"scored-translation import", "eval-metrics"},
}
KILL_KINDS = ("group", "worker", "main")  # rotated for model commands


@dataclass
class Command:
    name: str
    argv: list[str]  # after ``-w WORKSPACE``
    outputs: dict[str, tuple[str, ...]]  # table -> key columns compared
    kills: int
    quick_kills: int
    model: bool = False
    start: str = "base"  # the workspace it starts from: the base or another command's A
    stdout: bool = False  # compare the --json report (a read-only command)
    # kills land within this share of the reference run's span: late in a resumable job,
    # early enough in an all-or-nothing command to land before it ends
    window: float = 0.6
    # a resumable job: at most this many kills per killed workspace (later kills would come
    # after its end), and the next kill is drawn within the part of the span still to do
    per_round: int | None = None


def commands(quick: bool) -> list[Command]:
    limit = "6" if quick else "40"  # items per dialect (two dialects); groups of 64
    probes = "16" if quick else "48"
    return [
        Command(
            "run-task",
            ["run-task", "dialect-to-standard", "--dialects", "sylhet,chittagong", "--limit",
             limit, "--max-tokens", "24", "--json"],
            {"responses": ("run_id", "item_key"), "task_run_items": ("run_id", "item_key")},
            kills=10, quick_kills=2, model=True, window=0.85, per_round=4,
        ),
        Command(
            "probe",
            ["probe", "--sets", "gender-template", "--limit", probes, "--n-seq", "4", "--json"],
            {"responses": ("run_id", "item_key")},
            kills=10, quick_kills=2, model=True, window=0.85, per_round=4,
        ),
        Command(
            "package import",
            ["package", "import", "{root}/alice.upkg", "{root}/bob.upkg", "--json"],
            {"annotation_decisions": ("uid",), "annotation_packages": ("package_id", "direction")},
            kills=7, quick_kills=1,
        ),
        Command(
            "scored-translation import",
            ["import", "scored-translations", "{root}/scored.csv", "--name", "scored",
             "--human-scale", "0-100", "--source-col", "src", "--hyp-col", "mt", "--ref-cols",
             "ref*", "--system-col", "system", "--seg-id-col", "seg", "--score-cols", "ann_*",
             "--average-annotators", "--json"],
            {"scored_sets": ("name",), "scored_segments": ("set_id", "system", "seg_key"),
             "scored_human": ("segment_id", "annotator")},
            kills=6, quick_kills=1,
        ),
        Command(
            "eval-metrics",
            ["eval-metrics", "scored", "--bootstrap", "200", "--json"],
            {}, kills=6, quick_kills=1, start="scored-translation import", stdout=True,
        ),
        Command(
            "replicate",
            ["replicate", "1", "--sample", "8" if quick else "40", "--json"],
            {"llm_replications": ("run_id", "complete")},
            kills=8, quick_kills=1, model=True, start="run-task",
        ),
    ]  # fmt: skip


# -- running the CLI ----------------------------------------------------------------------
def cli(ws: Path, argv: list[str], root: Path) -> subprocess.Popen:
    args = [a.replace("{root}", str(root)) for a in argv]
    return subprocess.Popen(
        [sys.executable, "-m", "app.cli", "-w", str(ws), *args],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group: the main process and its worker
    )


def run_ok(ws: Path, argv: list[str], root: Path) -> str:
    proc = cli(ws, argv, root)
    out, err = proc.communicate()
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} exited {proc.returncode}: {err.decode()[-800:]}")
    return out.decode()


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return False
    return state != "Z"


# -- the workspaces -----------------------------------------------------------------------
def build_base(root: Path, quick: bool, needs: set[str] | None = None) -> Path:
    """The start of every command: init, then what ``needs`` names (default all) — the real
    corpus, probes, questions (with their dialect variants), two annotators and a batch with
    their review packages exported and filled, a scored-translations file."""
    from tests.engine.translation.test_scored_translations import write_scored

    needs = set(NEEDS) if needs is None else needs
    ws = root / "base.sqlite"
    vashantor = DATA / "vashantor" / "vashantor_multiway.csv"
    steps = {
        "corpus": [
            ["import", "corpus", str(vashantor), "--format", "wide", "--standard-col",
             "bangla_speech", "--split-col", "vashantor_split"],
        ],
        "probes": [
            ["import", "probes",
             str(DATA / "banglasocialbias" / "template" / "gender_prompts.csv"),
             "--name", "gender-template"],
        ],
        "annotation": [
            ["import", "questions", str(vashantor), "--text-col", "bangla_speech", "--name",
             "vashantor-questions"],
            *[["annotators", "add", name, "--dialects", DIALECTS] for name in ANNOTATORS],
            ["assign", "--name", "field", "--overlap", "0.25" if quick else "1", "--seed", "1"],
            *[["package", "export", "--annotator", n, "--out", str(root / f"{n}.upkg")]
              for n in ANNOTATORS],
        ],
    }  # fmt: skip
    run_ok(ws, ["init"], root)
    for part in ("corpus", "probes", "annotation"):
        for argv in steps[part] if part in needs else []:
            run_ok(ws, argv, root)
    if "annotation" in needs:
        rng = random.Random(1)
        for name in ANNOTATORS:
            fill(root / f"{name}.upkg", rng)
    if "scored" in needs:
        write_scored(DATA, root / "scored.csv", 0, 100, n=400 if quick else 1200)
    return ws


def copy_db(src: Path, dst: Path) -> Path:
    with sqlite3.connect(src) as a, sqlite3.connect(dst) as b:
        a.backup(b)
    a.close()
    b.close()
    return dst


def integrity(db: Path) -> bool:
    conn = sqlite3.connect(db)
    try:
        ok = conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return ok and not conn.execute("PRAGMA foreign_key_check").fetchall()
    finally:
        conn.close()


def dump(db: Path) -> dict[str, list[dict]]:
    """Every table's rows without the columns that legitimately differ."""
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    try:
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        # a run is named by its card's hash: run ids follow the order runs were opened in,
        # which differs when commands run at once
        run_keys = dict(conn.execute("SELECT id, run_key FROM runs").fetchall())
        out = {}
        for table in tables:
            drop = IGNORED | IGNORED_IN.get(table, set())
            rows = []
            for r in conn.execute(f'SELECT * FROM "{table}"'):
                row = {k: r[k] for k in r.keys() if k not in drop}
                if "run_id" in row:
                    row["run_id"] = run_keys.get(row["run_id"], row["run_id"])
                if table == "runs":
                    card = json.loads(row["card"])
                    card.pop("plan_timing", None)  # seconds and calls of each decode
                    row["card"] = card
                if table == "llm_replications":
                    row["summary"] = json.loads(row["summary"])
                    row["complete"] = row["summary"].get("complete")
                rows.append(row)
            out[table] = rows
        return out
    finally:
        conn.close()


def canon(row: dict) -> str:
    return json.dumps(row, sort_keys=True, ensure_ascii=False)


def compare(a: dict, b: dict, outputs: dict[str, tuple[str, ...]]) -> dict:
    """Key-based on the command's output tables, as multisets on every other table."""
    res = {"compared": 0, "equal": 0, "differ": 0, "lost": 0, "duplicated": 0}
    for table, key in outputs.items():
        rows_a, rows_b = a.get(table, []), b.get(table, [])
        if table in SEPARATE:  # rows a rerun legitimately adds: counted, not compared
            label, extra = SEPARATE[table]
            res[label] = sum(map(extra, rows_b)) - sum(map(extra, rows_a))
            rows_a = [r for r in rows_a if not extra(r)]
            rows_b = [r for r in rows_b if not extra(r)]
        by_a = {tuple(r[k] for k in key): canon(r) for r in rows_a}
        by_b: dict = {}
        for r in rows_b:
            by_b.setdefault(tuple(r[k] for k in key), []).append(canon(r))
        res["compared"] += len(by_a)
        res["duplicated"] += sum(len(v) - 1 for v in by_b.values())
        for k, row in by_a.items():
            if k not in by_b:
                res["lost"] += 1
            elif row in by_b[k]:
                res["equal"] += 1
            else:
                res["differ"] += 1
    other = 0
    for table in (set(a) | set(b)) - set(outputs):
        ca = Counter(map(canon, a.get(table, [])))
        cb = Counter(map(canon, b.get(table, [])))
        other += sum(((ca - cb) + (cb - ca)).values())
    res["other_rows_differ"] = other
    return res


# -- one command: reference, then killed and resumed --------------------------------------
@dataclass
class Killed:
    items: int = 0  # a job's finished items in the reference run
    kills: Counter = field(default_factory=Counter)
    attempts: int = 0
    incomplete_exits: int = 0  # exit 3: a worker kill left failed items
    finished_before_kill: int = 0
    integrity_ok: int = 0
    orphans_lingering: int = 0  # workers still alive 10 s after their main process was killed
    after_worker_kill: Counter = field(default_factory=Counter)  # exit codes of the main
    errors: list = field(default_factory=list)
    stdout: str = ""


def kill_now(proc: subprocess.Popen, kind: str, result: Killed) -> None:
    workers = children(proc.pid)
    if kind == "worker" and not workers:
        kind = "group"  # no worker yet (still starting): kill the process group instead
    if kind == "worker":
        for pid in workers:
            os.kill(pid, signal.SIGKILL)
        result.kills[kind] += 1
        _, err = proc.communicate()  # the main process carries on and ends the step (exit 3)
        result.after_worker_kill[str(proc.returncode)] += 1
        if proc.returncode not in (0, 3):
            result.errors.append(f"exit {proc.returncode} after a worker kill: {err[-300:]!r}")
        return
    if kind == "group":
        os.killpg(proc.pid, signal.SIGKILL)
    else:
        proc.kill()
    result.kills[kind] += 1
    proc.communicate()
    deadline = time.monotonic() + 10
    while any(alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    for pid in workers:
        if alive(pid):
            result.orphans_lingering += 1
            os.kill(pid, signal.SIGKILL)
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # anything else left in the group
    except ProcessLookupError:
        pass


def done_share(ws: Path, total: int) -> float:
    """The share of a job's items finished in ``ws`` (``total``: the reference run's)."""
    conn = sqlite3.connect(ws)
    try:
        done = conn.execute("SELECT count(*) FROM responses WHERE status = 'done'").fetchone()[0]
    finally:
        conn.close()
    return min(1.0, done / max(total, 1))


def killed_run(
    ws: Path, cmd: Command, root: Path, kills: int, span: float, rng: random.Random, result
) -> bool:
    """Kill ``kills`` times at random moments within the reference run's span (for a
    resumable job, within the share of it still to do), then run to the end (reruns after
    exit 3). Counts into ``result``; returns whether the command finished (exit 0)."""
    kinds = KILL_KINDS if cmd.model else ("main",)
    total = result.items
    killed = 0
    while killed < kills and result.attempts < 200:
        result.attempts += 1
        left = 1.0 - done_share(ws, total) if cmd.per_round else 1.0
        proc = cli(ws, cmd.argv, root)
        time.sleep(rng.uniform(0.3, max(0.6, span * cmd.window * left)))
        if proc.poll() is not None:
            out, err = proc.communicate()
            result.finished_before_kill += 1
            if proc.returncode == 0:
                result.stdout = out.decode()
                return True  # B is complete: it finished before the next kill
            if proc.returncode == 3:
                result.incomplete_exits += 1
            else:
                result.errors.append(f"exit {proc.returncode}: {err.decode()[-300:]}")
            continue
        kill_now(proc, kinds[sum(result.kills.values()) % len(kinds)], result)
        killed += 1
        if proc.returncode == 3:
            result.incomplete_exits += 1
        result.integrity_ok += integrity(ws)
    for _ in range(4):
        result.attempts += 1
        proc = cli(ws, cmd.argv, root)
        out, err = proc.communicate()
        if proc.returncode == 0:
            result.stdout = out.decode()
            return True
        if proc.returncode != 3:
            result.errors.append(f"exit {proc.returncode}: {err.decode()[-300:]}")
            return False
        result.incomplete_exits += 1
    result.errors.append("still incomplete after 4 reruns")
    return False


def measure(cmd: Command, root: Path, start: Path, kills: int, seed: int) -> tuple[dict, Path]:
    """A: ``cmd`` uninterrupted on a copy of ``start``; then rounds, each on a fresh copy B:
    killed and resumed to the end, compared with A, until ``kills`` kills are made."""
    folder = root / cmd.name.replace(" ", "-")
    folder.mkdir()
    ws_a = copy_db(start, folder / "A.sqlite")
    t0 = time.monotonic()
    out_a = run_ok(ws_a, cmd.argv, root)
    span = time.monotonic() - t0
    dump_a = dump(ws_a)
    rng = random.Random(f"{seed}:{cmd.name}")
    b = Killed(items=sum(r["status"] == "done" for r in dump_a.get("responses", [])))
    res: Counter = Counter()
    rounds = workspace_unchanged = final_ok = 0
    t0 = time.monotonic()
    while sum(b.kills.values()) < kills and rounds < 3 * kills:
        ws_b = copy_db(start, folder / f"B{rounds}.sqlite")
        rounds += 1
        want = kills - sum(b.kills.values())
        b.stdout = ""
        killed_run(ws_b, cmd, root, min(want, cmd.per_round or want), span, rng, b)
        dump_b = dump(ws_b)
        res.update(compare(dump_a, dump_b, cmd.outputs))
        if cmd.stdout:  # a read-only command: its report, and the workspace left as it was
            res["compared"] += 1
            same = b.stdout != "" and json.loads(out_a) == json.loads(b.stdout)
            res["equal" if same else ("lost" if not b.stdout else "differ")] += 1
            workspace_unchanged += compare(dump(start), dump_b, {})["other_rows_differ"] == 0
        final_ok += integrity(ws_b)
        ws_b.unlink()
        for extra in ("-wal", "-shm"):
            Path(f"{ws_b}{extra}").unlink(missing_ok=True)
    n_kills = sum(b.kills.values())
    out = {k: res.get(k, 0) for k in ("compared", "equal", "differ", "lost", "duplicated")}
    out.update({k: v for k, v in res.items() if k not in out})
    if cmd.stdout:
        out["workspace_unchanged"] = f"{workspace_unchanged}/{rounds}"
    out.update(
        {
            "kills": n_kills,
            "kill_kinds": dict(b.kills),
            "rounds": rounds,  # killed workspaces, each resumed to the end and compared
            "resumes": b.attempts - rounds,
            "incomplete_exits": b.incomplete_exits,
            "exit_after_worker_kill": dict(b.after_worker_kill),
            "finished_before_kill": b.finished_before_kill,
            "integrity_ok": f"{b.integrity_ok}/{n_kills}",
            "final_integrity_ok": f"{final_ok}/{rounds}",
            "orphans_lingering": b.orphans_lingering,
            "errors": b.errors,
            "seconds_A": round(span, 1),
            "seconds_killed": round(time.monotonic() - t0, 1),
        }
    )
    return out, ws_a


# -- concurrency ---------------------------------------------------------------------------
def concurrency(root: Path, base: Path, by_name: dict[str, Command], refs: dict) -> dict:
    """run-task + probe + package import at once on one workspace."""
    ws = copy_db(base, root / "concurrent.sqlite")
    names = ["run-task", "probe", "package import"]
    procs = {n: cli(ws, by_name[n].argv, root) for n in names}
    ended = {n: p.communicate() for n, p in procs.items()}
    codes = {n: procs[n].returncode for n in names}
    locked = sum(b"database is locked" in err for _, err in ended.values())
    conn = sqlite3.connect(ws)
    try:
        runs = conn.execute(
            "SELECT r.id, r.card, (SELECT count(*) FROM responses p WHERE p.run_id = r.id), "
            "(SELECT count(*) FROM responses p WHERE p.run_id = r.id AND p.status = 'done') "
            "FROM runs r"
        ).fetchall()
        decisions = conn.execute("SELECT count(*) FROM annotation_decisions").fetchone()[0]
    finally:
        conn.close()
    decoded = {}
    for run_id, card, rows, done in runs:
        actual = json.loads(card).get("plan_timing", {}).get("actual", {})
        decoded[str(run_id)] = {"responses": rows, "done": done, "decoded": actual.get("items")}
    got = dump(ws)
    equal = {}
    for n in names:  # the same outputs as the reference runs: a second fresh run
        ref = refs.get(n)
        if ref is not None:
            c = compare(ref, got, by_name[n].outputs)
            equal[n] = c["equal"] == c["compared"] and not (c["lost"] or c["duplicated"])
    twice = sum((d["decoded"] or 0) > d["responses"] for d in decoded.values())
    return {
        "exit_codes": codes,
        "locked_errors": locked,
        "runs": decoded,
        "decoded_twice": twice,
        "decisions": decisions,
        "outputs_equal_to_A": equal,
        "integrity_ok": integrity(ws),
    }


def reproducibility() -> dict:
    proc = subprocess.run(
        [sys.executable, str(REPO / "bench" / "reproducibility.py"), "--quick"],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    lines = proc.stdout.strip().splitlines()
    return json.loads(lines[-1]) if lines else {"error": proc.stderr[-500:]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small workloads, 1-2 kills each")
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument("--only", help="comma-separated command names (and what they start from)")
    parser.add_argument("--no-concurrency", action="store_true")
    parser.add_argument("--keep", action="store_true", help="keep the temp folder")
    args = parser.parse_args(argv)
    os.environ.setdefault("UPABHASHA_LOG_DIR", tempfile.mkdtemp(prefix="upabhasha-logs-"))
    os.environ.setdefault("UPABHASHA_CONFIG_DIR", tempfile.mkdtemp(prefix="upabhasha-config-"))
    if not DATA.is_dir():
        print(json.dumps({"error": f"real data folder {DATA} is absent"}))
        return 1
    cmds = commands(args.quick)
    by_name = {c.name: c for c in cmds}
    if args.only:
        wanted = set(args.only.split(","))
        wanted |= {by_name[n].start for n in wanted if by_name[n].start != "base"}
        cmds = [c for c in cmds if c.name in wanted]
    root = Path(tempfile.mkdtemp(prefix="upabhasha-kills-"))
    t0 = time.monotonic()
    names = {c.name for c in cmds}
    base = build_base(root, args.quick, {part for part, n in NEEDS.items() if n & names})
    summary: dict = {
        "quick": args.quick,
        "seed": args.seed,
        "build_s": round(time.monotonic() - t0),
    }
    results, finished, refs = {}, {"base": base}, {}
    for cmd in cmds:
        kills = cmd.quick_kills if args.quick else cmd.kills
        res, ws_a = measure(cmd, root, finished[cmd.start], kills, args.seed)
        finished[cmd.name], refs[cmd.name] = ws_a, dump(ws_a)
        results[cmd.name] = res
        print(f"{cmd.name}: {json.dumps(res, ensure_ascii=False)}", flush=True)
    summary["commands"] = results
    summary["total_kills"] = sum(r["kills"] for r in results.values())
    summary["all_equal"] = all(
        r["equal"] == r["compared"] and not (r["lost"] or r["duplicated"] or r["differ"])
        and r["other_rows_differ"] == 0 and not r["errors"]
        and r["final_integrity_ok"] == f"{r['rounds']}/{r['rounds']}"
        and r["integrity_ok"] == f"{r['kills']}/{r['kills']}"
        for r in results.values()
    )  # fmt: skip
    if not args.no_concurrency and {"run-task", "probe", "package import"} <= set(results):
        summary["concurrency"] = concurrency(root, base, by_name, refs)
    if not args.quick and not args.only:
        summary["reproducibility"] = reproducibility()
    summary["seconds"] = round(time.monotonic() - t0)
    summary["load"] = os.getloadavg()[0]
    summary["folder"] = str(root) if args.keep else None
    if not args.keep:
        shutil.rmtree(root, ignore_errors=True)
    print(json.dumps(summary, ensure_ascii=False))
    return 0 if summary["all_equal"] else 1


if __name__ == "__main__":
    sys.exit(main())
