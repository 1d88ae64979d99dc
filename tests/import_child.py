"""Imports one backup file and reports when it returned (for the import kill test).

    python tests/import_child.py DATA_FOLDER BACKUP_FILE

Prints ``ready`` once the data is open and ``imported`` after the import returned.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent)]

from storage import Store, backup  # noqa: E402


def main() -> None:
    folder, source = sys.argv[1], Path(sys.argv[2])
    store = Store.open(folder)
    print("ready", flush=True)
    plan = backup.plan_import(store, json.loads(source.read_text()), str(source))
    backup.apply_import(store, plan)
    print("imported", flush=True)


if __name__ == "__main__":
    main()
