"""``python -m longhall.server.cli``: the ``longhall`` command."""

import sys

from . import main

sys.exit(main())
