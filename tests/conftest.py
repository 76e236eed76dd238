"""Test settings shared by every file.

Under CI (``CI=true``), hypothesis runs the same examples every time (``derandomize``),
so a submission's CI result does not depend on luck; local runs keep exploring new
examples, which is where new bugs are found (and then pinned by plain tests).
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
    settings.load_profile("ci")
