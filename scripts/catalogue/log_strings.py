"""Collects the format strings an engine logs on its startup and failure paths, from a source checkout.

usage: python3 log_strings.py ENGINE SOURCE_ROOT
Prints a JSON list of {"text", "kind", "file"}: `text` is the message with every interpolated value written as
`{}` (f-strings, str.format, %-formatting alike), `kind` is log | raise | progress | print.
Python files are read with the standard `ast` module; Rust files (TGI's launcher and router) with a small
scanner for tracing/panic macro string literals, since Python has no Rust parser.
"""

import ast
import json
import os
import re
import sys

# Folders on the start and failure paths, per engine (relative to SOURCE_ROOT).
SCOPES = {
    "sglang": [
        "python/sglang/launch_server.py",
        "python/sglang/srt/entrypoints",
        "python/sglang/srt/managers",
        "python/sglang/srt/model_executor",
        "python/sglang/srt/model_loader",
        "python/sglang/srt/mem_cache",
        "python/sglang/srt/distributed",
        "python/sglang/srt/server_args.py",
        "python/sglang/srt/utils",
        # Up to 0.5.x the helpers (the watchdog's py-spy dump) and the named warm-ups were single modules.
        "python/sglang/srt/utils.py",
        "python/sglang/srt/warmup.py",
        "python/sglang/srt/speculative",
        "python/sglang/srt/hf_transformers_utils.py",
        "python/sglang/srt/configs/model_config.py",
        "python/sglang/srt/layers/quantization/__init__.py",
        "python/sglang/srt/layers/attention/attention_registry.py",
        "python/sglang/srt/layers/attention/flashinfer_backend.py",
        "python/sglang/srt/models/deepseek_v2.py",
        "python/sglang/srt/models/llama_eagle3.py",
        # The model registry: a model module that fails to import is logged and skipped.
        "python/sglang/srt/models/registry.py",
        "python/sglang/multimodal_gen/runtime/entrypoints",
    ],
    "vllm": [
        "vllm/entrypoints",
        "vllm/v1/engine",
        "vllm/model_executor/models/registry.py",
        "vllm/v1/executor",
        "vllm/v1/worker/gpu_worker.py",
        "vllm/v1/worker/gpu_model_runner.py",
        "vllm/v1/worker/gpu",
        "vllm/v1/core/kv_cache_utils.py",
        "vllm/v1/utils.py",
        "vllm/v1/worker/utils.py",
        "vllm/engine",
        "vllm/executor",
        "vllm/worker",
        "vllm/model_executor/model_loader",
        "vllm/distributed/parallel_state.py",
        "vllm/distributed/device_communicators/pynccl.py",
        "vllm/compilation",
        "vllm/config",
        # Up to 0.10 the engine config was one module.
        "vllm/config.py",
        "vllm/platforms",
        "vllm/utils",
        "vllm/usage",
        "vllm/logger.py",
        "vllm/version.py",
        "vllm/transformers_utils/config.py",
    ],
    "tgi": [
        "launcher/src",
        "router/src/server.rs",
        "router/src/main.rs",
        "router/src/lib.rs",
        "backends/v3/src",
        "backends/v2/src",
        "server/text_generation_server/cli.py",
        "server/text_generation_server/server.py",
        "server/text_generation_server/models/__init__.py",
        "server/text_generation_server/models/flash_causal_lm.py",
        "server/text_generation_server/utils/dist.py",
        "server/text_generation_server/utils/hub.py",
        "server/text_generation_server/utils/weights.py",
        "server/text_generation_server/utils/import_utils.py",
    ],
}

LOG_METHODS = {"debug", "info", "warning", "warn", "error", "exception", "critical", "fatal", "info_once", "warning_once"}
LOGGER_NAMES = re.compile(r"(?i)log")


