"""The layout of the data files the build tools write: JSON with one entry per line inside
the big objects or lists, compact elsewhere (small diffs when one entry changes)."""

from __future__ import annotations

import json
from typing import Any


def dump(data: dict[str, Any], big_keys: tuple[str, ...]) -> str:
    """`data` as JSON, one entry per line inside the ``big_keys`` objects or lists."""
    lines = ["{"]
    items = list(data.items())
    for i, (key, value) in enumerate(items):
        comma = "," if i + 1 < len(items) else ""
        if key in big_keys and isinstance(value, dict | list) and value:
            pairs = value.items() if isinstance(value, dict) else enumerate(value)
            opener, closer = ("{", "}") if isinstance(value, dict) else ("[", "]")
            lines.append(f"  {json.dumps(key)}: {opener}")
            sub = list(pairs)
            for j, (k, v) in enumerate(sub):
                c = "," if j + 1 < len(sub) else ""
                head = f"{json.dumps(k)}: " if isinstance(value, dict) else ""
                lines.append(f"    {head}{json.dumps(v, ensure_ascii=False)}{c}")
            lines.append(f"  {closer}{comma}")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"
