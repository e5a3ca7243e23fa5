"""``KEY=value`` files such as the buyer.env ``npm start`` writes in development (comments and blank lines
skipped; the values are taken literally, an optional pair of surrounding quotes removed)."""

from __future__ import annotations

import os


def read_env_file(path: str | os.PathLike[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            s = line.strip()
            if not s or s.startswith("#") or "=" not in s:
                continue
            k, v = s.split("=", 1)
            v = v.strip()
            if len(v) >= 2 and v[0] == v[-1] and v[0] in "\"'":
                v = v[1:-1]
            out[k.strip()] = v
    return out
