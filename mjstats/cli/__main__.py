"""``python -m mjstats.cli``: the same as the ``mjstats`` command."""

import sys

from mjstats.cli import main

if __name__ == "__main__":
    sys.exit(main())
