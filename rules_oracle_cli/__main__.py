"""``python -m rules_oracle_cli`` is the ``rules-oracle`` command."""

from rules_oracle_cli.cli import main

main()
