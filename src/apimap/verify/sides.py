"""The two libraries as a worker sees them: import, seed, tensors in and out, layer weights.

A worker runs one side only (``torch`` or ``paddle``), so that one torch run
serves every paddle release of the version matrix and no environment has to
hold both libraries. This module imports nothing but the standard library at
import time; :func:`load` imports NumPy and the side's library.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import os
import random
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from apimap.record.pins import public_version

SIDES = ("torch", "paddle")
BFLOAT16 = "bfloat16"
WIDENED = {"complex32": "complex64"}
"""Torch dtypes NumPy lacks -> the dtype their values are sent as (the name stays)."""

WEIGHT_NAMES = {"running_mean": "_mean", "running_var": "_variance"}
"""Torch buffer names whose paddle counterparts are named differently."""


def _quiet_import(name: str) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return importlib.import_module(name)


def _optional(name: str) -> Any:
    try:
        return _quiet_import(name)
    except Exception:  # ImportError, or a module that fails while importing
        return None


@dataclass
class Side:
    """One imported library and how to talk to it."""

    name: str
    np: Any
    lib: Any
    extras: dict[str, Any]
    """Other packages importable here (``torchvision``, third-party packages)."""

    @property
    def versions(self) -> dict[str, str]:
        """``{"torch": "2.13.0"}`` plus the extras' versions."""
        found = {self.name: public_version(str(self.lib.__version__))}
        for name, module in self.extras.items():
            version = getattr(module, "__version__", None)
            if version is not None:
                found[name] = public_version(str(version))
        return found

    def namespace(self) -> dict[str, Any]:
        """What code on this side may use by name."""
        return {"np": self.np, self.name: self.lib, **self.extras}

    def reset(self, seed: int, rank: int | None = None) -> None:
        """Fix every seed; float32 default dtype; gradients on; torch's distributions check
        their arguments (the default, which the first use of ``torch.compile`` in a process
        switches off for good: a worker that had run a compile record let later records'
        invalid probabilities through). The ranks of a process group share the libraries'
        and NumPy's seeds but each draws its own Python ``random`` numbers, as separate
        processes do: libraries pick ports and file names with them (paddle 3.0.0's RPC gave
        both ranks the same port)."""
        random.seed(seed + (rank or 0))
        self.np.random.seed(seed)
        if self.name == "torch":
            self.lib.manual_seed(seed)
            self.lib.set_default_dtype(self.lib.float32)
            self.lib.set_grad_enabled(True)
            self.lib.distributions.Distribution.set_default_validate_args(__debug__)
        else:
            self.lib.seed(seed)
            self.lib.set_default_dtype("float32")
            self.lib.set_grad_enabled(True)

    def tensor(self, array: Any, dtype: str | None = None) -> Any:
        """A tensor holding ``array`` (cast to ``dtype`` when given)."""
        if dtype == BFLOAT16:
            array = array.astype("float32")
        if self.name == "torch":
            tensor = self.lib.from_numpy(array.copy())
            return tensor.to(self.lib.bfloat16) if dtype == BFLOAT16 else tensor
        tensor = self.lib.to_tensor(array.copy())
        return tensor.astype(BFLOAT16) if dtype == BFLOAT16 else tensor

    def is_tensor(self, value: Any) -> bool:
        """A tensor of this library (parameters included)."""
        if self.name == "torch":
            return bool(isinstance(value, self.lib.Tensor))
        return bool(isinstance(value, self.lib.Tensor))

    def sparse_layout(self, tensor: Any) -> str | None:
        """``sparse_coo``, ``sparse_csr`` ... for a sparse tensor, ``None`` for a dense one."""
        if self.name == "torch":
            layout = str(tensor.layout).rsplit(".", 1)[-1]
            return None if layout == "strided" else layout
        if not tensor.is_sparse():
            return None
        return "sparse_coo" if tensor.is_sparse_coo() else "sparse_csr"

    def array(self, tensor: Any) -> tuple[str, Any, bool]:
        """``(dtype name, numpy array, requires grad)`` of a tensor; bfloat16 as float32 and
        complex32 as complex64 (NumPy has neither); a sparse tensor as its dense values."""
        if self.sparse_layout(tensor) is not None:
            tensor = tensor.to_dense()
        if self.name == "torch":
            plain = tensor.detach().cpu()
            if plain.is_conj():
                plain = plain.resolve_conj()
            dtype = str(plain.dtype).rsplit(".", 1)[-1]
            if dtype == BFLOAT16:
                plain = plain.float()
            elif dtype in WIDENED:
                plain = plain.to(getattr(self.lib, WIDENED[dtype]))
            return dtype, plain.numpy(), bool(tensor.requires_grad)
        dtype = str(tensor.dtype).rsplit(".", 1)[-1]
        plain = tensor.detach()
        if dtype == BFLOAT16:
            plain = plain.astype("float32")
        return dtype, self.np.asarray(plain.numpy()), not bool(tensor.stop_gradient)

    @contextlib.contextmanager
    def overwritten_weights(self) -> Iterator[None]:
        """Build objects whose weights are copied from torch right after: paddle fills the
        parameters its random initialisers would draw with zeros instead (drawing a ResNet's
        weights takes seconds; every trainable one is overwritten, or the copy fails).
        Constant and assigned initial values — a norm's scale and shift, its running
        statistics — are made as usual; torch builds as usual."""
        if self.name != "paddle":
            yield
            return
        initializer = self.lib.nn.initializer
        kept = (initializer.constant.ConstantInitializer, initializer.assign.NumpyArrayInitializer)
        drawing = initializer.Initializer.__call__
        zeros = initializer.Constant(0.0)

        def quick(self: Any, param: Any, block: Any = None) -> Any:
            return drawing(self if isinstance(self, kept) else zeros, param, block)

        initializer.Initializer.__call__ = quick
        try:
            yield
        finally:
            initializer.Initializer.__call__ = drawing

    def layer_state(self, layer: Any) -> dict[str, Any] | None:
        """The layer's parameters and buffers as tensors, or ``None`` for other objects."""
        state = getattr(layer, "state_dict", None)
        if not callable(state):
            return None
        try:
            found = dict(state())
        except Exception:
            return None
        return {str(name): value for name, value in found.items() if self.is_tensor(value)}

    def is_layer(self, value: Any) -> bool:
        """A ``torch.nn.Module`` or a ``paddle.nn.Layer``."""
        base = self.lib.nn.Module if self.name == "torch" else self.lib.nn.Layer
        return isinstance(value, base)

    def named_like_torch(
        self, layer: Any, state: dict[str, Any], torch_names: set[str] | None
    ) -> dict[str, tuple[str, Any, bool]]:
        """Each tensor of ``state`` under torch's name: ``own name -> (torch name, tensor,
        stored transposed)``. On the paddle side a name corresponds to torch's as when weights
        are copied (:meth:`load_state`); a name without a counterpart keeps its own, and one
        tensor under two names (paddle's RNN cells) counts once."""
        if torch_names is None or self.name == "torch":
            return {name: (name, tensor, False) for name, tensor in state.items()}
        transposed = self._transposed_weights(layer)
        torch_for = {paddle: torch for torch, paddle in WEIGHT_NAMES.items()}
        found: dict[str, tuple[str, Any, bool]] = {}
        seen: list[Any] = []
        for name, tensor in state.items():
            if any(tensor is done for done in seen):
                continue
            seen.append(tensor)
            source = _torch_name(name, dict.fromkeys(torch_names), torch_for)
            flipped = name in transposed and len(tuple(tensor.shape)) == 2
            found[name] = (source or name, tensor, flipped)
        return found

    def statistics(self, tensor: Any) -> list[float] | None:
        """``[count, mean, standard deviation]`` of a floating tensor (6 significant digits),
        ``None`` for other dtypes."""
        dtype, array, _grad = self.array(tensor)
        if not dtype.startswith(("float", "bfloat")) or array.size == 0:
            return None
        mean, std = _mean_std(array.reshape(-1), self.np)
        return [float(array.size), float(f"{mean:.6g}"), float(f"{std:.6g}")]

    def trainable(self, layer: Any) -> set[str]:
        """Names of the layer's trainable parameters (the rest of its state are buffers)."""
        try:
            named = dict(layer.named_parameters())
        except Exception:
            return set()
        if self.name == "torch":
            return {name for name, value in named.items() if value.requires_grad}
        return {name for name, value in named.items() if not value.stop_gradient}

    def _transposed_weights(self, layer: Any) -> set[str]:
        """Names of the weights paddle stores transposed: every ``Linear``'s ``weight``
        ([in, out] where torch has [out, in]; a square one cannot be told by its shape)."""
        found: set[str] = set()
        sublayers = getattr(layer, "named_sublayers", None)
        if sublayers is None:
            return found
        linear = self.lib.nn.Linear
        for prefix, sublayer in [("", layer), *sublayers()]:
            if isinstance(sublayer, linear):
                found.add(f"{prefix}.weight" if prefix else "weight")
        return found

    def load_state(
        self,
        layer: Any,
        arrays: dict[str, Any],
        torch_trainable: set[str],
        convert: Callable[[Any, str, bool], Any] | None = None,
    ) -> list[str]:
        """Copy torch's weights into a paddle layer by name and shape; the problems, if any.

        A paddle name matches the torch name itself, the torch name of :data:`WEIGHT_NAMES`,
        or the torch name without paddle's leading underscore (``_weight``). A 2-D weight
        stored transposed (``Linear``) is transposed. What only one side keeps matters only
        when it is trainable: buffers (a loss's ``weight``, running statistics a layer does
        not track) are what the code passed in, or start equal. ``convert(array, dtype,
        transposed)`` makes the array paddle gets (default :func:`c_order`; a job passes one
        that keeps what it made for the next layer built from the same weights).
        """
        own = self.layer_state(layer)
        if own is None:
            return ["对象没有 state_dict (no state_dict)"]
        convert = convert or functools.partial(c_order, np=self.np)
        own_trainable = self.trainable(layer)
        transposed = self._transposed_weights(layer)
        torch_for = {paddle: torch for torch, paddle in WEIGHT_NAMES.items()}
        problems: list[str] = []
        update: dict[str, Any] = {}
        used: set[str] = set()
        copied: list[Any] = []
        for name, tensor in own.items():
            if any(tensor is done for done in copied):
                continue  # one parameter under a second name (paddle's RNN cells)
            source = _torch_name(name, arrays, torch_for)
            if source is None:
                if name in own_trainable:
                    problems.append(f"PyTorch 没有与 `{name}` 对应的权重 (no torch weight for it)")
                continue
            used.add(source)
            copied.append(tensor)
            value = arrays[source]
            shape = tuple(tensor.shape)
            flip = value.ndim == 2 and (
                name in transposed or (value.shape != shape and value.T.shape == shape)
            )
            if (value.T if flip else value).shape != shape:
                problems.append(
                    f"`{name}` 形状不同 (shape differs)：torch {list(value.shape)}，"
                    f"paddle {list(shape)}"
                )
                continue
            dtype = str(tensor.dtype).rsplit(".", 1)[-1]
            if dtype == BFLOAT16:
                update[name] = self.tensor(convert(value, "float32", flip), BFLOAT16)
            else:
                update[name] = self.lib.to_tensor(convert(value, dtype, flip))
        for name in sorted(set(arrays) - used):
            if name in torch_trainable:
                problems.append(f"Paddle 没有与 `{name}` 对应的权重 (no paddle weight for it)")
        if not problems:
            layer.set_state_dict(update)
        return problems


