"""The Inline Questionnaire protocol (docs/protocol.md §1-§11).

- :mod:`replykit.questionnaire.model`: the AST (forms, responses, segments);
  :mod:`~replykit.questionnaire.profiles` (§6), :mod:`~replykit.questionnaire.compat`
  (§9) and :mod:`~replykit.questionnaire.limits` (§1) are the options of a reading.
- :mod:`replykit.questionnaire.segmentation`: where blocks are found (§2-§4, §8), with
  the grammar-driven scanner in :mod:`replykit.questionnaire.scan` and the payload
  readers in :mod:`replykit.questionnaire.payload`.
- :mod:`replykit.questionnaire.conversation`: the conversation side: responses (§7), the
  ``questionnaire_async`` tool (§7), Self-check and the submission rule (§8, §11),
  stored conversations (§8), localized texts.

The public names are exported from :mod:`replykit`; this package holds no state.
"""
