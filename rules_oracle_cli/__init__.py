"""The ``rules-oracle`` command and the pytest plugin: clients of the public API
(``rules_oracle``), nothing more. ``python -m rules_oracle_cli`` is the command."""
