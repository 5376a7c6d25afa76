"""The playground: a local page to edit a message and see what replykit reads in it
(docs/serve.md; ``replykit serve``).

- :mod:`replykit.serve.api`: the JSON endpoints as pure functions (segments and
  diagnostics §2-§6, rendered forms, responses §7, Self-check §8, answer actions §12);
- :mod:`replykit.serve.render`: the message as HTML, every string escaped (§1);
- :mod:`replykit.serve.server`: the standard library HTTP server around them
  (:func:`make_server`), loopback only by default, bodies over 2 MiB refused;
- :mod:`replykit.serve.assets`: the packaged page and bundled examples.
"""

from __future__ import annotations

from replykit.serve.server import MAX_BODY, PlaygroundServer, make_server

__all__ = ["MAX_BODY", "PlaygroundServer", "make_server"]
