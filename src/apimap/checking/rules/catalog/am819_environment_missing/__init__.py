"""AM819: reported by `apimap verify`, which runs the record against the installed libraries."""

from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Rule, Scope

RULE = Rule(
    "AM819",
    "缺少运行该记录所需的验证环境 (verification environment missing)",
    Scope.VERIFY,
    Severity.WARNING,
    "按提示创建环境，如 make .venv-vision/.installed (create the environment)",
    why="torchvision 与旧版 Paddle 需要单独的环境；缺少时清楚地说一次，而不是每个示例都报错。",
)
