"""`python -m viz SCRIPT.py --out graph.svg`."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
