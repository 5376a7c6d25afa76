"""``python -m replykit``: the ``replykit`` command (as ``python -m replykit.cli``)."""

from replykit.cli import main

raise SystemExit(main())
