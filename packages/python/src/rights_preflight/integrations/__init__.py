"""Thin framework layers over :class:`rights_preflight.usage.RightsCheck`, each an optional extra:
``rights-preflight[langchain]``, ``[llamaindex]``, ``[scrapy]``."""
