"""Allow `python -m screen_analysis`."""

from screen_analysis.cli import main

main()
