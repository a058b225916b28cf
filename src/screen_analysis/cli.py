"""Command line (placeholder while the foundation lands)."""


def main() -> None:
    """Entry point."""
    raise SystemExit(0)
