"""tresham.titles.t1854: 1854 (Austria).

Data so far: `data/market.json`, the hexagonal stock market (see `docs/rulings/1854.md`).
"""
