"""Benchmarks of screen-analysis, each figure a ratio against a baseline measured in the same run.

Run `uv run python -m benchmarks [--quick|--full] [--json PATH]`; see docs/performance.md.
"""
