"""Reads the `struct Args` of a clap-derive launcher (TGI's launcher/src/main.rs) and prints its options as JSON
in vigil's flags.json format (data/flags/SOURCE.md), plus `env`: the environment variable clap also reads.

usage: python3 clap_args.py MAIN_RS
Clap derive rules applied: a field `foo_bar` is `--foo-bar`; `short` alone is the field's first letter; a plain
`bool` is a switch, `Option<bool>` takes a value; `Vec<T>` may be repeated; a ValueEnum type lists its variants in
kebab-case unless `#[clap(name = ...)]`/`#[value(name = ...)]` renames one. Written by hand: no Python library
parses Rust attributes, and only this narrow shape is needed.
"""

import json
import re
import sys


def kebab(name):
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "-", name).lower()


def value_enums(source):
    enums = {}
    for match in re.finditer(r"#\[derive\(([^)]*)\)\]\s*(?:#\[[^\]]*\]\s*)*(?:pub\s+)?enum\s+(\w+)\s*\{(.*?)\n\}", source, re.S):
        if "ValueEnum" not in match.group(1):
            continue
        choices = []
        rename = None
        for line in match.group(3).splitlines():
            line = line.strip()
            if line.startswith("//"):
                continue
            named = re.search(r"#\[(?:clap|value)\(name\s*=\s*\"([^\"]+)\"", line)
            if named:
                rename = named.group(1)
                continue
            variant = re.match(r"(\w+)\s*(?:=\s*[^,]+)?,?$", line)
            if variant:
                choices.append(rename or kebab(variant.group(1)))
                rename = None
        enums[match.group(2)] = choices
    return enums


def fields(body):
    doc, attrs = [], []
    for raw in body.splitlines():
        line = raw.strip()
        if line.startswith("///"):
            doc.append(line[3:].strip())
        elif line.startswith("#["):
            attrs.append(line)
        elif re.match(r"(?:pub\s+)?\w+\s*:\s*.+,$", line):
            name, kind = re.match(r"(?:pub\s+)?(\w+)\s*:\s*(.+),$", line).groups()
            yield name, kind.strip(), " ".join(attrs), "\n".join(doc).strip()
            doc, attrs = [], []
        elif line == "":
            continue
        else:
            doc, attrs = [], []


RUST_TYPES = {"usize": "int", "u64": "int", "u32": "int", "u16": "int", "i64": "int", "i32": "int", "f32": "float", "f64": "float"}


def convert(source):
    body = re.search(r"\nstruct Args \{(.*?)\n\}", source, re.S).group(1)
    enums = value_enums(source)
    actions = [
        {
            "flags": ["-h", "--help"],
            "dest": "help",
            "type": None,
            "choices": None,
            "default": None,
            "nargs": 0,
            "action": "help",
            "required": False,
            "help": "Print help (see a summary with '-h')",
            "help_suppressed": False,
            "deprecated": False,
        }
    ]
    if re.search(r"#\[clap\([^)]*\bversion\b", source):
        actions.append(dict(actions[0], flags=["-V", "--version"], dest="version", action="version", help="Print version"))
    for name, kind, attrs, doc in fields(body):
        inner = re.match(r"Option<(.+)>$", kind)
        optional = inner is not None
        base = inner.group(1) if inner else kind
        vec = re.match(r"Vec<(.+)>$", base)
        element = vec.group(1) if vec else base
        long = re.search(r"\blong\s*=\s*\"([^\"]+)\"", attrs)
        flags = []
        short = re.search(r"\bshort\s*=\s*'(\w)'", attrs)
        if short:
            flags.append(f"-{short.group(1)}")
        elif re.search(r"\bshort\b(?!\s*=)", attrs):
            flags.append(f"-{name[0]}")
        if long:
            flags.append(f"--{long.group(1)}")
        elif re.search(r"\blong\b", attrs):
            flags.append(f"--{name.replace('_', '-')}")
        if not flags:
            continue
        default = re.search(r"default_value(?:_t)?\s*=\s*\"?([^\",)]*)\"?", attrs)
        is_switch = element == "bool" and not optional and not vec
        entry = {
            "flags": sorted(flags, key=lambda f: f.startswith("--")),
            "dest": name,
            "type": None if is_switch else RUST_TYPES.get(element, "str"),
            "choices": enums.get(element),
            "default": (False if is_switch else None) if default is None else default.group(1),
            "nargs": 0 if is_switch else None,
            "action": "store_true" if is_switch else ("append" if vec else "store"),
            "required": False,
            "help": doc or None,
            "help_suppressed": bool(re.search(r"\bhide\s*=\s*true", attrs)),
            "deprecated": bool(re.match(r"(?i)legacy|deprecated", doc)),
        }
        if element == "bool" and optional:
            entry["choices"] = ["true", "false"]
        if re.search(r"\benv\b", attrs):
            entry["env"] = name.upper()
        actions.append(entry)
    return actions


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    print(json.dumps(convert(open(sys.argv[1], encoding="utf-8").read()), indent=1))
