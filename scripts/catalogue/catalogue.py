"""Regenerates vigil's engine catalogue from an engine's source at a git tag (or branch).

usage: python3 scripts/catalogue/catalogue.py ENGINE GIT_DIR REF [VERSION] [--flags]
  ENGINE   sglang | vllm | tgi
  GIT_DIR  a (bare) clone holding REF, e.g. a mirror of the engine's repository
  REF      a release tag (v0.5.18) or a branch (main)
  VERSION  the name vigil gives the release (default: REF without its leading v)
  --flags  also write data/flags/ENGINE-vVERSION.flags.json from the release's own parser

Writes data/catalogue/ENGINE-VERSION.json: the release's log/raise/progress format strings on its start and failure
paths (log_strings.py) with the commit they came from. The source is unpacked into a temporary folder with
`git archive`; none of it is kept.
"""

import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import log_strings  # noqa: E402

PATHS = {"sglang": ["python"], "vllm": ["vllm"], "tgi": ["launcher", "router", "backends", "server"]}


def unpack(git_dir, ref, paths, into):
    archive = subprocess.run(
        ["git", "--git-dir", git_dir, "archive", ref, *paths], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", into], input=archive, check=True)


def main(argv):
    flags = "--flags" in argv
    args = [a for a in argv if a != "--flags"]
    if len(args) not in (3, 4) or args[0] not in PATHS:
        raise SystemExit(__doc__)
    engine, git_dir, ref = args[:3]
    version = args[3] if len(args) == 4 else ref.removeprefix("v")
    commit = subprocess.run(
        ["git", "--git-dir", git_dir, "rev-parse", f"{ref}^{{commit}}"], check=True, capture_output=True, text=True
    ).stdout.strip()
    with tempfile.TemporaryDirectory(prefix=f"vigil-{engine}-") as tmp:
        existing = [p for p in PATHS[engine] if subprocess.run(
            ["git", "--git-dir", git_dir, "cat-file", "-e", f"{ref}:{p}"], capture_output=True).returncode == 0]
        unpack(git_dir, ref, existing, tmp)
        messages = log_strings.collect(engine, tmp)
        catalogue = {
            "engine": engine,
            "version": version,
            "ref": ref,
            "commit": commit,
            "generator": "scripts/catalogue/catalogue.py",
            "messages": messages,
        }
        out = os.path.join(ROOT, "data", "catalogue", f"{engine}-{version}.json")
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, "w", encoding="utf-8") as f:
            f.write("{\n")
            for key in ("engine", "version", "ref", "commit", "generator"):
                f.write(f" {json.dumps(key)}: {json.dumps(catalogue[key])},\n")
            f.write(' "messages": [\n')
            f.write(",\n".join("  " + json.dumps(m, ensure_ascii=False) for m in messages))
            f.write("\n ]\n}\n")
        print(f"{out}: {len(messages)} messages from {ref} ({commit[:12]})")
        if flags:
            table = os.path.join(ROOT, "data", "flags", f"{engine}-v{version}.flags.json")
            if engine == "tgi":
                command = [sys.executable, os.path.join(HERE, "clap_args.py"), os.path.join(tmp, "launcher/src/main.rs")]
            else:
                source = os.path.join(tmp, "python") if engine == "sglang" else tmp
                command = [sys.executable, os.path.join(HERE, "dump_argparse.py"), engine, source]
            result = subprocess.run(command, check=True, capture_output=True, text=True)
            with open(table, "w", encoding="utf-8") as f:
                f.write(result.stdout)
            print(f"{table}: {len(json.loads(result.stdout))} actions")


if __name__ == "__main__":
    main(sys.argv[1:])
