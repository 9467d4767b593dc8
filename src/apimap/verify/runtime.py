"""Run one piece of code on one side, the way a worker does it.

The inputs are NumPy expressions evaluated with the NumPy seed fixed, so both
sides (in different processes) get identical arrays; each array then becomes a
tensor of the side's library. A probe may change the inputs first: every
floating array cast to one dtype, integer arrays of mixed widths, or the first
array without its batch dimension, empty, or 0-d. Before the code runs every
seed is fixed again. The results named by the run are encoded by
:mod:`apimap.verify.values`; the weights of every layer the code constructs
through :data:`~apimap.record.calls.LAYER_HOOK` are recorded on the torch side and
copied in on the paddle side. A job's runs keep the weights in one
:class:`WeightStore`, so that the probes of a call, which build the same layer
again, carry its weights once.
"""

from __future__ import annotations

import base64
import copy
import faulthandler
import functools
import importlib
import signal
import traceback
from typing import Any

from apimap.verify import sides, transforms, values
from apimap.verify.sides import Side

SEED = 0
MAX_ERROR_CHARS = 240
RUN_SECONDS = 30.0
"""A run that takes longer is interrupted (Python code only; the pool stops the rest)."""
HANG_GRACE = 5.0
"""Seconds a run may go past its own limit inside a library's native code, where the alarm
cannot interrupt it (paddle's poisson sampling a huge rate loops in C++): then faulthandler's
watchdog ends the worker, so the job fails now rather than at its batch's deadline (sixteen
runs' worth), and the pool reports it as a timeout."""
LAYER_HOOK = "__apimap_layer__"

_PADDLE_SUMMARY = "Error Message Summary:"


class RunTimeout(Exception):
    """The run took longer than :data:`RUN_SECONDS`."""


def _alarm(signum: int, frame: Any) -> None:
    raise RunTimeout("运行时间超过限制 (ran out of time)")


def error_text(exc: BaseException) -> str:
    """``Type: message`` on one line; paddle's C++ traceback is cut to its summary."""
    text = str(exc)
    if _PADDLE_SUMMARY in text:
        text = text.split(_PADDLE_SUMMARY, 1)[1]
    text = text.split("[Hint:", 1)[0]
    message = " ".join(text.split())
    if len(message) > MAX_ERROR_CHARS:
        message = message[:MAX_ERROR_CHARS] + "…"
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


def _in_library(exc: BaseException, own: set[str]) -> bool:
    """Whether ``exc`` was raised inside a library's Python code rather than on one of the
    record's own lines (the files in ``own``)."""
    frames = traceback.extract_tb(exc.__traceback__)
    return bool(frames) and frames[-1].filename not in own and frames[-1].filename != __file__


def _line(exc: BaseException, filename: str) -> int | None:
    if isinstance(exc, SyntaxError) and exc.filename == filename:
        return exc.lineno
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == filename]
    return frames[-1].lineno if frames else None


