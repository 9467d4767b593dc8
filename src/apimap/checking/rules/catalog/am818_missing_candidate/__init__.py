"""AM818: reported by `apimap verify`, which runs the record against the installed libraries."""

from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Rule, Scope

RULE = Rule(
    "AM818",
    "Paddle 有名称对应的 API，记录却写功能缺失 (paddle has a candidate the record does not discuss)",
    Scope.VERIFY,
    Severity.ERROR,
    "核对该 API：能对应就改写映射，不能对应就在 missing.considered 中说明原因 (map it or say why not)",
    why="Paddle 3.x 新增了许多与 PyTorch 同名的 API，「功能缺失」的结论很快就会过时，每次验证都要重新查找。",
)
