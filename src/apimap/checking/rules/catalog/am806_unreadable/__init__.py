"""AM806: reported by `apimap verify`, which runs the record against the installed libraries."""

from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Rule, Scope

RULE = Rule(
    "AM806",
    "无法从已安装的库读取签名 (cannot read the signature from the library)",
    Scope.VERIFY,
    Severity.WARNING,
    "库中没有可读的签名，该签名未经验证，验证标记为部分验证 (the signature stays unverified)",
    why="读不出的签名无法对照，页面会标明该部分未经验证。",
)
