"""Runs an engine release's own argparse-building code from a source checkout and prints its actions as JSON
in vigil's flags.json format (data/flags/SOURCE.md).

usage: python3 dump_argparse.py sglang|vllm SOURCE_ROOT
SOURCE_ROOT holds the engine's package folder (`sglang/` for SGLang's python/ folder, `vllm/` for vLLM).
"""

import argparse
import contextlib
import json
import os
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import stub_imports  # noqa: E402


def _jsonable(value):
    if isinstance(value, str):
        return re.sub(r" (?:object )?at 0x[0-9a-f]+", "", value)
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if hasattr(value, "value") and isinstance(getattr(value, "value"), (str, int)):
        return value.value
    return str(value)


OWN = set()
# Help that announces the option's own deprecation (not "enable deprecated metrics").
DEPRECATED_HELP = re.compile(r"(?i)(?:^|[\[(]\s*)deprecated|\bis deprecated|\bdeprecated\b\s*[.:;,)\]]|will be removed")


def _type_name(kind):
    """`int`, `json.loads`, `optional_type(int)`: builtins bare, the standard library by module, closures by maker."""
    if kind is None:
        return None
    qualname = getattr(kind, "__qualname__", None)
    module = getattr(kind, "__module__", "") or ""
    if qualname is not None and ".<locals>." in qualname:
        cells = [c.cell_contents for c in (getattr(kind, "__closure__", None) or ())]
        inner = [c.__name__ if isinstance(c, type) else _type_name(c) for c in cells if callable(c)]
        maker, local = qualname.split(".<locals>.")[0], qualname.split(".")[-1]
        name = maker if local.lstrip("_") == maker else local
        return f"{name}({', '.join(inner)})"
    name = getattr(kind, "__name__", None)
    if name is None:
        return type(kind).__name__
    if module in ("builtins", "") or module.split(".")[0] in OWN:
        return name
    return f"{module.split('.')[-1]}.{name}"


def _action_name(action):
    table = {
        argparse._StoreAction: "store",
        argparse._StoreTrueAction: "store_true",
        argparse._StoreFalseAction: "store_false",
        argparse._StoreConstAction: "store_const",
        argparse._AppendAction: "append",
        argparse._CountAction: "count",
        argparse._HelpAction: "help",
        argparse._VersionAction: "version",
    }
    if type(action) in table:
        return table[type(action)]
    if isinstance(action, argparse.BooleanOptionalAction):
        return "boolean_optional"
    return f"{type(action).__module__.split('.')[-1]}.{type(action).__name__}"


def _deprecation(action, suppressed):
    """Why the table calls an action deprecated: its class, its help text, or argparse's own flag."""
    reasons = []
    if "Deprecated" in type(action).__name__:
        reasons.append(f"action class {_action_name(action)}")
    if not suppressed and action.help and DEPRECATED_HELP.search(str(action.help)):
        reasons.append("help text")
    return reasons


def dump(parser):
    out = []
    group_of = {}
    for group in parser._action_groups:
        for action in group._group_actions:
            group_of[id(action)] = group.title
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            continue
        suppressed = action.help == argparse.SUPPRESS
        entry = {
            "flags": list(action.option_strings),
            "dest": action.dest,
            "type": _type_name(action.type),
            "choices": None if action.choices is None else [_jsonable(c) for c in action.choices],
            "default": _jsonable(action.default),
            "nargs": action.nargs,
            "action": _action_name(action),
            "required": action.required,
            "help": None if suppressed else (str(action.help) if action.help is not None else None),
            "help_suppressed": suppressed,
            "deprecated": bool(getattr(action, "deprecated", False)),
        }
        reasons = _deprecation(action, suppressed)
        if reasons:
            entry["deprecated"] = True
            entry["deprecated_reason"] = reasons
        if action.const is not None:
            entry["const"] = _jsonable(action.const)
        if action.metavar is not None:
            entry["metavar"] = _jsonable(action.metavar)
        if group_of.get(id(action)) not in (None, "options", "optional arguments", "positional arguments"):
            entry["group"] = group_of[id(action)]
        out.append(entry)
    return out


def build(engine, root):
    sys.path.insert(0, root)
    stub_imports.install([engine])
    OWN.add(engine)
    if engine == "sglang":
        from sglang.srt.server_args import ServerArgs

        parser = argparse.ArgumentParser()
        ServerArgs.add_cli_args(parser)
        return parser
    if engine == "vllm":
        # vLLM reads option help from its config classes only when `--help` is on the command line.
        # ("serve" with "--help" would drop --model, which `vllm serve` accepts.)
        sys.argv = [sys.argv[0], "--help"]
        try:
            from vllm.utils.argparse_utils import FlexibleArgumentParser
        except ImportError:
            from vllm.utils import FlexibleArgumentParser
        try:
            from vllm.entrypoints.cli.serve import ServeSubcommand
        except ImportError:
            ServeSubcommand = None
        if ServeSubcommand is None:
            from vllm.entrypoints.openai.cli_args import make_arg_parser

            return make_arg_parser(FlexibleArgumentParser())
        # `vllm serve`'s own parser: the API server's options plus the serve subcommand's.
        top = FlexibleArgumentParser(prog="vllm")
        return ServeSubcommand().subparser_init(top.add_subparsers())
    raise SystemExit(f"unknown engine {engine!r}: expected sglang or vllm")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    # The engine's modules may print while importing: only the table goes to stdout.
    with contextlib.redirect_stdout(sys.stderr):
        table = dump(build(sys.argv[1], os.path.abspath(sys.argv[2])))
    print(json.dumps(table, indent=1))
