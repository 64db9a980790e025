import sys

from readinglist.cli import main

sys.exit(main())
