"""AM802: reported by `apimap verify`, which runs the record against the installed libraries."""

from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Rule, Scope

RULE = Rule(
    "AM802",
    "参数名或顺序与已安装的库不符 (parameter names or order differ from the library)",
    Scope.VERIFY,
    Severity.ERROR,
    "按已安装的库更新签名与参数映射，可用 `apimap new` 生成参考草稿 (update the signature)",
    why="签名是读者对照两个 API 的依据，必须与库中的实际签名一致。",
)
