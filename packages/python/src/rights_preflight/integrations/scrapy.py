"""Scrapy (``pip install 'rights-preflight[scrapy]'``): a downloader middleware that asks before the download,
as ``RobotsTxtMiddleware`` does for robots.txt: a request whose URL a verified report does not permit for the
purpose raises ``IgnoreRequest``; a permitted one is downloaded and its response carries
``response.meta["rights_preflight"]`` (the verdict, with ``report``: the saved signed report). A stats counter
per outcome: ``rights_preflight/passed``, ``rights_preflight/<status>/<reason>``. Example: docs/python-scrapy.md.

Settings: ``RIGHTS_PREFLIGHT_ENABLED``, ``RIGHTS_PREFLIGHT_PURPOSE`` (required), ``RIGHTS_PREFLIGHT_ENV_FILE``
(a buyer.env: RIGHTS_SERVICE_URL, BUYER_* pins and BUYER_PRIVATE_KEY; the process environment otherwise),
``RIGHTS_PREFLIGHT_MAX_TOTAL_MICRO`` (the crawl's budget, default 1 USDC), ``RIGHTS_PREFLIGHT_MANIFEST``
(a manifest file: the crawl's verdicts, kept and resumed), ``RIGHTS_PREFLIGHT_TIER``.
"""

from __future__ import annotations

import logging
import os
from typing import TYPE_CHECKING

from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.http import Request, Response

from ..buyer import AsyncBuyer
from ..env_file import read_env_file
from ..gate_input import gate_price
from ..pins import Pins
from ..usage import METADATA_KEY, RightsCheck

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)


class RightsPreflightMiddleware:
    DOWNLOAD_PRIORITY: int = 1001

    def __init__(self, crawler: Crawler, check: RightsCheck | None = None) -> None:
        s = crawler.settings
        if not s.getbool("RIGHTS_PREFLIGHT_ENABLED", True):
            raise NotConfigured
        self.crawler = crawler
        self.stats = crawler.stats
        if check is None:
            purpose = s.get("RIGHTS_PREFLIGHT_PURPOSE")
            if not purpose:
                raise NotConfigured("RIGHTS_PREFLIGHT_PURPOSE is not set")
            env_file = s.get("RIGHTS_PREFLIGHT_ENV_FILE")
            env = {**(read_env_file(env_file) if env_file else {}), **os.environ}
            tier = s.get("RIGHTS_PREFLIGHT_TIER", "fresh")
            buyer = AsyncBuyer(
                env["RIGHTS_SERVICE_URL"],
                env["BUYER_PRIVATE_KEY"],
                Pins.from_env(env),
                max_per_report_micro=gate_price(tier, 4),
                max_per_task_micro=s.getint("RIGHTS_PREFLIGHT_MAX_TOTAL_MICRO", 1_000_000),
            )
            check = RightsCheck(buyer, purpose, tier=tier, manifest=s.get("RIGHTS_PREFLIGHT_MANIFEST"))
        self.check = check

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RightsPreflightMiddleware:
        return cls(crawler)

    async def process_request(self, request: Request, spider: Spider | None = None) -> None:
        if request.meta.get("dont_rights_preflight") or not request.url.startswith("https://"):
            return
        # robots.txt is what the service itself reads to find a declaration; it is not content.
        if request.url.split("?", 1)[0].endswith("/robots.txt"):
            return
        v = await self.check.averdict(request.url)
        if not v.passes:
            self.stats.inc_value(f"rights_preflight/{v.status}/{v.reason or v.decision}")
            logger.debug("Not permitted for %s: %s (%s)", self.check.purpose, request, v.reason)
            raise IgnoreRequest(f"rights preflight: {v.reason or v.status} for {self.check.purpose}")
        self.stats.inc_value("rights_preflight/passed")
        request.meta[METADATA_KEY] = {**v.metadata(), "report": self.check.reports.get(v.purchase_id or "")}

    def process_response(self, request: Request, response: Response, spider: Spider | None = None) -> Response:
        # response.meta is the request's: the verdict and report set before the download ride along.
        return response
