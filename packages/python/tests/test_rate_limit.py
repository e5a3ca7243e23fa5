"""The pacer (pure, a fake clock): the published bucket kept with a margin, and paid requests unpaced only
where capabilities say paid work spends no bucket."""

from __future__ import annotations

from rights_preflight.rate_limit import Pacer

GATE = "http://service/v1/rights/ingestion-gate"
LIMITS = {"gate": {"method": "POST", "path": "/v1/rights/ingestion-gate", "requests_per_minute": 60, "burst": 3}}


def pacer(caps: dict) -> tuple[Pacer, list[float]]:
    now = [0.0]
    p = Pacer.from_capabilities(caps)
    p._clock = lambda: now[0]
    return p, now


def test_the_burst_less_one_at_once_then_below_the_published_rate() -> None:
    p, now = pacer({"rate_limits": LIMITS})
    waits = [p.wait(GATE) for _ in range(4)]
    assert waits[:2] == [0.0, 0.0]
    assert waits[2] > 1.0 and waits[3] > waits[2] + 1.0  # 60 a minute with a 10 % margin
    now[0] = 100.0
    assert p.wait(GATE) == 0.0
    assert p.wait("http://service/v1/rights/inspect") == 0.0  # not limited: not paced


def test_paid_requests_are_paced_unless_capabilities_exempt_them() -> None:
    p, _ = pacer({"rate_limits": LIMITS})
    assert [p.wait(GATE, paid=True) for _ in range(3)][2] > 0
    p, _ = pacer({"rate_limits": LIMITS, "paid_requests": {"rate_limits_skipped": ["/v1/rights/ingestion-gate"]}})
    assert [p.wait(GATE, paid=True) for _ in range(5)] == [0.0] * 5
    assert p.wait(GATE) == 0.0 and p.wait(GATE) == 0.0 and p.wait(GATE) > 0


def test_a_429_empties_the_bucket() -> None:
    p, _ = pacer({"rate_limits": LIMITS})
    assert p.wait(GATE) == 0.0
    p.refused(GATE)
    assert p.wait(GATE) > 0
