"""Keep the German catalogue complete: python tools/i18n.py

Collects every text a player can read: the `t("...")` calls in views/, the words marked
`N_("...")` anywhere, and the message template of every Problem (record and storage errors).
Adds the new ones to assets/locales/de.po (to be translated) and drops those no longer used.
tests/test_i18n.py fails while any is untranslated.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
CATALOGUE = ROOT / "assets" / "locales" / "de.po"
KEYWORDS = {"t": None, "N_": None, "plural": (1, 2)}


def problem_templates() -> set[str]:
    """The template of every Problem subclass in scoring and storage."""
    from scoring.errors import Problem

    for package in ("scoring", "storage"):
        module = importlib.import_module(package)
        for info in pkgutil.iter_modules(module.__path__):
            if info.name != "__main__":
                importlib.import_module(f"{package}.{info.name}")
    found: set[str] = set()
    stack = [Problem]
    while stack:
        cls = stack.pop()
        stack += cls.__subclasses__()
        if "template" in vars(cls) and not inspect.isabstract(cls):
            found.add(cls.template)
    return found


def extracted() -> list[str | tuple[str, str]]:
    """The texts marked in the code: a msgid, or (singular, plural) for `t.plural`."""
    found: list[str | tuple[str, str]] = []
    for folder in ("views", "scoring", "storage"):
        for _file, _line, message, _comments, _context in extract_from_dir(
            str(ROOT / folder), keywords=KEYWORDS, comment_tags=()
        ):
            if isinstance(message, tuple) and all(message):
                found.append((str(message[0]), str(message[1])))
            elif isinstance(message, str) and message:
                found.append(message)
    return found


def messages() -> set[str]:
    """Every player-facing English text in the code (for a plural text: its singular)."""
    found = problem_templates()
    for message in extracted():
        found.add(message[0] if isinstance(message, tuple) else message)
    return found


def plurals() -> set[tuple[str, str]]:
    return {message for message in extracted() if isinstance(message, tuple)}


def load() -> Catalog:
    if not CATALOGUE.exists():
        return Catalog(locale="de", project="Debrief")
    with open(CATALOGUE, "rb") as handle:
        return read_po(handle, locale="de")


def main() -> int:
    plural = plurals()
    wanted = messages() - {singular for singular, _ in plural}
    catalogue = load()
    fresh = Catalog(locale="de", project="Debrief", fuzzy=False)
    for message in sorted(wanted):
        old = catalogue.get(message)
        fresh.add(message, old.string if old is not None else "")
    for singular, plural_text in sorted(plural):
        old = catalogue.get(singular)
        forms = old.string if old is not None and old.pluralizable else ("", "")
        fresh.add((singular, plural_text), forms)
    CATALOGUE.parent.mkdir(parents=True, exist_ok=True)
    with open(CATALOGUE, "wb") as handle:
        write_po(handle, fresh, width=100, omit_header=False, sort_output=True)
    missing = [m for m in fresh if m.id and not (all(m.string) if m.pluralizable else m.string)]
    print(f"{len(wanted)} messages, {len(missing)} to translate in {CATALOGUE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
