"""A small project for ``apimap scan``, written into a temporary folder by the tests.

The files live here as bytes (not as committed ``.py`` files) because some of
them are broken on purpose: a syntax error, Latin-1 bytes without a coding
line, binary junk, a hostile file name. Line numbers matter: the tests assert
them exactly.
"""

from __future__ import annotations

from pathlib import Path

CORPUS = Path(__file__).resolve().parents[1] / "site" / "corpus" / "mappings"
"""The fixture knowledge base: the site tests' 14 records, one per category."""

HOSTILE_NAME = "<img src=x onerror=alert(1)>.py"

FILES: dict[str, bytes] = {
    # Every import form of the issue.
    "imports.py": b"""import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import nn as tnn
from torch.nn import Conv2d
from torch.nn import functional
from torch.nn.utils.rnn import pack_padded_sequence as pack
import torch.nn.modules.conv
import torchvision.transforms as T


def build(x):
    a = torch.abs(x)
    b = nn.Conv2d(1, 1, 3)
    c = F.relu(a)
    d = tnn.Softmax(dim=0)
    e = Conv2d(1, 1, 3)
    f = functional.relu(a)
    g = torch.nn.modules.conv.Conv2d(1, 1, 3)
    h = T.Resize(4)
    i = pack(a, [1])
    return torch.float32, a, b, c, d, e, f, g, h, i
""",
    # Aliases: of the import, of the API (record aliases, surface aliases), re-export paths.
    "aliasing.py": b"""import torch as th
from torch import clip as limit
from torch.nn import parameter

x = th.clamp(th.ones(2), 0, 1)
y = limit(x, 0, 1)
z = th.absolute(x)
w = th.concat([x, x])
p = parameter.Parameter(x)
""",
    # One API per bucket the other files miss, and a private name.
    "buckets.py": b"""import torch
from torch.utils.tensorboard import SummaryWriter
from torch.optim.lr_scheduler import StepLR

writer = SummaryWriter("runs")
enabled = torch.is_grad_enabled()
scheduler = StepLR(None, 1)
torch.addcmul(1, 2, 3)
torch._C._get_tracing_state()
""",
    # Shadowing in every kind of scope.
    "shadowing.py": b"""import torch.nn.functional as F
import torch


def uses_import(x):
    return F.relu(x)


def shadowed_by_parameter(F, x):
    return F.relu(x)


def shadowed_by_assignment(x):
    F = make()
    return F.relu(x)


def shadowed_by_loop_and_with(items):
    for F in items:
        F.relu(1)
    with open("f") as torch:
        torch.zeros(1)


class Holder:
    F = None

    def method(self, x):
        return F.relu(x)


lam = lambda F: F.relu(1)
comp = [F.relu(v) for F in range(3) for v in F]

try:
    import torch.cuda as cuda
except ImportError:
    cuda = None

cuda.is_available()


def uses_global():
    global F
    return F.relu(2)
""",
    "star.py": b"""from torch.nn import *
from torch import *

layer = Linear(2, 2)
act = ReLU()
y = abs(layer)
""",
    # Re-exports through the project's own modules, absolute and relative.
    "pkg/__init__.py": b"""from torch.nn import Conv2d as PkgConv
from .layers import *
from . import blocks
""",
    "pkg/layers.py": b"""import torch.nn as nn
from torch.nn import BatchNorm1d

Norm = BatchNorm1d
""",
    "pkg/blocks.py": b"""from torch.nn import Softmax as Soft
""",
    "pkg/rel.py": b"""from .blocks import Soft
from . import layers
from .. import outside

s = Soft()
t = layers.nn.ReLU()
outside.thing()
""",
    "user.py": b"""from pkg import PkgConv, nn, blocks
import pkg.layers as L
from pkg.blocks import Soft

a = PkgConv(1, 1, 3)
b = nn.Linear(1, 1)
c = L.BatchNorm1d(3)
d = blocks.Soft(dim=0)
e = Soft(dim=1)
f = L.Norm(3)
""",
    # The Tensor-method heuristic.
    "tensors.py": b"""import numpy as np
import torch


def f(x, y):
    a = x.view(2, 3)
    b = x.permute(0, 1).contiguous()
    c = "a,b".split(",")
    d = np.mean(a)
    e = torch.randn(3).view(3)
    g = y.to("cpu")
    h = super().to("cpu")
    k = torch.Tensor.view(x, 6)
    return a, b, c, d, e, g, h, k
""",
    # Files that cannot be scanned, and one that can thanks to its coding line.
    "broken.py": b"import torch\ndef broken(:\n    pass\n",
    "latin1.py": b"# caf\xe9\nimport torch\ntorch.abs(1)\n",
    "declared.py": b"# -*- coding: latin-1 -*-\n# caf\xe9\nimport torch\ntorch.abs(1)\n",
    "junk.py": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
    # A file name made to be markup; its content uses an API only it uses.
    HOSTILE_NAME: b"import torch\ntorch.manual_seed(0)\n",
    "notes.txt": b"not python: torch.abs(1)\n",
    ".hidden/skipped.py": b"import torch\ntorch.abs(1)\n",
}


def write_project(root: Path) -> Path:
    """Write the fixture project below ``root`` and return its folder."""
    project = root / "proj"
    for name, content in FILES.items():
        path = project / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
    return project
