"""`python -m nasplan.cli`: the same as the `nasplan` command."""

from nasplan.cli import main

raise SystemExit(main())
