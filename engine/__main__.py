"""``python -m meeple``: the command line, as the ``meeple`` script runs it."""
from meeple.cli import main

if __name__ == "__main__":
    main()
