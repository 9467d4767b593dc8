"""AM205: mappings onto Paddle's context objects are category 5.

The specification files every ``torch.optim.lr_scheduler.*``, ``torch.nn.init.*``
and ``torch.nn.utils.clip*`` under 用法不同：涉及上下文修改, because in Paddle 2.0
they became objects handed to a layer or an optimizer (``ClipGradByValue``,
``paddle.optimizer.lr.*``, ``paddle.nn.initializer.*``). Paddle 3.x also has
direct functions for some of them (``paddle.nn.utils.clip_grad_value_``), and
those records follow the library. The rule therefore checks the Paddle side:
a torch API of those families mapped onto a context object is category 5.
"""

from __future__ import annotations

from collections.abc import Iterator

from apimap.checking.context import RecordContext
from apimap.checking.diagnostics import Severity
from apimap.checking.rules.base import Finding, Rule, Scope
from apimap.record import derived
from apimap.record.categories import Category


def check(ctx: RecordContext) -> Iterator[Finding]:
    """Mapping onto a scheduler, initializer or gradient-clip object changes the context."""
    record = ctx.record
    if derived.onto_context_object(record) and ctx.category is not Category.CONTEXT_CHANGE:
        yield Finding(
            ctx.loc("category"),
            f"`{record.paddle_api}` 需要在 Layer 或优化器中设置 (is set on a layer or optimizer)",
        )


RULE = Rule(
    "AM205",
    "该映射属于「用法不同：涉及上下文修改」(this mapping is context_change)",
    Scope.RECORD,
    Severity.ERROR,
    "改为 `category: context_change`，或映射到 Paddle 3.x 的直接对应函数 (use context_change)",
    why="映射到要交给 Layer 或优化器的对象时，迁移要改动调用处以外的代码，读者需要事先知道。",
    check=check,
)
