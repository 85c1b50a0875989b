import sys

from loadlab.cli import main

sys.exit(main())
