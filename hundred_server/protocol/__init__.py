"""The wire: messages and their fields (``wire``), the JSON Schema (``schema``), the
codecs that turn lines into messages and back (``codecs``), and the error tree
(``errors``). No I/O."""
