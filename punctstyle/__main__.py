"""``python -m punctstyle``: the command line (see :mod:`punctstyle.cli`)."""

from punctstyle.cli import main

raise SystemExit(main())
