"""`python -m nsdevice` is the `nsdevice` command."""

import sys

from nsdevice.cli import main

sys.exit(main())
