"""LangChain, LlamaIndex and Scrapy, with the real package objects, over the loopback publishers (one page
permitted for the purpose, one prohibited, one without any declaration): what the purpose does not permit is
not passed on, and what is passed on carries a report that verifies. One gate call (one transfer) each."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from rights_preflight import AsyncBuyer, Buyer, verify_saved_report
from rights_preflight.canonical import digest_of
from rights_preflight.usage import METADATA_KEY, RightsCheck

from .support.publishers import Publishers

PERMITTED = "https://pub.example/articles/1"
PROHIBITED = "https://closed.demo.example/articles/markets"
UNDECLARED = "https://bare.example/page"
PAGES = [PERMITTED, PROHIBITED, UNDECLARED]


@pytest.fixture(scope="module")
def publishers(world: Any) -> Publishers:
    return Publishers(world.info)


def _buyer(world: Any, cls: type = Buyer) -> Any:
    return cls(world.url, world.buyer_key(), world.pins, max_per_report_micro=120_000, max_per_task_micro=1_000_000)


def assert_carries_a_verifying_report(meta: dict[str, Any], check: RightsCheck, world: Any) -> None:
    assert meta["passes"] is True and meta["classification"] == "PERMITTED_BY_OBSERVED_DECLARATION"
    saved = check.reports[meta["purchase_id"]]
    assert verify_saved_report(saved, world.pins.evidence_key).ok
    assert meta["report_sha256"] == digest_of(saved["response"]["report"])
    assert meta["report_sha256"] == saved["response"]["delivery_proof"]["payload"]["report_sha256"]


def test_langchain_loader_and_transformer(world: Any, publishers: Publishers) -> None:
    from langchain_core.document_loaders import BaseLoader
    from langchain_core.documents import Document

    from rights_preflight.integrations.langchain import RightsPreflightLoader, RightsPreflightTransformer

    class PublisherLoader(BaseLoader):
        def lazy_load(self) -> Iterator[Document]:
            for url in PAGES:
                yield Document(page_content=publishers.get(url), metadata={"source": url})

    buyer = _buyer(world)
    check = RightsCheck(buyer, "rag-ingestion")
    docs = RightsPreflightLoader(PublisherLoader(), check).load()
    assert [d.metadata["source"] for d in docs] == [PERMITTED]
    assert "Article 1" in docs[0].page_content
    assert_carries_a_verifying_report(docs[0].metadata[METADATA_KEY], check, world)
    # The transformer over the same documents answers from the verdicts already bought: no second call.
    marked = RightsPreflightTransformer(check, on_held="mark").transform_documents(
        [Document(page_content="x", metadata={"source": u}) for u in PAGES]
    )
    by_url = {d.metadata["source"]: d.metadata[METADATA_KEY] for d in marked}
    assert by_url[PROHIBITED]["passes"] is False and by_url[PROHIBITED]["decision"] == "DENY_DECLARED"
    assert by_url[UNDECLARED]["passes"] is False
    assert by_url[UNDECLARED]["classification"] == "NO_MACHINE_READABLE_DECLARATION"
    assert [t["value"] for t in world.devnet.transfers(buyer.address)] == [100_000]


async def test_llamaindex_transform_over_documents_and_nodes(world: Any, publishers: Publishers) -> None:
    from llama_index.core import Document
    from llama_index.core.ingestion import IngestionPipeline
    from llama_index.core.node_parser import SentenceSplitter

    from rights_preflight.integrations.llamaindex import RightsPreflightTransform

    buyer = _buyer(world, AsyncBuyer)
    check = RightsCheck(buyer, "ai-index")
    docs = [Document(text=publishers.get(u), metadata={"url": u}) for u in PAGES]
    pipeline = IngestionPipeline(transformations=[SentenceSplitter(), RightsPreflightTransform(check=check)])
    nodes = await pipeline.arun(documents=docs)
    assert {n.metadata["url"] for n in nodes} == {PERMITTED}
    for n in nodes:
        assert_carries_a_verifying_report(n.metadata[METADATA_KEY], check, world)
        assert METADATA_KEY in n.excluded_llm_metadata_keys
    # Documents themselves (a document is a node): the same verdicts, nothing bought again.
    kept = await RightsPreflightTransform(check=check).acall(docs)
    assert [d.metadata["url"] for d in kept] == [PERMITTED]
    assert len(world.devnet.transfers(buyer.address)) == 1
    await buyer.aclose()


async def test_scrapy_downloader_middleware(world: Any) -> None:
    from scrapy import Spider
    from scrapy.exceptions import IgnoreRequest
    from scrapy.http import HtmlResponse, Request
    from scrapy.utils.test import get_crawler

    from rights_preflight.integrations.scrapy import RightsPreflightMiddleware

    crawler = get_crawler(Spider, {"RIGHTS_PREFLIGHT_PURPOSE": "search"})
    buyer = _buyer(world, AsyncBuyer)
    mw = RightsPreflightMiddleware(crawler, check=RightsCheck(buyer, "search"))
    ignored: list[str] = []
    passed: list[Request] = []

    async def download(url: str) -> None:
        request = Request(url)
        try:
            await mw.process_request(request)
            passed.append(request)
        except IgnoreRequest:
            ignored.append(url)

    # As the engine sends them: concurrently (CONCURRENT_REQUESTS), so the three share one gate call.
    await asyncio.gather(*(download(u) for u in PAGES))
    ignored.sort(key=PAGES.index)
    assert ignored == [PROHIBITED, UNDECLARED] and [r.url for r in passed] == [PERMITTED]
    response = mw.process_response(passed[0], HtmlResponse(PERMITTED, body=b"<html></html>", request=passed[0]))
    meta = response.meta[METADATA_KEY]
    assert_carries_a_verifying_report(meta, mw.check, world)
    assert verify_saved_report(meta["report"], world.pins.evidence_key).ok
    stats = crawler.stats.get_stats()
    assert stats["rights_preflight/passed"] == 1
    assert stats["rights_preflight/bought/DENY_DECLARED"] == 1 and stats["rights_preflight/bought/UNKNOWN"] == 1
    assert len(world.devnet.transfers(buyer.address)) == 1
    await buyer.aclose()
