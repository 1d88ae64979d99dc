"""Debrief: the scorepad for spy card games.

The app itself arrives with its screens (views/); for now this checks the scoring engine is
importable and says what there is to use.
"""

from __future__ import annotations

import sys

import scoring


def main() -> int:
    games = ", ".join(rules.title for rules in scoring.GAMES.values())
    print(f"Debrief: the scoring engine is ready for {games}.")
    print("The app's screens are not built yet. Replay a game record with:")
    print("    python -m scoring replay FILE.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
