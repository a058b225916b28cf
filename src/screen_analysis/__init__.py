"""screen-analysis: a terminal app and command line for the Screen Analysis Service."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("screen-analysis")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0"

__all__ = ["__version__"]
