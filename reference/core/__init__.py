"""The shared core every game engine is written against (see docs/engine-contract.md)."""
