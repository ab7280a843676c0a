"""The game server: FastAPI app (app.py), stored logs (storage.py), live games (live.py,
registry.py), the public state (view.py), open seats and joins (seats.py), chat (chat.py),
rate limits (limits.py), cross-process news (notify.py), webhooks (webhooks.py), bots
(bots.py), settings (config.py) and `tresham serve` (serve.py)."""

from tresham.server.app import create_app
from tresham.server.config import ServerConfig

__all__ = ["ServerConfig", "create_app"]
