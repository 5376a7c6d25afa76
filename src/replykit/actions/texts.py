"""Client-side texts in zh and en: labels, confirmation, state messages (seed 004, §12).

The Chinese texts are the seed's where it gives one (确认{label}？, 取消, 确认执行,
请修改当前结果：, 展示已修改); the English ones and the rest are §12's or the project's.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

from replykit.actions.model import Locale

TEXTS: Final[Mapping[str, Mapping[Locale, str]]] = {
    # Client-added entries (seed 004 "5. 客户端自动补充的入口", §12).
    "auto.view.detail": {"zh": "查看详情", "en": "View details"},
    "auto.conversation.modify": {"zh": "修改展示", "en": "Change display"},
    "auto.conversation.continue": {"zh": "继续处理", "en": "Continue"},
    "auto.continue.prompt": {"zh": "继续处理：{question}", "en": "Continue: {question}"},
    # conversation.modify default prefix (seed 004 "4.5 conversation.modify").
    "modify.prompt": {"zh": "请修改当前结果：", "en": "Please modify the current result: "},
    # Confirmation area (seed 004 "6. 确认策略", §12).
    "confirm.title": {"zh": "确认{label}？", "en": "Confirm {label}?"},
    "confirm.description": {
        "zh": "该操作仍需通过您的业务权限校验。",
        "en": "This request is still checked against your permissions.",
    },
    "confirm.cancel": {"zh": "取消", "en": "Cancel"},
    "confirm.confirm": {"zh": "确认执行", "en": "Confirm"},
    # State record messages (seed 004 "7. 操作状态").
    "state.confirming": {"zh": "等待确认", "en": "Waiting for confirmation"},
    "state.cancelled": {"zh": "已取消", "en": "Cancelled"},
    "state.running": {"zh": "正在提交", "en": "Sending"},
    "state.accepted": {"zh": "请求已提交", "en": "Request accepted"},
    "state.send_failed": {"zh": "提交失败", "en": "Sending failed"},
    "state.details": {"zh": "已展开数据明细", "en": "Details shown"},
    "state.chart_changed": {"zh": "展示已修改", "en": "Display changed"},
    "state.charts_reset": {"zh": "已恢复默认展示", "en": "Default display restored"},
    "state.input_filled": {"zh": "已填入输入框", "en": "Added to the input box"},
    "state.no_question": {
        "zh": "找不到产生本回答的原问题",
        "en": "The question that produced this answer is unknown",
    },
    "chart.unknown_component": {
        "zh": "找不到图表 {componentId}",
        "en": "Chart {componentId} was not found",
    },
    "chart.choose_chart": {
        "zh": "有多张图表可以切换，请指定图表",
        "en": "Several charts can change; choose one",
    },
    "chart.no_chart": {
        "zh": "当前回答没有可切换的图表",
        "en": "This answer has no chart to change",
    },
    "chart.incompatible": {
        "zh": "图表数据不适合显示为 {chartType}",
        "en": "The chart's data cannot be shown as {chartType}",
    },
}


_FIELD = re.compile(r"\{([A-Za-z_]+)\}")


def text(key: str, locale: Locale, **values: str) -> str:
    """The ``locale`` text for ``key`` with ``{name}`` fields filled from ``values``.

    Raises ``KeyError`` for an unknown key (a programming error, never input-driven).
    Filling is one pass over the template, so braces inside values stay as they are.
    """
    # One pass over the template: text inserted for one field is never read again.
    return _FIELD.sub(lambda m: values.get(m.group(1), m.group(0)), TEXTS[key][locale])
