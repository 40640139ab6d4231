"""`python -m stockbench` runs the command line."""

from stockbench.cli.main import main

main()
