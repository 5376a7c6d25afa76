"""Message scanning: the lexer stage and the Lark grammar that composes its tokens."""
