"""Import hook that stands in for packages a source checkout needs but this machine lacks (torch, triton, ...).

Only the argparse-building code of an engine is executed; every module it imports that is not installed and not
part of the checkout becomes a stub whose attributes are classes, callables and constants that accept anything.
Written by hand: no library offers a permissive module stub for import-time evaluation.
"""

import abc
import importlib.abc
import importlib.machinery
import sys
import types


class _Meta(abc.ABCMeta):
    def __new__(mcs, name, bases, namespace, **kwargs):
        return super().__new__(mcs, name, bases, namespace)

    def __init__(cls, name, bases, namespace, **kwargs):
        super().__init__(name, bases, namespace)
    def __getattr__(cls, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return _make(name)

    def __or__(cls, other):
        return cls

    def __ror__(cls, other):
        return cls

    def __getitem__(cls, item):
        return cls

    def __setitem__(cls, key, value):
        pass

    def __delitem__(cls, key):
        pass

    def __contains__(cls, item):
        return False

    def __neg__(cls):
        return cls

    def __mod__(cls, other):
        return cls

    def __iter__(cls):
        return iter(())

    def __len__(cls):
        return 0

    def __bool__(cls):
        return True

    def register(cls, *args, **kwargs):
        return args[0] if args else None

    def __int__(cls):
        return 0

    __index__ = __int__

    def __float__(cls):
        return 0.0

    def __lt__(cls, other):
        return False

    __le__ = __gt__ = __ge__ = __lt__

    def __add__(cls, other):
        return cls

    __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = __and__ = __add__
    __pow__ = __rpow__ = __floordiv__ = __rfloordiv__ = __rmod__ = __rand__ = __xor__ = __lshift__ = __add__

    def __call__(cls, *args, **kwargs):
        # Decorators (`@torch.compile`, `@triton.jit`) pass the function through.
        if len(args) == 1 and not kwargs and callable(args[0]) and not isinstance(args[0], _Meta):
            return args[0]
        return super().__call__(*args, **kwargs)


class _Anything(metaclass=_Meta):
    def __init_subclass__(cls, **kwargs):
        pass

    @classmethod
    def __get_pydantic_core_schema__(cls, source, handler):
        from pydantic_core import core_schema

        return core_schema.any_schema()

    def __init__(self, *args, **kwargs):
        pass

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return _make(name)

    def __call__(self, *args, **kwargs):
        if len(args) == 1 and not kwargs and callable(args[0]):
            return args[0]
        return _Anything()

    def __iter__(self):
        return iter(())

    def __bool__(self):
        return False

    def __int__(self):
        return 0

    def __index__(self):
        return 0

    def __float__(self):
        return 0.0

    def __lt__(self, other):
        return False

    __le__ = __gt__ = __ge__ = __lt__

    def __eq__(self, other):
        # Two stand-ins for one unknown value agree (schemas inferred twice compare equal).
        return isinstance(other, (_Anything, _Meta))

    def __hash__(self):
        return id(self)

    def __or__(self, other):
        return self

    __ror__ = __and__ = __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __or__
    __rtruediv__ = __pow__ = __rpow__ = __floordiv__ = __rfloordiv__ = __rmod__ = __rand__ = __xor__ = __or__

    def __getitem__(self, item):
        return _Anything()

    def __setitem__(self, key, value):
        pass

    def __delitem__(self, key):
        pass

    def __contains__(self, item):
        return False

    def __neg__(self):
        return self

    def __mod__(self, other):
        return self

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _make(name):
    return _Meta(name, (_Anything,), {"__module__": "stub"})


# Accelerator back ends probed with hasattr(torch, ...): absent, so the code takes its CUDA path.
_ABSENT = {"npu", "hpu", "musa", "mlu"}


class _StubModule(types.ModuleType):
    __path__ = []

    def __getattr__(self, name):
        if (name.startswith("__") and name.endswith("__")) or name in _ABSENT:
            raise AttributeError(name)
        value = _make(name)
        setattr(self, name, value)
        return value


class _StubLoader(importlib.abc.Loader):
    def create_module(self, spec):
        module = _StubModule(spec.name)
        module.__spec__ = spec
        module.__version__ = "99.0.0"
        module.__file__ = f"/nonexistent/{spec.name.replace('.', '/')}/__init__.py"
        return module

    def exec_module(self, module):
        pass


# Installed packages that argparse-building code may use for real; every other third-party package is stubbed,
# since a real library that inspects a stubbed one (scipy reading numpy's version) fails at import.
REAL = {
    "pydantic",
    "pydantic_core",
    "typing_extensions",
    "annotated_types",
    "typing_inspection",
    "yaml",
    "dill",
    "regex",
    "_distutils_hack",
}


# The engine's own kernel-registration packages: they inspect torch operator schemas at import.
OWN_STUBBED = {"vllm.ir", "vllm.kernels"}


class StubFinder(importlib.abc.MetaPathFinder):
    """Finds the engine's own, the standard library's and REAL modules; stubs every other package."""

    def __init__(self, own_packages):
        self.own = set(own_packages)

    def find_spec(self, fullname, path, target=None):
        top = fullname.split(".")[0]
        if any(fullname == m or fullname.startswith(m + ".") for m in OWN_STUBBED):
            return importlib.machinery.ModuleSpec(fullname, _StubLoader(), is_package=True)
        if top in self.own or top in sys.stdlib_module_names or top in REAL:
            return None
        return importlib.machinery.ModuleSpec(fullname, _StubLoader(), is_package=True)


def install(own_packages):
    sys.meta_path.insert(0, StubFinder(own_packages))
    # Version checks of stubbed packages (`version("transformers") < 5.0.0`) see a new enough release.
    import importlib.metadata as metadata

    real_version = metadata.version

    def version(name):
        try:
            return real_version(name)
        except metadata.PackageNotFoundError:
            return "99.0.0"

    metadata.version = version
