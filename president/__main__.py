import sys

from president.cli.main import main

sys.exit(main())
