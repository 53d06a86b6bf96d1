"""rules-oracle: log validation, scenario checks and reports over the reference engines."""

__version__ = "0.1.0"
