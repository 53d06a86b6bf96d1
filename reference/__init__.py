"""Reference engines: one minimal, heavily checked engine per game over a small shared core.

Private: it changes without notice. Use the public library API, ``rules_oracle``
(docs/api.md).
"""
