"""`python -m benchmarks.reliability [--long] [--only NAME] [--seed N] [--json PATH]`."""

import sys

from benchmarks.reliability.run import main

sys.exit(main())
