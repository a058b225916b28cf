"""The few private parts of our dependencies the app relies on, one module per library.

Everything else uses public APIs only (tests/test_public_apis.py checks `src/` for private
names of textual, textual-image, textual-serve and httpx outside this package). Each hook
here says why there is no public way, and tests/tui/test_compat.py fails when the upstream
object it relies on changes.
"""
