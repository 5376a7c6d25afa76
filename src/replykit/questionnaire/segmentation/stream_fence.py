"""Whether the last line still arriving may open a fence (§10: a partial fence opener is
held back whole), read a chunk at a time (CommonMark 4.5; §1.1 for the BOM)."""

from __future__ import annotations


class FenceLine:
    """Whether the partial last line may still become a fence opener (CommonMark 4.5:
    0-3 spaces, a run of 3+ backticks or tildes, an info string without backticks
    after backticks), read a chunk at a time."""

    def __init__(self, *, message_start: bool = False) -> None:
        # The message's first line: a leading U+FEFF is not read (§1.1, as line
        # classification ignores it).
        self.bom = message_start
        self.spaces = 0
        self.char = ""
        self.run = 0
        self.info = False  # the run has ended
        self.possible = True

    def feed(self, text: str) -> None:
        """Read the next characters of the line."""
        if self.bom and text:
            self.bom = False
            if text[0] == "\ufeff":
                text = text[1:]
        for i, ch in enumerate(text):
            if not self.possible:
                return
            if not self.char:
                if ch == " " and self.spaces < 3:
                    self.spaces += 1
                elif ch in "`~":
                    self.char, self.run = ch, 1
                else:
                    self.possible = False
            elif not self.info and ch == self.char:
                self.run += 1
            else:
                self.info = True
                rest = text[i:]
                self.possible = self.run >= 3 and not (self.char == "`" and "`" in rest)
                return


def fence_line(text: str) -> FenceLine | None:
    """The state of a line that begins with ``text`` (``None``: no fence opener)."""
    if not text:
        return FenceLine()  # a chunk often ends with its line: nothing to read yet
    if text[0] not in " `~":
        return None  # most lines: decided by their first character
    if text[0] == " ":  # an indented line: decided by what follows its spaces
        body = text.lstrip(" ")
        if len(text) - len(body) > 3 or (body and body[0] not in "`~"):
            return None
    line = FenceLine()
    line.feed(text)
    return line
