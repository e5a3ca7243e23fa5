"""LlamaIndex (``pip install 'rights-preflight[llamaindex]'``): a ``TransformComponent`` over documents and
nodes (the same contract for both) that passes on only what a verified report permits for the purpose, with
``metadata["rights_preflight"]`` (classification, decision, the signed report's digest). Usable in an
``IngestionPipeline(transformations=[RightsPreflightTransform(check=...), ...])``. Example:
docs/python-llamaindex.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from llama_index.core.schema import BaseNode, TransformComponent
from pydantic import Field

from ..usage import METADATA_KEY, RightsCheck, Verdict


def _url(node: BaseNode, keys: Sequence[str]) -> str:
    for k in keys:
        if node.metadata.get(k):
            return str(node.metadata[k])
    return ""


class RightsPreflightTransform(TransformComponent):
    check: Any = Field(description="a rights_preflight.usage.RightsCheck", exclude=True)
    source_keys: list[str] = Field(default_factory=lambda: ["url", "source", "file_path"])
    mark_held: bool = Field(default=False, description="keep what is not permitted, marked passes=False")
    # The decision is for the pipeline, not for the model or the embedding.
    exclude_from_llm: bool = True

    def _apply(self, nodes: Sequence[BaseNode], verdicts: dict[str, Verdict]) -> list[BaseNode]:
        out: list[BaseNode] = []
        for n in nodes:
            v = verdicts.get(_url(n, self.source_keys))
            if v is None or not (v.passes or self.mark_held):
                continue
            n.metadata[METADATA_KEY] = v.metadata()
            if self.exclude_from_llm:
                for keys in (n.excluded_llm_metadata_keys, n.excluded_embed_metadata_keys):
                    if METADATA_KEY not in keys:
                        keys.append(METADATA_KEY)
            out.append(n)
        return out

    def __call__(self, nodes: Sequence[BaseNode], **kwargs: Any) -> Sequence[BaseNode]:
        check: RightsCheck = self.check
        return self._apply(nodes, check.verdicts(_url(n, self.source_keys) for n in nodes))

    async def acall(self, nodes: Sequence[BaseNode], **kwargs: Any) -> Sequence[BaseNode]:
        check: RightsCheck = self.check
        return self._apply(nodes, await check.averdicts(_url(n, self.source_keys) for n in nodes))
