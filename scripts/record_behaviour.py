"""Records what the bot does on fixed seeds, so that two checkouts can be compared byte for byte.

    python scripts/record_behaviour.py OUTDIR [--quick]

Writes into OUTDIR: fixed-work arena matches (every game's scores, bingos, swaps and move counts,
without the times), ``hint --json`` on the shipped example position, and a demo game of the sandbox
replayed as text and as GCG. Run it in two checkouts and compare with ``diff -r``. ``--quick`` plays
fewer pairs (a smoke test of the script, not a record).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SIM_FIXED = "sim:candidates=25,iterations=3000,playouts=20000,z=3,seconds=0"
#: (name, strategy A, strategy B, pairs, ruleset, seed)
MATCHES = [
    ("equity-greedy-r5", "equity", "greedy", 200, 5, 55001),
    ("equity-greedy-r1", "equity", "greedy", 200, 1, 55002),
    ("sim-equity-r5", SIM_FIXED, "equity", 20, 5, 55003),
    ("sim-equity-r1", SIM_FIXED, "equity", 20, 1, 55004),
]


def program() -> list[str]:
    installed = Path(sys.executable).parent / "wordfeud-bot"
    return [str(installed)] if installed.exists() else [sys.executable, "-m", "cli"]


def environment(scratch: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("WORDFEUD_")}
    env.update(HOME=str(scratch), XDG_CONFIG_HOME=str(scratch / "config"), NO_COLOR="1")
    env["WORDFEUD_BOT_DATA"] = str(scratch / "data")
    return env


def run(argv: list[str], env: dict[str, str]) -> str:
    done = subprocess.run(program() + argv, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}):\n{done.stderr}")
    return done.stdout


def record_match(match: tuple[str, str, str, int, int, int], quick: bool, out: Path, env: dict[str, str]) -> None:
    name, a, b, pairs, ruleset, seed = match
    work = out / f"{name}.work"
    played = str(2 if quick else pairs)
    run(["arena", a, b, "--pairs", played, "--ruleset", str(ruleset), "--seed", str(seed), "--work", str(work)], env)
    games = []
    for chunk in sorted(work.glob("pairs-*.json")):
        games += [record[:-1] for record in json.loads(chunk.read_text())]  # the last field is the times
    (out / f"{name}.games.json").write_text("\n".join(json.dumps(game) for game in games) + "\n")


def record_demo(out: Path, env: dict[str, str], scratch: Path) -> None:
    """The demo's game with static equity (the same game on every machine), replayed from its state file."""
    store = scratch / "demo"
    store.mkdir()
    play = (
        "import sys; from pathlib import Path\n"
        "try:\n    from cli.main.demo import run_demo\n"
        "except ImportError:\n    from cli.demo import run_demo\n"
        "from dictionaries.registry import LexiconRegistry\n"
        "game = run_demo(5, 1, registry=LexiconRegistry([]), out=lambda line: None, "
        "store_dir=Path(sys.argv[1]), strategy='equity')\nprint(game.id)\n"
    )
    argv = [sys.executable, "-c", play, str(store)]
    done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the demo game failed:\n{done.stderr}")
    game = done.stdout.split()[-1]
    state = str(store / "demo.sqlite3")
    text = run(["replay", "--state", state, "--strategy", "equity", game], env)
    (out / "replay.txt").write_text(text.replace(game, "GAME"))
    gcg = scratch / "game.gcg"
    run(["replay", "--state", state, "--strategy", "equity", "--gcg", str(gcg), game], env)
    (out / "replay.gcg").write_text(gcg.read_text().replace(game, "GAME"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path, help="the directory to write (made if missing)")
    parser.add_argument("--quick", action="store_true", help="two pairs a match: a smoke test of the script")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as name:
        scratch = Path(name)
        env = environment(scratch)
        hint = ["hint", "--board", "examples/position.txt", "--rack", "AEINST?", "--strategy", "equity", "--json"]
        (args.out / "hint.json").write_text(run(hint, env))
        print("hint written", flush=True)
        record_demo(args.out, env, scratch)
        print("demo replayed", flush=True)
        run(["dict", "build", "nb", "--debian"], env)  # ruleset 1's lexicon, from Debian's wnorwegian
        for match in MATCHES:
            record_match(match, args.quick, args.out, env)
            print(f"{match[0]} played", flush=True)


if __name__ == "__main__":
    main()
