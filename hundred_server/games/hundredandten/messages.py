"""Hundred and Ten on the wire, as types: nothing of its own. Its messages are the generic
ones of protocol/messages.py (the other games were added as variants of them), so it adds
no definition, variant or slot value. ``MESSAGES`` is what ``protocol.schema.json`` is
generated from.
"""

from hundred_server.protocol.declare import Contribution

MESSAGES = Contribution(())
