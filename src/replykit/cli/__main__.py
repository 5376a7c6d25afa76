"""``python -m replykit.cli``: the ``replykit`` command."""

from replykit.cli import main

raise SystemExit(main())