def _evaluate_inputs(
    inputs: dict[str, str], side: Side, rank: int | None = None
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    side.np.random.seed(SEED)
    namespace: dict[str, Any] = {"np": side.np}
    if rank is not None:  # a run in a process group: each rank's inputs may differ
        namespace["rank"] = rank
    found: dict[str, Any] = {}
    for name, expression in inputs.items():
        try:
            found[name] = namespace[name] = eval(expression, namespace)
        except BaseException as exc:  # the expression is the contributor's code
            return {}, {"ok": False, "stage": "inputs", "input": name, "error": error_text(exc)}
    return found, None


class WeightStore:
    """The layer weights of one job, each distinct array once.

    A run's recorded weights refer to their bytes by a label; the job's result carries the
    bytes of each label once (:attr:`made`). The probes of a call build the same layer again
    and again, and a VGG's weights are half a gigabyte: without the store, a job's result
    held them once per run (a dozen times), and the parent ran out of memory."""

    def __init__(
        self, encoded: dict[str, str] | None = None, files: dict[str, str] | None = None
    ) -> None:
        self.encoded: dict[str, str] = dict(encoded or {})
        """Label -> an array's bytes in base64, as the job brought them."""
        self.files: dict[str, str] = dict(files or {})
        """Label -> the file holding an array's bytes (a paddle job's torch weights, see
        :mod:`apimap.verify.weight_files`)."""
        self.raw: dict[str, bytes] = {}
        """Label -> the bytes of an array this job recorded (never base64: a VGG's half
        gigabyte took seconds to encode here and seconds again to decode for sending)."""
        self._labels: dict[bytes, str] = {}
        """The bytes of each array this job's runs recorded -> its label."""
        self._arrays: dict[tuple[str, str, tuple[int, ...]], Any] = {}
        self._converted: dict[tuple[int, str, bool], Any] = {}
        """(id of one of :attr:`_arrays`, which keep their ids for the job, dtype, transposed)
        -> what it became."""

    @property
    def made(self) -> dict[str, bytes]:
        """Label -> bytes of the arrays this job's runs recorded, to send back."""
        return dict(self.raw)

    def adopt(self, made: dict[str, str]) -> None:
        """Take arrays another process recorded (in base64) under labels it numbered after
        this store's (a rank of a process group): they are this job's now, and go back with
        its result."""
        for label, data in made.items():
            raw = base64.b64decode(data)
            self.raw[label] = raw
            self._labels[raw] = label

    def put(self, item: dict[str, Any]) -> dict[str, Any]:
        """``item`` (an array encoded with its raw bytes) with its bytes replaced by their
        label."""
        data = item.pop("data")
        label = self._labels.get(data)
        if label is None:
            label = self._labels[data] = f"w{len(self.encoded) + len(self.raw)}"
            self.raw[label] = data
        return {**item, "blob": label}

    def converted(self, array: Any, dtype: str, transposed: bool) -> Any:
        """``array`` as paddle's layer takes it (see :func:`~apimap.verify.sides.c_order`);
        made once per job for the store's own arrays: the probes of a call load the same
        weights into layer after layer."""
        if not any(array is own for own in self._arrays.values()):
            # an array the call's weights code made (renamed, split) is new in every run:
            # keeping what it became would only hold memory for the rest of the job
            return sides.c_order(array, dtype, transposed, values.np)
        key = (id(array), dtype, transposed)
        if key not in self._converted:
            self._converted[key] = sides.c_order(array, dtype, transposed, values.np)
        return self._converted[key]

    def array(self, item: dict[str, Any]) -> Any:
        """The NumPy array ``item`` refers to, decoded once per label, dtype and shape."""
        key = (str(item["blob"]), str(item["storage"]), tuple(item["shape"]))
        if key not in self._arrays:
            raw = self.raw.get(key[0])
            data = self.encoded.get(key[0])
            file = self.files.get(key[0])
            if raw is not None:
                self._arrays[key] = values.raw_array(raw, item)
            elif data is not None:
                self._arrays[key] = values.decode_array({**item, "data": data})
            elif file is not None:
                self._arrays[key] = values.read_array(file, item)
            else:
                raise KeyError(f"权重 {key[0]} 不在本次任务中 (weights missing from the job)")
        return self._arrays[key]


def labels(weights: dict[str, Any]) -> set[str]:
    """The store labels a run's recorded weights refer to."""
    return {
        str(item["blob"])
        for layer in weights.values()
        for item in layer.get("tensors", {}).values()
    }


MODULE_PROBES = ("eval", "state", "init")
"""Probes on the objects a class API builds: eval mode, the state a checkpoint holds, and
the statistics of the freshly initialised weights (then no weights are copied across)."""
REPORTS = {"state": "state_dict", "init": "init"}
"""Module probe -> the name its report is compared under."""


class BuildCache:
    """The objects a job's runs built from literal arguments, kept pristine, so that the
    probes of a call copy the object the first run built instead of building it again: a
    VGG takes seconds to build and its weights seconds to record, a copy a fraction of it."""

    def __init__(self) -> None:
        self.built: dict[tuple[Any, ...], tuple[Any, dict[str, Any] | None]] = {}
        """Key -> (the object as built, with its weights copied in; what was recorded)."""

    def get(self, key: tuple[Any, ...]) -> tuple[Any, dict[str, Any] | None] | None:
        """A copy of the object built under ``key`` and what was recorded of it, if any."""
        found = self.built.get(key)
        if found is None:
            return None
        return copy.deepcopy(found[0]), found[1]

    def put(self, key: tuple[Any, ...], layer: Any, recorded: dict[str, Any] | None) -> None:
        """Keep a copy of ``layer`` (an object that cannot be copied is not kept)."""
        try:
            self.built[key] = (copy.deepcopy(layer), recorded)
        except Exception:  # locks, handles, C state: such objects are built every time
            return


class _Layers:
    """The hook every construction of a class API goes through."""

    def __init__(
        self,
        side: Side,
        store: WeightStore,
        torch_weights: dict[str, dict[str, Any]] | None,
        rename: str | None = None,
        module: str | None = None,
        cache: BuildCache | None = None,
    ) -> None:
        self.side = side
        self.cache = cache or BuildCache()
        self.store = store
        self.torch_weights = torch_weights
        self.rename = rename
        """The call's ``weights`` code: rewrites ``state`` before it is copied."""
        self.module = module
        """A module probe (:data:`MODULE_PROBES`), if the run is one."""
        self.recorded: dict[str, dict[str, Any]] = {}
        self.problems: list[str] = []
        self.built: list[tuple[str, Any]] = []
        """``(key, object)`` of every hooked object that holds tensors, in order."""
        self.evaluated = 0

    def __call__(self, layer: Any, index: int | str) -> Any:
        self._weights(layer, str(index))
        return self._use(layer, str(index))

    def build(self, index: int, text: str, cls: Any, /, *args: Any, **kwargs: Any) -> Any:
        """Build ``cls(*args, **kwargs)`` (its code is ``text``), or copy what this job built
        from the same code with the same weights before. Its own parameters are positional-only,
        so that the class's keywords may be named ``index`` or ``text`` (``torch.device``)."""
        key = str(index)
        cache_key = (text, key, self.module == "init", self._weight_labels(key))
        found = self.cache.get(cache_key)
        if found is not None:
            layer, recorded = found
            if recorded is not None:
                self.recorded[key] = recorded
            return self._use(layer, key)
        if self._weight_labels(key):
            with self.side.overwritten_weights():
                layer = cls(*args, **kwargs)
        else:
            layer = cls(*args, **kwargs)
        self._weights(layer, key)
        self.cache.put(cache_key, layer, self.recorded.get(key))
        return self._use(layer, key)

    def reuse(self, index: int, text: str, function: Any, /, *args: Any, **kwargs: Any) -> Any:
        """Call ``function(*args, **kwargs)`` (its code is ``text``, its arguments literals), or
        copy the layer this job's call of the same code returned before; only a layer is kept
        (anything else is returned as made, and made again by the next call)."""
        cache_key = ("reuse", text, index)
        found = self.cache.get(cache_key)
        if found is not None:
            return found[0]
        made = function(*args, **kwargs)
        if self.side.is_layer(made):
            self.cache.put(cache_key, made, None)
        return made

    def _weight_labels(self, key: str) -> tuple[str, ...]:
        """The torch weights a paddle object of ``key`` gets (none on the torch side)."""
        if self.torch_weights is None or self.module == "init":
            return ()
        recorded = self.torch_weights.get(key) or {}
        tensors = recorded.get("tensors", {})
        return tuple(sorted(f"{name}={item.get('blob')}" for name, item in tensors.items()))

    def _use(self, layer: Any, key: str) -> Any:
        """What every run does with an object it built: note it, and switch it to eval mode
        for the eval probe."""
        if self.side.layer_state(layer):
            self.built.append((key, layer))
        if self.module == "eval" and self.side.is_layer(layer):
            layer.eval()
            self.evaluated += 1
        return layer

    def _weights(self, layer: Any, key: str) -> None:
        """Record the object's weights (torch side) or copy torch's into it (paddle side)."""
        state = self.side.layer_state(layer)
        if self.torch_weights is None:
            if state:
                size = sum(int(self.side.np.prod(tuple(tensor.shape))) for tensor in state.values())
                if size > values.MAX_WEIGHT_ELEMENTS:
                    raise values.TooLarge(
                        f"权重共 {size} 个元素，超过可复制的上限 {values.MAX_WEIGHT_ELEMENTS}"
                        " (weights too large to copy across)"
                    )
                limit = values.MAX_WEIGHT_ELEMENTS
                self.recorded[key] = {
                    "tensors": {
                        name: self.store.put(
                            values.encode(tensor, self.side, max_elements=limit, raw=True)
                        )
                        for name, tensor in state.items()
                    },
                    "trainable": sorted(self.side.trainable(layer)),
                }
        elif self.torch_weights.get(key) and self.module != "init":
            recorded = self.torch_weights[key]
            arrays = {name: self.store.array(item) for name, item in recorded["tensors"].items()}
            trainable = set(recorded["trainable"])
            if self.rename is not None:
                arrays, trainable = self._renamed(arrays, trainable)
            self.problems += self.side.load_state(layer, arrays, trainable, self.store.converted)
            if self.problems:
                raise RuntimeError(
                    "无法复制权重 (cannot copy the weights)：" + "；".join(self.problems)
                )

    def report(self) -> dict[str, Any] | None:
        """The module probe's report on the objects built (``None``: nothing to report on):
        ``state``: each tensor of the state with its shape and whether it is trained, under
        torch's name where paddle's corresponds to one; ``init``: the count, mean and standard
        deviation of each floating tensor as freshly built."""
        if self.module not in REPORTS or not self.built:
            return None
        entries: list[list[Any]] = []
        for key, layer in self.built:
            state = self.side.layer_state(layer) or {}
            torch_names = self._torch_names(key)
            named = self.side.named_like_torch(layer, state, torch_names)
            trainable = self.side.trainable(layer)
            for name, (torch_name, tensor, transposed) in sorted(named.items()):
                shape = [int(size) for size in tuple(tensor.shape)]
                if transposed:
                    shape = shape[::-1]
                if self.module == "state":
                    entries.append([key, torch_name, shape, name in trainable])
                else:
                    statistics = self.side.statistics(tensor)
                    if statistics is not None:
                        entries.append([key, torch_name, *statistics])
        return {"t": self.module, "v": sorted(entries, key=lambda entry: (entry[0], entry[1]))}

    def _torch_names(self, key: str) -> set[str] | None:
        """The names torch's object of the same construction has (paddle side only)."""
        if self.torch_weights is None:
            return None
        recorded = self.torch_weights.get(key) or {}
        return set(recorded.get("tensors", {}))

    def _renamed(
        self, arrays: dict[str, Any], trainable: set[str]
    ) -> tuple[dict[str, Any], set[str]]:
        """``arrays`` rewritten by the call's ``weights`` code; a name the code made counts
        as trainable (a split or renamed parameter stays one)."""
        assert self.rename is not None
        state = dict(arrays)
        exec(
            compile(self.rename, f"<{self.side.name} weights>", "exec"),
            {"np": self.side.np, "state": state},
        )
        if not all(isinstance(name, str) for name in state):
            raise TypeError("weights 代码只能以字符串为键 (state keys must be names)")
        made = {name for name in state if name not in arrays}
        return state, {name for name in trainable if name in state} | made


@functools.cache
def import_home(api: str) -> str | None:
    """Import the module an API lives in (its longest importable prefix), as a user's
    ``import torch.distributed.tensor`` does; the module's name, or ``None``."""
    parts = api.split(".")
    for end in range(len(parts) - 1, 0, -1):
        name = ".".join(parts[:end])
        try:
            importlib.import_module(name)
        except ImportError:
            continue
        except Exception:  # a module that fails on import: the code's own run reports it
            return None
        return name
    return None


def run(
    spec: dict[str, Any], side: Side, store: WeightStore, cache: BuildCache | None = None
) -> dict[str, Any]:
    """Run ``spec`` (code, inputs, outputs, probe, torch weights) and encode the results;
    ``store`` holds the job's weights (recorded on the torch side, read on the paddle side),
    ``cache`` the objects the job built before."""
    found, failure = _evaluate_inputs(spec.get("inputs") or {}, side, spec.get("rank"))
    if failure is not None:
        return failure
    probe = spec.get("probe") or {}
    made_as, changed = transforms.apply(found, probe, side.np)
    module = probe.get("module")
    if probe and module is None and not changed:
        return {"ok": False, "stage": "inapplicable", "error": "探测不改变输入 (changes nothing)"}
    namespace = side.namespace()
    package = spec.get("package")
    if package:
        try:
            namespace[package] = importlib.import_module(package)
        except ImportError as exc:
            return {
                "ok": False,
                "stage": "setup",
                "error": f"没有安装 {package} (not installed): {exc}",
            }
    if spec.get("api"):
        import_home(str(spec["api"]))
    for name, value in found.items():
        is_array = isinstance(value, side.np.ndarray)
        namespace[name] = side.tensor(value, made_as.get(name)) if is_array else value
    layers = _Layers(side, store, spec.get("weights"), spec.get("rename_weights"), module, cache)
    namespace[LAYER_HOOK] = layers
    namespace["__name__"] = "__apimap_run__"
    filename = f"<{side.name}>"
    setup_filename = f"<{side.name} setup>"
    previous = signal.signal(signal.SIGALRM, _alarm)
    limit = float(spec.get("seconds") or RUN_SECONDS)
    signal.setitimer(signal.ITIMER_REAL, limit)
    watched = spec.get("rank") is None  # a rank's process group has its own deadline
    if watched:
        faulthandler.dump_traceback_later(limit + HANG_GRACE, exit=True)
    stage = "setup"
    try:
        side.reset(SEED, spec.get("rank"))
        if spec.get("setup"):
            before = set(namespace)
            exec(compile(spec["setup"], setup_filename, "exec"), namespace)
            for name in sorted(set(namespace) - before):
                layers(namespace[name], f"setup:{name}")
            side.reset(SEED, spec.get("rank"))
        stage = "code"
        exec(compile(spec["code"], filename, "exec"), namespace)
    except RunTimeout as exc:
        return {"ok": False, "stage": "timeout", "error": str(exc), "line": _line(exc, filename)}
    except BaseException as exc:  # the code is the contributor's
        return {
            "ok": False,
            "stage": stage,
            "error": error_text(exc),
            "line": _line(exc, filename),
            "in_library": _in_library(exc, {filename, setup_filename}),
        }
    finally:
        if watched:
            faulthandler.cancel_dump_traceback_later()
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    if (module == "eval" and layers.evaluated == 0) or (module in REPORTS and not layers.built):
        return {"ok": False, "stage": "inapplicable", "error": "没有构造层 (no layer built)"}
    results: dict[str, Any] = {}
    missing: list[str] = []
    report = layers.report()
    for name in spec.get("outputs") or []:
        if report is not None and name == REPORTS[str(module)]:
            results[name] = report
            continue
        if name not in namespace:
            missing.append(name)
            continue
        try:
            results[name] = values.encode(namespace[name], side)
        except (values.TooLarge, RecursionError) as exc:
            return {"ok": False, "stage": "outputs", "error": f"`{name}`：{exc}"}
        except Exception as exc:  # a result the library itself cannot read (broken memory)
            return {"ok": False, "stage": "outputs", "error": f"`{name}`：{error_text(exc)}"}
    return {"ok": True, "values": results, "missing": missing, "weights": layers.recorded}
