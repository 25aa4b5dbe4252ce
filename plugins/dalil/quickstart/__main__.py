"""``python -m dalil.quickstart``: the same as ``dalil-quickstart``."""

import sys

from dalil.quickstart import main

sys.exit(main())
