"""Write tests/contract/golden_logs.txt: run once, from the code before a refactor.

python tests/contract/make_golden.py
"""

from __future__ import annotations

from golden_cases import GOLDEN_FILE, case_key, cases, log_hash


def main() -> None:
    """Hash every golden play-out and store the hashes."""
    lines = [f"{case_key(*case)} {log_hash(*case)}" for case in cases()]
    GOLDEN_FILE.write_text("\n".join(lines) + "\n")
    print(f"{len(lines)} hashes written to {GOLDEN_FILE}")


if __name__ == "__main__":
    main()
