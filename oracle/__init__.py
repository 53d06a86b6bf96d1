"""rules-oracle: log validation, scenario checks and reports over the reference engines.

Private: it changes without notice. Use the public library API, ``rules_oracle``
(docs/api.md), or the ``rules-oracle`` command.
"""

__version__ = "0.1.0"
