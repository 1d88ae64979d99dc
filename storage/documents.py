"""TinyDB tables keyed by our own string ids, with a typed interface.

TinyDB types document ids as ints; ours are game and player ids (strings), so looking a game up
is a dictionary access, not a scan. `Documents` is the one place that bridges the two: the rest
of storage calls these typed methods, never TinyDB's table API.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, cast

from tinydb import TinyDB
from tinydb.table import Document, Table

from .files import AtomicStorage

Doc = dict[str, Any]


class Documents(Table):
    """A TinyDB table of documents under string ids; every change is one write."""

    document_id_class = str  # type: ignore[assignment]

    def _get_next_id(self) -> int:
        raise TypeError("documents here are always stored under their own id")

    @property
    def file(self) -> AtomicStorage:
        storage = self.storage
        assert isinstance(storage, AtomicStorage)
        return storage

    def get_doc(self, doc_id: str) -> Doc | None:
        found = self.get(doc_id=cast(int, doc_id))
        return dict(found) if isinstance(found, Mapping) else None

    def has(self, doc_id: str) -> bool:
        return self.contains(doc_id=cast(int, doc_id))

    def docs(self) -> list[tuple[str, Doc]]:
        """(id, document) for every document, in file order."""
        return [(cast(str, doc.doc_id), dict(doc)) for doc in self.all()]

    def ids(self) -> list[str]:
        return [doc_id for doc_id, _ in self.docs()]

    def put(self, doc_id: str, value: Mapping[str, Any]) -> None:
        """Insert or replace one whole document (one write)."""
        self.put_many({doc_id: value})

    def put_many(self, documents: Mapping[str, Mapping[str, Any]]) -> None:
        """Insert or replace many whole documents in one write."""
        if documents:
            plain = {doc_id: dict(value) for doc_id, value in documents.items()}
            self._update_table(lambda table: table.update(cast(Any, plain)))

    def change_many(
        self, documents: Mapping[str, Mapping[str, Any]], removed: Iterable[str]
    ) -> None:
        """Insert or replace `documents` and remove the documents `removed` (those that are
        there), in one write."""
        plain = {doc_id: dict(value) for doc_id, value in documents.items()}
        gone = set(removed) - set(plain)

        def change(table: dict[Any, Any]) -> None:
            table.update(plain)
            for doc_id in gone:
                table.pop(doc_id, None)

        self._update_table(change)

    def update_doc(self, doc_id: str, fields: Doc) -> None:
        """Change some fields of one document (one write)."""
        self.update(fields, doc_ids=[cast(int, doc_id)])

    def remove_ids(self, doc_ids: Iterable[str]) -> None:
        ids = [cast(int, doc_id) for doc_id in doc_ids]
        if ids:
            self.remove(doc_ids=ids)

    def replace_all(self, documents: Mapping[str, Mapping[str, Any]]) -> None:
        """Every document of the table at once (one write)."""
        plain = {doc_id: dict(value) for doc_id, value in documents.items()}
        self.file.write({**(self.file.read() or {}), self.name: plain})
        self.clear_cache()


def new_document(value: Doc, doc_id: str) -> Document:
    return Document(value, doc_id=cast(int, doc_id))


class Database(TinyDB):
    table_class = Documents

    def documents(self, name: str) -> Documents:
        table = self.table(name)
        assert isinstance(table, Documents)
        return table
