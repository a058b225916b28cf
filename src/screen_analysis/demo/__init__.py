"""Reference server of the Screen Analysis Service API and its seeded data generator.

The other side of the wire: nothing here imports the client (`screen_analysis.api`).
Submodules are imported on demand so that `--demo` stays quick to start.
"""
