"""Reading and writing the oracle's files: move logs (JSON Lines) and scenarios (YAML)."""
