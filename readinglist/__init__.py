"""readinglist: work through a conference's papers."""

__version__ = "0.1.0"
APP_NAME = "readinglist"
APP_ID = "io.github.readinglist.readinglist"
