"""``python -m oracle`` is the ``rules-oracle`` command."""

from oracle.cli import main

main()
