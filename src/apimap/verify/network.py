"""What record code may reach over the network from a worker: nothing, or (a rank of a
process group) this machine's loopback interface only.

The sandbox's network namespace is the barrier; these in-process guards are the second one,
for machines where the sandbox cannot make a namespace.
"""

from __future__ import annotations

import socket
from typing import Any, NoReturn

_CONNECT = socket.socket.connect
_CONNECT_EX = socket.socket.connect_ex
_CREATE_CONNECTION = socket.create_connection
_GETADDRINFO = socket.getaddrinfo
"""The real functions, kept before any guard replaces them."""

LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})


def _no_network(*args: Any, **kwargs: Any) -> NoReturn:
    raise OSError("apimap verify: 示例不能访问网络 (network access is disabled)")


def disable_network() -> None:
    """Make every attempt to open a connection or resolve a name fail."""
    socket.socket.connect = _no_network  # type: ignore[method-assign]
    socket.socket.connect_ex = _no_network  # type: ignore[method-assign]
    socket.create_connection = _no_network
    socket.getaddrinfo = _no_network


def _host(address: Any) -> Any:
    return address[0] if isinstance(address, tuple) else address


def _refuse() -> NoReturn:
    raise OSError("apimap verify: 示例只能访问本机回环地址 (loopback only)")


def loopback_only() -> None:
    """Let connections and name lookups reach the loopback interface and nothing else (a
    process group's ranks talk through a store there)."""

    def connect(self: socket.socket, address: Any) -> None:
        if _host(address) not in LOOPBACK:
            _refuse()
        _CONNECT(self, address)

    def connect_ex(self: socket.socket, address: Any) -> int:
        if _host(address) not in LOOPBACK:
            _refuse()
        return _CONNECT_EX(self, address)

    def create_connection(address: Any, *args: Any, **kwargs: Any) -> socket.socket:
        if _host(address) not in LOOPBACK:
            _refuse()
        return _CREATE_CONNECTION(address, *args, **kwargs)

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        if host not in LOOPBACK:
            _refuse()
        return _GETADDRINFO(host, *args, **kwargs)

    socket.socket.connect = connect  # type: ignore[assignment,method-assign]
    socket.socket.connect_ex = connect_ex  # type: ignore[assignment,method-assign]
    socket.create_connection = create_connection
    socket.getaddrinfo = getaddrinfo
