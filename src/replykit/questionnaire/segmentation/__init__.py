"""Segmentation (docs/protocol.md §2-§4, §8): :mod:`.segmenter` (``segment()``),
:mod:`.blocks` (reading one candidate block) and :mod:`.regions` (``code_regions()``)."""
