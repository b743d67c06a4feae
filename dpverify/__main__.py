"""``python -m dpverify``: the same command line as the ``dpverify`` script."""

from dpverify.reports.cli import main

raise SystemExit(main())