def _template(node):
    """The message of a string expression with each interpolated value as `{}`; None when not a string."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts = []
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(str(value.value))
            else:
                parts.append("{}")
        return "".join(parts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _template(node.left), _template(node.right)
        if left is None and right is None:
            return None
        return (left if left is not None else "{}") + (right if right is not None else "{}")
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return _template(node.left)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "format"
        and _template(node.func.value) is not None
    ):
        return re.sub(r"\{[^{}]*\}", "{}", _template(node.func.value))
    return None


def _normalise(text):
    text = re.sub(r"%[-#0 +]*\d*(?:\.\d+)?[sdifrxeg]", "{}", text)
    text = re.sub(r"\{[^{}]*\}", "{}", text)
    return text.strip()


def python_strings(path, relative):
    try:
        tree = ast.parse(open(path, encoding="utf-8").read())
    except (SyntaxError, UnicodeDecodeError):
        return []
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args:
            func = node.func
            kind = None
            if isinstance(func, ast.Attribute) and func.attr in LOG_METHODS:
                owner = ast.unparse(func.value)
                if LOGGER_NAMES.search(owner):
                    kind = "log"
            elif isinstance(func, ast.Name) and func.id == "print":
                kind = "print"
            if kind is not None:
                text = _template(node.args[0])
                if text is not None:
                    found.append({"text": _normalise(text), "kind": kind, "file": relative})
        if isinstance(node, ast.Call):
            for keyword in node.keywords:
                if keyword.arg == "desc":
                    text = _template(keyword.value)
                    if text is not None:
                        found.append({"text": _normalise(text), "kind": "progress", "file": relative})
        # A message built first and logged or raised through a variable (`message = "..."; logger.info(message)`).
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and re.search(r"(?:^|_)(?:msg|message)$", node.targets[0].id)
        ):
            text = _template(node.value)
            if text is not None:
                found.append({"text": _normalise(text), "kind": "log", "file": relative})
        # `assert condition, message` fails with AssertionError: message.
        if isinstance(node, ast.Assert) and node.msg is not None:
            text = _template(node.msg)
            if text is not None:
                found.append({"text": f"AssertionError: {_normalise(text)}", "kind": "raise", "file": relative})
        # Exceptions, raised where built or built by a helper and raised by its caller.
        if isinstance(node, ast.Call) and node.args and re.search(r"(?:Error|Exception)$", ast.unparse(node.func)):
            text = _template(node.args[0])
            name = ast.unparse(node.func)
            if text is not None:
                found.append({"text": f"{name.split('.')[-1]}: {_normalise(text)}", "kind": "raise", "file": relative})
    return found


RUST_MACRO = re.compile(
    r"\b(?:tracing::)?(info|warn|error|debug|panic|bail|anyhow)!\(\s*(?:[a-z_]+\s*=\s*[^,]+,\s*)*\"((?:[^\"\\]|\\.)*)\"",
    re.S,
)
RUST_ERROR_ATTR = re.compile(r"#\[error\(\"((?:[^\"\\]|\\.)*)\"")


def rust_strings(path, relative):
    source = open(path, encoding="utf-8").read()
    found = []
    for match in RUST_MACRO.finditer(source):
        kind = "raise" if match.group(1) in ("panic", "bail", "anyhow") else "log"
        found.append({"text": _normalise(match.group(2).replace('\\"', '"')), "kind": kind, "file": relative})
    for match in RUST_ERROR_ATTR.finditer(source):
        found.append({"text": _normalise(match.group(1)), "kind": "raise", "file": relative})
    return found


def collect(engine, root):
    entries = []
    for scope in SCOPES[engine]:
        base = os.path.join(root, scope)
        paths = [base] if os.path.isfile(base) else []
        for folder, _dirs, files in os.walk(base):
            paths.extend(os.path.join(folder, name) for name in files)
        for path in sorted(paths):
            relative = os.path.relpath(path, root)
            if path.endswith(".py"):
                entries.extend(python_strings(path, relative))
            elif path.endswith(".rs"):
                entries.extend(rust_strings(path, relative))
    seen = set()
    unique = []
    for entry in entries:
        key = (entry["text"], entry["kind"])
        if entry["text"] and key not in seen:
            seen.add(key)
            unique.append(entry)
    return sorted(unique, key=lambda e: (e["file"], e["text"]))


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in SCOPES:
        raise SystemExit(__doc__)
    print(json.dumps(collect(sys.argv[1], sys.argv[2]), indent=0, ensure_ascii=False))