_CHUNK = 1 << 20
_BLOCK = 64


def c_order(array: Any, dtype: str, transposed: bool, np: Any) -> Any:
    """``array`` (transposed when ``transposed``) as ``dtype`` in C order, copied only when it
    is not so already. A transposed view would stay in Fortran order through ``astype``, and
    paddle copies such an array element by element (a second for a VGG's classifier); the
    transpose is made in square blocks that stay in the processor's cache (a third of the
    time of NumPy's own copy of the view)."""
    if not transposed:
        return np.ascontiguousarray(array, dtype=dtype)
    source = np.ascontiguousarray(array, dtype=dtype)
    rows, columns = source.shape
    out = np.empty((columns, rows), dtype=source.dtype)
    for row in range(0, rows, _BLOCK):
        for column in range(0, columns, _BLOCK):
            block = source[row : row + _BLOCK, column : column + _BLOCK]
            out[column : column + _BLOCK, row : row + _BLOCK] = block.T
    return out


def _mean_std(flat: Any, np: Any) -> tuple[float, float]:
    """Mean and (population) standard deviation of a 1-D array, in float64, a chunk at a time:
    a VGG's classifier weight has a hundred million elements, and a float64 copy of it
    (and the copy of its deviations) took seconds and two gigabytes."""
    count = flat.size
    mean = sum(float(flat[i : i + _CHUNK].sum(dtype=np.float64)) for i in range(0, count, _CHUNK))
    mean /= count
    squares = 0.0
    for i in range(0, count, _CHUNK):
        deviations = flat[i : i + _CHUNK].astype(np.float64) - mean
        squares += float(deviations @ deviations)
    return mean, (squares / count) ** 0.5


def _torch_name(name: str, arrays: dict[str, Any], torch_for: dict[str, str]) -> str | None:
    """The torch weight a paddle weight corresponds to, if any."""
    prefix, _, last = name.rpartition(".")
    for candidate in (last, torch_for.get(last, ""), last.lstrip("_")):
        full = ".".join(filter(None, [prefix, candidate]))
        if candidate and full in arrays:
            return full
    return None


def load(name: str) -> Side:
    """Import NumPy and the side's library (CPU only, quietly). Raises ``ImportError``."""
    if name not in SIDES:
        raise ImportError(f"unknown side {name!r}")
    os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
    np = _quiet_import("numpy")
    lib = _quiet_import(name)
    extras: dict[str, Any] = {}
    if name == "torch":
        vision = _optional("torchvision")
        if vision is not None:
            extras["torchvision"] = vision
    else:
        lib.set_device("cpu")
    return Side(name, np, lib, extras)
