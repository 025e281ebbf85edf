import sys

from games.rules.cli import main

sys.exit(main())
