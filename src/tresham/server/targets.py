"""Where a webhook may point: public addresses only.

A webhook is a URL a stranger gives the server, which the server then calls: pointed at the
server's own host, its network or its cloud's metadata service, it would make the server a
way in. So a webhook's host must be, or resolve only to, global unicast addresses: never a
loopback, private, link-local, unique-local, multicast, reserved, shared (carrier NAT) or
unspecified one, in IPv4 or IPv6, and an IPv6 address that embeds an IPv4 one
(``::ffff:127.0.0.1``) is judged by the IPv4 address. A host is read as the resolver reads
it: the numeric spellings ``inet_aton`` accepts (``2130706433``, ``127.1``, ``0x7f.1``) are
IPv4 addresses; names under ``localhost``, ``.internal``, ``.local`` and ``.home.arpa`` are
refused by name (they are never public: RFC 6761, RFC 6762, RFC 8375, ICANN's private-use
``.internal``).

The check is made when the webhook is set and again on every call, against the addresses the
call connects to (``webhooks.py`` resolves once and connects to the address checked, so a name
that resolves to a public address when set and to a private one later is refused then). An
operator with a receiver beside the server (a local relay) allows it by configuration:
``TRESHAM_WEBHOOK_ALLOW``, a comma-separated list of host names (allowed whatever they resolve
to) and networks (``10.1.2.0/24``, ``127.0.0.1``: addresses allowed); none by default.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

#: What resolves a host name: (name, port) -> the addresses it names, as text.
Resolver = Callable[[str, int], Awaitable[list[str]]]

#: Names never public, by their last labels.
PRIVATE_NAMES = ("localhost", "internal", "local", "home.arpa")

#: IPv6 unique-local addresses (RFC 4193), named apart from other private ones.
UNIQUE_LOCAL = ipaddress.IPv6Network("fc00::/7")
#: IPv4 shared address space (RFC 6598, carrier-grade NAT).
SHARED = ipaddress.IPv4Network("100.64.0.0/10")


class Refused(Exception):
    """A webhook host the server will not call; the message says why."""


async def system_resolver(host: str, port: int) -> list[str]:
    """The addresses of `host` by the system's resolver (raises OSError if none)."""
    infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


def literal_address(host: str) -> IPAddress | None:
    """The address `host` spells (IPv6, IPv4 in any spelling ``inet_aton`` reads), or None
    if it is a name."""
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        pass
    if host and all(c in "0123456789abcdefABCDEFxX." for c in host) and host[0].isdigit():
        try:
            return ipaddress.IPv4Address(socket.inet_aton(host))
        except OSError:
            return None
    return None


def address_problem(address: IPAddress) -> str | None:
    """Why a webhook may not be called at `address` (None: it is public)."""
    if isinstance(address, ipaddress.IPv6Address):
        embedded = address.ipv4_mapped or address.sixtofour
        if embedded is not None:
            return address_problem(embedded)
    kinds = (
        (address.is_unspecified, "unspecified"),
        (address.is_loopback, "loopback"),
        (address.is_link_local, "link-local"),
        (address.is_multicast, "multicast"),
        (isinstance(address, ipaddress.IPv6Address) and address in UNIQUE_LOCAL, "unique-local"),
        (isinstance(address, ipaddress.IPv4Address) and address in SHARED, "shared (carrier NAT)"),
        (address.is_reserved, "reserved"),
        (address.is_private, "private"),
        (not address.is_global, "not public"),
    )
    for found, kind in kinds:
        if found:
            return f"{address} is a {kind} address"
    return None


def name_problem(host: str) -> str | None:
    """Why a host name is never public (None: it may be)."""
    name = host.lower().rstrip(".")
    for suffix in PRIVATE_NAMES:
        if name == suffix or name.endswith("." + suffix):
            return f"{host} is a local name"
    return None


@dataclass(frozen=True)
class AllowList:
    """The webhook hosts an operator allows whatever they are: names, and networks."""

    names: frozenset[str] = frozenset()
    networks: tuple[IPNetwork, ...] = ()

    @classmethod
    def parse(cls, entries: Iterable[str]) -> AllowList:
        """From entries such as ``relay.lan``, ``10.0.0.0/8``, ``::1``. Raises ValueError."""
        names: set[str] = set()
        networks: list[IPNetwork] = []
        for raw in entries:
            entry = raw.strip()
            if not entry:
                continue
            try:
                networks.append(ipaddress.ip_network(entry, strict=False))
            except ValueError:
                if not all(c.isalnum() or c in "-." for c in entry):
                    raise ValueError(f"not a host name or network: {entry!r}") from None
                names.add(entry.lower().rstrip("."))
        return cls(frozenset(names), tuple(networks))

    def allows_name(self, host: str) -> bool:
        """Whether `host` is allowed by name."""
        return host.lower().rstrip(".") in self.names

    def allows(self, address: IPAddress) -> bool:
        """Whether `address` is in an allowed network."""
        mapped = address.ipv4_mapped if isinstance(address, ipaddress.IPv6Address) else None
        return any(
            address in net or (mapped is not None and mapped in net) for net in self.networks
        )


@dataclass(frozen=True)
class Targets:
    """Which hosts webhooks may reach: public addresses, and what `allow` names."""

    allow: AllowList = AllowList()
    resolver: Resolver = system_resolver

    async def addresses(self, host: str, port: int) -> list[str]:
        """The addresses a call to `host` may connect to (every one `host` resolves to, all
        checked). Raises Refused, saying why."""
        allowed_name = self.allows_name(host)
        literal = literal_address(host)
        if literal is not None:
            found = [literal]
        else:
            if not allowed_name and (problem := name_problem(host)):
                raise Refused(problem)
            try:
                found = [
                    ipaddress.ip_address(a.partition("%")[0])
                    for a in await self.resolver(host, port)
                ]
            except (OSError, ValueError, UnicodeError):
                found = []
            if not found:
                raise Refused(f"{host} does not resolve to an address")
        if not allowed_name:
            for address in found:
                if not self.allow.allows(address) and (problem := address_problem(address)):
                    shown = problem if literal is not None else f"{host} resolves to {problem}"
                    raise Refused(shown)
        return [str(a) for a in found]

    def allows_name(self, host: str) -> bool:
        """Whether the operator allows `host` by name."""
        return self.allow.allows_name(host)
