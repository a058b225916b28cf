"""`python -m screenshots`: the same as `python screenshots/render.py`."""

import sys

from screenshots.render import main

sys.exit(main())
