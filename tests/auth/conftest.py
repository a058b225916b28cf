"""Auth tests: the in-memory keyring fixture lives in tests/conftest.py."""
