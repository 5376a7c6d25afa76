"""Message scanning: the scanner (CommonMark's block state, the context questions) and the
Lark grammar ``grammar/message.lark`` that parses its tokens (docs/architecture.md)."""
