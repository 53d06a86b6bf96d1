"""Reference engines: one minimal, heavily checked engine per game over a small shared core."""
