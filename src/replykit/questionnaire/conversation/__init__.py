"""The conversation side of the protocol (docs/protocol.md §7, §8, §11): responses
(:mod:`.response`), the ``questionnaire_async`` tool (:mod:`.tool`), Self-check and the
submission rule (:mod:`.selfcheck`), conversations as products store them
(:mod:`.stored`), localized texts (:mod:`.texts`) and JSON Schemas (:mod:`.schemas`)."""
