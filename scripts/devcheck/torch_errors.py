# Provokes real failures of the installed torch and transformers on a GPU and writes each traceback to $OUT/<name>.log
# (the fixtures in test/fixtures/torch/ came from it). Run on a machine with a CUDA GPU: OUT=dir python3 torch_errors.py
import os, sys, traceback, json, tempfile
out = os.environ.get("OUT", "/tmp/out")
os.makedirs(out, exist_ok=True)

def case(name):
    def wrap(fn):
        path = os.path.join(out, f"{name}.log")
        with open(path, "w") as f:
            try:
                fn()
                f.write("NO ERROR\n")
            except BaseException:
                f.write(traceback.format_exc())
        print(name, "done", flush=True)
        return fn
    return wrap

import torch
print("torch", torch.__version__, torch.cuda.get_device_name(0), flush=True)

@case("oom")
def _():
    torch.empty(400 * 1024**3, dtype=torch.uint8, device="cuda")

@case("capture-sync")
def _():
    g = torch.cuda.CUDAGraph()
    x = torch.ones(4, device="cuda")
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        with torch.cuda.graph(g):
            y = x * 2
            torch.cuda.synchronize()

@case("capture-oom")
def _():
    g = torch.cuda.CUDAGraph()
    x = torch.ones(4, device="cuda")
    with torch.cuda.graph(g):
        y = torch.empty(400 * 1024**3, dtype=torch.uint8, device="cuda")

@case("capture-item")
def _():
    g = torch.cuda.CUDAGraph()
    x = torch.ones(4, device="cuda")
    with torch.cuda.graph(g):
        v = (x * 2).sum().item()

@case("state-dict-mismatch")
def _():
    m = torch.nn.Linear(4096, 128)
    m.load_state_dict({"weight": torch.zeros(32000, 4096), "bias": torch.zeros(128)})

@case("device-assert")
def _():
    x = torch.zeros(4, device="cuda")
    idx = torch.tensor([10], device="cuda")
    y = x[idx]
    torch.cuda.synchronize()

try:
    import transformers
    print("transformers", transformers.__version__, flush=True)
    d = tempfile.mkdtemp()
    with open(os.path.join(d, "config.json"), "w") as f:
        json.dump({"model_type": "glm_moe_dsa_future", "architectures": ["GlmMoeDsaForCausalLM"]}, f)

    @case("transformers-model-type")
    def _():
        transformers.AutoConfig.from_pretrained(d)

    @case("transformers-missing-path")
    def _():
        transformers.AutoConfig.from_pretrained("/models/does-not-exist/Qwen3-8B")

    d2 = tempfile.mkdtemp()
    with open(os.path.join(d2, "config.json"), "w") as f:
        json.dump({"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 64, "intermediate_size": 128,
                   "num_attention_heads": 4, "num_key_value_heads": 4, "num_hidden_layers": 1, "vocab_size": 128}, f)

    @case("transformers-no-weights")
    def _():
        transformers.AutoModelForCausalLM.from_pretrained(d2)
except ImportError as e:
    print("no transformers", e)
