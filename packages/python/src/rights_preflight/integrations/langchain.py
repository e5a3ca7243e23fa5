"""LangChain (``pip install 'rights-preflight[langchain]'``): a document transformer and a loader wrapper that
check each document's source URL for a purpose and pass on only what a verified report permits; what is
passed on carries ``metadata["rights_preflight"]`` (classification, decision, the signed report's digest,
purchase id, transaction). What is not permitted is dropped, or with ``on_held="mark"`` kept with
``passes: False`` for a caller that records it (it must not be ingested). Example: docs/python-langchain.md.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Sequence
from typing import Any, Literal

from langchain_core.document_loaders import BaseLoader
from langchain_core.documents import BaseDocumentTransformer, Document

from ..usage import METADATA_KEY, RightsCheck, Verdict


def _url(doc: Document, source_key: str) -> str:
    return str(doc.metadata.get(source_key) or "")


def _apply(docs: Sequence[Document], verdicts: dict[str, Verdict], source_key: str, on_held: str) -> list[Document]:
    out: list[Document] = []
    for d in docs:
        v = verdicts.get(_url(d, source_key))
        if v is None:
            continue
        if v.passes or on_held == "mark":
            out.append(
                Document(page_content=d.page_content, metadata={**d.metadata, METADATA_KEY: v.metadata()}, id=d.id)
            )
    return out


class RightsPreflightTransformer(BaseDocumentTransformer):
    """Documents in, the permitted ones out (their text unchanged; the decision in ``metadata``)."""

    def __init__(
        self, check: RightsCheck, *, source_key: str = "source", on_held: Literal["drop", "mark"] = "drop"
    ) -> None:
        self.check, self.source_key, self.on_held = check, source_key, on_held

    def transform_documents(self, documents: Sequence[Document], **kwargs: Any) -> Sequence[Document]:
        verdicts = self.check.verdicts(_url(d, self.source_key) for d in documents)
        return _apply(documents, verdicts, self.source_key, self.on_held)

    async def atransform_documents(self, documents: Sequence[Document], **kwargs: Any) -> Sequence[Document]:
        verdicts = await self.check.averdicts(_url(d, self.source_key) for d in documents)
        return _apply(documents, verdicts, self.source_key, self.on_held)


class RightsPreflightLoader(BaseLoader):
    """Wraps any loader: its documents, checked in groups of ``batch`` (each group one or more gate calls)."""

    def __init__(
        self,
        loader: BaseLoader,
        check: RightsCheck,
        *,
        source_key: str = "source",
        on_held: Literal["drop", "mark"] = "drop",
        batch: int = 16,
    ) -> None:
        self.loader = loader
        self.transformer = RightsPreflightTransformer(check, source_key=source_key, on_held=on_held)
        self.batch = batch

    def lazy_load(self) -> Iterator[Document]:
        group: list[Document] = []
        for d in self.loader.lazy_load():
            group.append(d)
            if len(group) >= self.batch:
                yield from self.transformer.transform_documents(group)
                group = []
        if group:
            yield from self.transformer.transform_documents(group)

    async def alazy_load(self) -> AsyncIterator[Document]:
        group: list[Document] = []
        async for d in self.loader.alazy_load():
            group.append(d)
            if len(group) >= self.batch:
                for x in await self.transformer.atransform_documents(group):
                    yield x
                group = []
        if group:
            for x in await self.transformer.atransform_documents(group):
                yield x
