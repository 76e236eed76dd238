"""``python -m hundred_server``: the command line (see ``hundred_server.cli``)."""

import sys

from hundred_server.cli import main

sys.exit(main())
