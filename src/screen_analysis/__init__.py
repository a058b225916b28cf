"""screen-analysis: a terminal app and command line for the Screen Analysis Service."""

# The one place the version is written (hatchling reads it for the package metadata), so
# start-up needs no importlib.metadata look-up.
__version__ = "0.1.0"

__all__ = ["__version__"]
